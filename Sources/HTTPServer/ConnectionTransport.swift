#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ServerTLS

/// The bytes of one connection, plain or TLS (which also drives its handshake): reads, writes, the half-close and
/// the close, deciding nothing about what the bytes mean. Used only on its connection's queue.
final class ConnectionTransport {
    enum ReadResult {
        case data(Int)
        /// Nothing to read now.
        case later
        /// TLS: the read (a handshake step) needs the socket writable first.
        case needsWritable
        case end
        case broken
    }

    enum WriteResult {
        case wrote(Int)
        case wouldBlock
        /// TLS: the write needs the socket readable first.
        case needsReadable
        case broken
    }

    let fd: Int32
    private var tls: TLSStream?

    init(fd: Int32) {
        self.fd = fd
    }

    /// Starts TLS with the listener's current context; false when no session could be made.
    func startTLS(_ identity: TLSServerIdentity) -> Bool {
        guard let stream = TLSStream(context: identity.context, fileDescriptor: fd) else { return false }
        tls = stream
        return true
    }

    var isTLS: Bool { tls != nil }
    /// Bytes TLS already decrypted: they raise no readiness report of their own.
    var hasBufferedInput: Bool { tls?.hasBufferedInput == true }
    /// The client certificate TLS saw, if any.
    var clientCertificate: TLSClientCertificate? { tls?.clientCertificate }

    /// One read: through TLS, or with `raw` (lingering, when the bytes are discarded anyway) from the socket as it is.
    func read(into base: UnsafeMutableRawPointer, count: Int, raw: Bool) -> ReadResult {
        if let tls, !raw {
            switch tls.read(into: base, count: count) {
            case .transferred(let n): return .data(n)
            case .wantsReadable: return .later
            case .wantsWritable: return .needsWritable
            case .closed: return .end
            case .failed: return .broken
            }
        }
        while true {
            let n = recv(fd, base, count, Int32(MSG_DONTWAIT))
            if n > 0 { return .data(n) }
            if n == 0 { return .end }
            let e = errno
            if e == EINTR { continue }
            return e == EAGAIN || e == EWOULDBLOCK ? .later : .broken
        }
    }

    /// One write: through TLS, or to the plain socket.
    func write(_ base: UnsafeRawPointer, count: Int) -> WriteResult {
        if let tls {
            switch tls.write(base, count: count) {
            case .transferred(let n): return .wrote(n)
            case .wantsWritable: return .wouldBlock
            case .wantsReadable: return .needsReadable
            case .closed, .failed: return .broken
            }
        }
        while true {
            let n = Socket.sendNoSignal(fd, base, count)
            if n > 0 { return .wrote(n) }
            if n < 0 && errno == EINTR { continue }
            return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? .wouldBlock : .broken
        }
    }

    /// TLS's close_notify, then no more writes (the peer still sees everything sent).
    func shutdownWrite() {
        tls?.sendCloseNotify()
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Drops TLS and closes the descriptor.
    func close() {
        tls = nil
        Socket.closeDescriptor(fd)
    }
}
