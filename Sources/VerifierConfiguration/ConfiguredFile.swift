import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a file a setting names, with a reason that says what to fix: `no such file`, `permission denied` (with the
/// user the service runs as), `is a directory`; never a Foundation error dump.
public enum ConfiguredFile {
    /// The file's bytes, or a ``ConfigurationError`` naming `key`.
    public static func bytes(_ url: URL, key: String) throws(ConfigurationError) -> Data {
        let path = url.path
        var info = stat()
        if stat(path, &info) != 0 {
            throw ConfigurationError(key: key, "cannot read \(path): \(reason(errno: errno))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw ConfigurationError(key: key, "cannot read \(path): it is a directory, not a file")
        }
        if access(path, R_OK) != 0 {
            throw ConfigurationError(key: key, "cannot read \(path): \(reason(errno: errno))")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw ConfigurationError(key: key, "cannot read \(path): \(reason(errno: EIO))")
        }
    }

    /// The file as UTF-8 text.
    public static func text(_ url: URL, key: String) throws(ConfigurationError) -> String {
        let data = try bytes(url, key: key)
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(key: key, "\(url.path) is not UTF-8 text")
        }
        return text
    }

    public static func reason(errno code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied (the service runs as uid \(getuid()), gid \(getgid()))"
        case ENOTDIR: return "a folder on its path is a file"
        default: return String(cString: strerror(code))
        }
    }
}
