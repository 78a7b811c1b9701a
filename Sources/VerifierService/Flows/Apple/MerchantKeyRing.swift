import AppleWallet
import Foundation
import Synchronization

/// The merchant encryption keys in force, re-read on SIGHUP from the files the configuration listed at start (a key
/// replaced in its file takes effect; a file added to the list needs a restart: docs/operations.md, "Rotating
/// merchant encryption keys"). A reload that fails on any file keeps the keys in force.
final class MerchantKeyRing: Sendable {
    let files: [URL]
    private let inForce: Mutex<[MerchantEncryptionKey]>

    init(files: [URL], keys: [MerchantEncryptionKey]) {
        self.files = files
        inForce = Mutex(keys)
    }

    /// The keys in force now.
    var keys: [MerchantEncryptionKey] { inForce.withLock { $0 } }

    /// Re-reads every configured file; on success the new keys are in force and returned.
    func reload() throws(ConfigurationError) -> [MerchantEncryptionKey] {
        let keys = try ServiceKeyMaterial.merchantKeys(files)
        inForce.withLock { $0 = keys }
        return keys
    }
}
