import COpenSSL

/// The calling thread's OpenSSL error queue.
enum OpenSSLErrors {
    /// The oldest queued error as text ("" when none); empties the queue.
    static func take() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let text = buffer.withUnsafeMutableBufferPointer { p -> String in
            guard let base = p.baseAddress else { return "" }
            vd_tls_error_text(base, p.count)
            return String(cString: base)
        }
        return text
    }

    /// Empties the queue, so a later `SSL_get_error` is not misled by an earlier failure on this thread.
    static func clear() {
        ERR_clear_error()
    }
}
