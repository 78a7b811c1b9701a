/// The bytes a connection has still to write, and how far the kernel has taken them: appended whole, handed out from
/// the first unsent byte, dropped once all are sent (keeping a buffer of ordinary size for the next response).
struct OutboundBytes {
    private var bytes: [UInt8] = []
    private var offset = 0

    var hasPending: Bool { offset < bytes.count }

    mutating func append(_ more: [UInt8]) {
        if offset == bytes.count {
            bytes = more
            offset = 0
        } else {
            bytes.append(contentsOf: more)
        }
    }

    /// Runs `body` with the first unsent byte and the count left; nil when the buffer has no storage.
    func withPending<T>(_ body: (UnsafeRawPointer, Int) -> T) -> T? {
        bytes.withUnsafeBytes { buffer in
            buffer.baseAddress.map { body($0 + offset, buffer.count - offset) }
        }
    }

    /// `count` more bytes were taken by the kernel.
    mutating func sent(_ count: Int) {
        offset += count
    }

    /// All were sent: forget them.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: bytes.capacity <= 64 * 1024)
        offset = 0
    }
}
