import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ReaderTokenSigningKey {
    /// Writes ``pkcs8PEM`` to `url`, creating the file with mode 0600 from the start.
    ///
    /// With `overwrite == false` (the default) an existing file is never replaced. With
    /// `overwrite == true` the key is written to a 0600 temporary file in the same
    /// directory and renamed over the target.
    /// - Throws: ``ReaderTokenError/keyFileWriteFailed(path:reason:)``.
    public func writePrivateKey(to url: URL, overwrite: Bool = false) throws(ReaderTokenError) {
        let path = url.path
        let bytes = Array(pkcs8PEM.utf8)
        if !overwrite {
            try Self.writeNewFile(at: path, bytes: bytes, reportedPath: path)
            return
        }
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/.\(url.lastPathComponent).\(UInt64.random(in: 0...UInt64.max)).tmp"
        try Self.writeNewFile(at: temporary, bytes: bytes, reportedPath: path)
        if rename(temporary, path) != 0 {
            let reason = Self.errnoText()
            unlink(temporary)
            throw .keyFileWriteFailed(path: path, reason: reason)
        }
    }

    private static func writeNewFile(at path: String, bytes: [UInt8], reportedPath: String) throws(ReaderTokenError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o600))
        guard fd >= 0 else {
            throw .keyFileWriteFailed(path: reportedPath, reason: errnoText())
        }
        var failure: String?
        // The umask can only remove bits; fchmod makes the mode exactly 0600 regardless.
        if fchmod(fd, mode_t(0o600)) != 0 { failure = errnoText() }
        var offset = 0
        while failure == nil, offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                failure = errnoText()
            } else {
                offset += written
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = errnoText() }
        if close(fd) != 0, failure == nil { failure = errnoText() }
        if let failure {
            unlink(path)
            throw .keyFileWriteFailed(path: reportedPath, reason: failure)
        }
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
