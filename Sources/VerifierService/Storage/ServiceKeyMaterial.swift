import AppleWallet
import Foundation
import ReaderAuthentication
import ServerTLS
import TrustLists

/// Every key, certificate chain and signer anchor the configuration names, read and checked before anything is
/// written: merchant encryption keys, the reader-token signing key, the reader-authentication key and chain, VICAL
/// signer anchors and the TLS identity. A problem is a ``ConfigurationError`` naming the setting and the file, with
/// `no such file` told apart from `permission denied`.
public struct ServiceKeyMaterial: Sendable {
    let merchantKeys: [MerchantEncryptionKey]
    let readerTokens: ReaderTokenService?
    let readerAuth: ReaderAuthenticationKey?
    let vicalSigners: [String: VICALSignerAnchor]
    let tlsIdentity: TLSServerIdentity?

    /// Reads everything `configuration` names.
    public static func load(_ configuration: ServiceConfiguration) throws(ConfigurationError) -> ServiceKeyMaterial {
        let merchantKeys = try merchantKeys(configuration.apple?.encryptionKeys ?? [])
        let readerTokens = try configuration.readerTokens.map { (tokens) throws(ConfigurationError) in
            try ReaderTokenService(configuration: tokens)
        }
        let readerAuth = try configuration.readerAuth.map { (section) throws(ConfigurationError) in
            try readerAuthKey(section)
        }
        let vicalSigners = try vicalSigners(configuration.trust.vicalSigners)
        let tlsIdentity = try configuration.server.tls.map { (section) throws(ConfigurationError) in
            do throws(TLSSetupError) {
                return try TLSServerIdentity(settings: section.settings)
            } catch {
                throw ConfigurationError(key: "server.tls.\(error.setting.rawValue)", error.message)
            }
        }
        return ServiceKeyMaterial(merchantKeys: merchantKeys, readerTokens: readerTokens, readerAuth: readerAuth,
                                  vicalSigners: vicalSigners, tlsIdentity: tlsIdentity)
    }

    /// Reads each `apple.encryptionKeys` file; a problem names the key's position.
    static func merchantKeys(_ files: [URL]) throws(ConfigurationError) -> [MerchantEncryptionKey] {
        var keys: [MerchantEncryptionKey] = []
        for (index, url) in files.enumerated() {
            let name = "apple.encryptionKeys[\(index)]"
            let pem = try ConfiguredFile.text(url, key: name)
            do {
                keys.append(try MerchantEncryptionKey(pem: pem, label: url.lastPathComponent))
            } catch {
                throw ConfigurationError(key: name, "\(url.path) is not a P-256 private key (PKCS#8 or SEC1 PEM)")
            }
        }
        return keys
    }

    /// Reads each `trust.vicalSigners` certificate; a problem names the source's key.
    static func vicalSigners(_ files: [String: URL]) throws(ConfigurationError) -> [String: VICALSignerAnchor] {
        var signers: [String: VICALSignerAnchor] = [:]
        for (name, url) in files.sorted(by: { $0.key < $1.key }) {
            let key = "trust.vicalSigners.\(name)"
            let data = try ConfiguredFile.bytes(url, key: key)
            do {
                signers[name] = try VICALSignerAnchor(pemOrDER: Array(data), source: url.path)
            } catch {
                throw ConfigurationError(key: key, error.description)
            }
        }
        return signers
    }

    /// Reads and checks the reader key and chain; a problem names `readerAuth.signingKey` or
    /// `readerAuth.certificateChain`.
    static func readerAuthKey(_ section: ServiceConfiguration.ReaderAuth) throws(ConfigurationError) -> ReaderAuthenticationKey {
        let keyPEM = try ConfiguredFile.text(section.signingKey, key: "readerAuth.signingKey")
        let chainPEM = try ConfiguredFile.text(section.certificateChain, key: "readerAuth.certificateChain")
        do {
            return try ReaderAuthenticationKey(keyPEM: keyPEM, chainPEM: chainPEM)
        } catch {
            let url = error.part == .signingKey ? section.signingKey : section.certificateChain
            throw ConfigurationError(key: "readerAuth.\(error.part.rawValue)", "\(url.path): \(error.description)")
        }
    }
}
