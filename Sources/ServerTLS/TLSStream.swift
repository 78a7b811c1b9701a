import COpenSSL

/// One server-side TLS connection over a non-blocking socket. Not thread-safe: its owner calls it from one serial
/// queue only. The handshake happens inside the first reads.
public final class TLSStream {
    /// The outcome of one read or write.
    public enum Outcome: Equatable {
        /// This many bytes were read or written.
        case transferred(Int)
        /// Try again when the socket is readable.
        case wantsReadable
        /// Try again when the socket is writable.
        case wantsWritable
        /// The peer closed the connection (close_notify or end of stream).
        case closed
        /// A protocol or system error; the connection is unusable. OpenSSL has sent an alert where one applies.
        case failed
    }

    private let ssl: OpaquePointer
    private var peer: TLSClientCertificate??

    /// Wraps an accepted socket; nil only if OpenSSL cannot allocate. The connection holds its own reference to the
    /// context, so a reload that replaces it does not disturb the handshake or the connection.
    public init?(context: TLSContext, fileDescriptor: Int32) {
        guard let ssl = SSL_new(context.pointer) else { return nil }
        guard SSL_set_fd(ssl, fileDescriptor) == 1 else {
            SSL_free(ssl)
            return nil
        }
        SSL_set_accept_state(ssl)
        self.ssl = ssl
    }

    deinit {
        SSL_free(ssl)
    }

    /// Reads decrypted bytes (driving the handshake first).
    public func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Outcome {
        OpenSSLErrors.clear()
        let n = SSL_read(ssl, buffer, Int32(clamping: count))
        if n > 0 { return .transferred(Int(n)) }
        return outcome(n)
    }

    /// Encrypts and writes bytes (at most one record's worth may be taken per call).
    public func write(_ buffer: UnsafeRawPointer, count: Int) -> Outcome {
        OpenSSLErrors.clear()
        let n = SSL_write(ssl, buffer, Int32(clamping: count))
        if n > 0 { return .transferred(Int(n)) }
        return outcome(n)
    }

    /// Sends close_notify if the handshake finished; never waits.
    public func sendCloseNotify() {
        OpenSSLErrors.clear()
        if SSL_is_init_finished(ssl) == 1 { _ = SSL_shutdown(ssl) }
        OpenSSLErrors.clear()
    }

    /// Whether OpenSSL holds input (decrypted or not yet processed) that no socket readiness event will announce.
    public var hasBufferedInput: Bool { SSL_has_pending(ssl) == 1 }

    /// Whether the handshake has completed.
    public var isEstablished: Bool { SSL_is_init_finished(ssl) == 1 }

    /// The client's certificate, read once after the handshake; nil when none was presented.
    public var clientCertificate: TLSClientCertificate? {
        if let peer { return peer }
        guard isEstablished else { return nil }
        var subject = [CChar](repeating: 0, count: 1024)
        var verified: Int32 = 0
        let present = subject.withUnsafeMutableBufferPointer { p -> Bool in
            guard let base = p.baseAddress else { return false }
            return vd_tls_peer_certificate(ssl, base, Int32(p.count), &verified) == 1
        }
        let value = present
            ? TLSClientCertificate(subject: String(decoding: subject.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                                   as: UTF8.self),
                                   chainsToClientCA: verified == 1)
            : nil
        peer = .some(value)
        return value
    }

    private func outcome(_ result: Int32) -> Outcome {
        let error = SSL_get_error(ssl, result)
        OpenSSLErrors.clear()
        switch error {
        case SSL_ERROR_WANT_READ: return .wantsReadable
        case SSL_ERROR_WANT_WRITE: return .wantsWritable
        case SSL_ERROR_ZERO_RETURN: return .closed
        case SSL_ERROR_SYSCALL where result == 0: return .closed
        default: return .failed
        }
    }
}
