import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What stops the trust directory from being read or created, said before anything is written, with the setting to
/// change and the fix: a missing directory without a seed, a missing seed folder, a parent the service cannot write.
public enum TrustDirectoryPreflight {
    /// The problem with `trust.iacaDirectory` / `trust.seedDirectory`, or nil when the directory exists or can be
    /// created from its seed.
    /// `directoryKey` and `seedKey` name the settings (the SD-JWT VC issuer set is kept the same way).
    public static func problem(directory: URL, seed: URL?, directoryKey: String = "trust.iacaDirectory",
                        seedKey: String = "trust.seedDirectory", what: String = "IACA roots") -> ConfigurationError? {
        let path = directory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            return isDirectory.boolValue ? nil
                : ConfigurationError(key: directoryKey, "\(path) is a file, not a directory")
        }
        guard let seed else {
            return ConfigurationError(key: directoryKey,
                "\(path) does not exist: create it (`mkdir -p \(path)` starts with no anchors, then add them), set "
                + "\(seedKey) to a folder of \(what) to copy in at the first start, or point \(directoryKey) at an "
                + "existing trust directory")
        }
        var seedIsDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: seed.path, isDirectory: &seedIsDirectory), seedIsDirectory.boolValue else {
            return ConfigurationError(key: seedKey,
                "\(seed.path) is not a directory (it seeds \(directoryKey) \(path), which does not exist yet): "
                + "fix the path, or remove \(seedKey) and create \(path) yourself")
        }
        guard access(seed.path, R_OK | X_OK) == 0 else {
            return ConfigurationError(key: seedKey,
                "cannot read \(seed.path): permission denied for uid \(getuid())")
        }
        // The nearest folder that exists is where the directory would be created.
        var parent = directory.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: parent.path), parent.path != "/" {
            parent = parent.deletingLastPathComponent()
        }
        guard access(parent.path, W_OK | X_OK) == 0 else {
            return ConfigurationError(key: directoryKey,
                "cannot create \(path): permission denied: \(parent.path) is not writable for uid \(getuid()) "
                + "(make it writable for this user, e.g. `chown \(getuid()) \(parent.path)`, or point "
                + "\(directoryKey) at a writable folder)")
        }
        return nil
    }
}
