import AppleWallet
import Foundation
import OpenID4VP
import ReaderAuthentication
import ServerTLS
import TrustLists
import TrustManagement
import TrustStore
import X509
import ZKMdoc

/// Every key, certificate chain and signer anchor the configuration names, read and checked before anything is
/// written: merchant encryption keys, the reader-token signing key, the reader-authentication key and chain, VICAL
/// signer anchors and the TLS identity. A problem is a ``ConfigurationError`` naming the setting and the file, with
/// `no such file` told apart from `permission denied`.
public struct ServiceKeyMaterial: Sendable {
    /// The merchant encryption keys (`apple.encryptionKeys`), in the configured order.
    public let merchantKeys: [MerchantEncryptionKey]
    /// The reader-token minter and its client tokens (`readerTokens`).
    public let readerTokens: ReaderTokenService?
    /// The reader-authentication key and chain (`readerAuth`).
    public let readerAuth: ReaderAuthenticationKey?
    /// The request-object signer on that key, under the configured Client Identifier Prefix (`oid4vp.clientIdPrefix`,
    /// the dNSName checked against the certificate here).
    public let requestObjectSigner: RequestObjectSigner?
    /// The VICAL signer anchors by source name (`trust.vicalSigners`).
    public let vicalSigners: [String: VICALSignerAnchor]
    /// The HTTPS listener's certificate and key (`server.tls`).
    public let tlsIdentity: TLSServerIdentity?
    /// The lists of trusted entities with their signer anchors read (`trust.loteSources`).
    public internal(set) var loteSources: [LoTESource] = []
    /// The accepted zero-knowledge systems whose circuits loaded (`zk.systems`).
    public internal(set) var zkSystems: [ZKSystem] = []
    /// Systems left out because their circuit file is missing (`zk.missingCircuits` warn), for the start-up warnings.
    public internal(set) var zkMissing: [String] = []

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
        var signer: RequestObjectSigner?
        if let readerAuth {
            do throws(RequestObjectSigner.ClientIdProblem) {
                signer = try RequestObjectSigner(key: readerAuth, prefix: configuration.oid4vp?.clientIdPrefix ?? .x509Hash,
                                                 dnsName: configuration.oid4vp?.clientIdDnsName)
            } catch {
                throw ConfigurationError(key: configuration.oid4vp?.clientIdDnsName == nil ? "oid4vp.clientIdPrefix" : "oid4vp.clientIdDnsName",
                                         error.detail)
            }
        }
        var material = ServiceKeyMaterial(merchantKeys: merchantKeys, readerTokens: readerTokens, readerAuth: readerAuth,
                                          requestObjectSigner: signer, vicalSigners: vicalSigners, tlsIdentity: tlsIdentity)
        if let zk = configuration.zeroKnowledge {
            (material.zkSystems, material.zkMissing) = try zkSystems(zk)
        }
        material.loteSources = try loteSources(configuration.trust.loteSources)
        return material
    }

    /// Reads each list source's signer anchors (PEM, one or more certificates per file, or DER).
    public static func loteSources(_ settings: [ServiceConfiguration.LoTESourceSettings]) throws(ConfigurationError) -> [LoTESource] {
        var sources: [LoTESource] = []
        for (index, source) in settings.enumerated() {
            let key = "trust.loteSources[\(index)].signerAnchors"
            var anchors: [Certificate] = []
            for url in source.signerAnchors {
                let data = Array(try ConfiguredFile.bytes(url, key: key))
                do {
                    let ders = try CertificateParsing.derCertificates(from: data, source: url.path)
                    guard !ders.isEmpty else { throw TrustAnchorError.unparsable(source: url.path, reason: "no certificate") }
                    for der in ders { anchors.append(try Certificate(derEncoded: der)) }
                } catch {
                    throw ConfigurationError(key: key, "\(url.path): not a certificate (PEM or DER): \(error)")
                }
            }
            sources.append(LoTESource(name: source.name, url: source.url, kind: source.kind, signerAnchors: anchors,
                                      refreshHours: source.refreshHours, scope: source.scope,
                                      staleGraceSeconds: source.staleGraceSeconds, onStale: source.onStale))
        }
        return sources
    }

    /// Loads each `zk.systems` circuit (a second or so each); a file whose content is not its system's circuit
    /// stops the start, naming the file; a missing one too, unless `zk.missingCircuits` is `warn`.
    static func zkSystems(_ section: ServiceConfiguration.ZeroKnowledge) throws(ConfigurationError) -> ([ZKSystem], [String]) {
        let entries = section.systems.map {
            ZKSystemLoader.Entry(version: $0.version, attributes: $0.attributes, file: $0.circuitFile, id: $0.id)
        }
        var systems: [ZKSystem] = []
        var missing: [String] = []
        for (index, result) in ZKSystemLoader.load(entries).enumerated() {
            switch result {
            case .success(let system): systems.append(system)
            case .failure(.missing(let path)) where section.missingCircuits == .warn:
                missing.append("zk.systems[\(index)] (version \(entries[index].version), \(entries[index].attributes) attribute(s)): \(path)")
            case .failure(let failure):
                throw ConfigurationError(key: "zk.systems[\(index)].circuitFile", failure.description)
            }
        }
        return (systems, missing)
    }

    /// Reads each `apple.encryptionKeys` file; a problem names the key's position.
    public static func merchantKeys(_ files: [URL]) throws(ConfigurationError) -> [MerchantEncryptionKey] {
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
