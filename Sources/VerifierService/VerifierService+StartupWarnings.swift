import Encodings
import Foundation

extension VerifierService {
    /// What an operator must hear at start-up: no trusted IACA (every verification fails), TEST-ONLY material in
    /// use (key files from the repository's test vectors, tokens marked TEST-ONLY), test hooks or the demo page on.
    public func startupWarnings() -> [String] {
        var warnings: [String] = []
        if configuration.verification.allowVerificationTimeOverride {
            warnings.append("verification.allowVerificationTimeOverride is on: callers may choose the verification time; never in production")
        }
        if configuration.proximity?.allowInjectedReaderKey == true {
            warnings.append("proximity.allowInjectedReaderKey is on: callers may choose the reader key; never in production")
        }
        let window = TimeInterval(configuration.trust.expiringWindowDays) * 86_400
        for (integrator, certificate) in (registrations?.all ?? [:]).sorted(by: { $0.key < $1.key }) {
            if let expires = certificate.expiresAt, expires.timeIntervalSince(now()) < window {
                warnings.append("the registration certificate of integrator \(integrator) expires at \(RFC3339Timestamp.string(expires)), "
                                + "within \(configuration.trust.expiringWindowDays) days: renew it with its registrar")
            }
        }
        for (integrator, problem) in (registrations?.untrusted(now: now()) ?? [:]).sorted(by: { $0.key < $1.key }) {
            warnings.append("the registration certificate of integrator \(integrator) chains to no registrar anchor yet (\(problem)): "
                            + "its signed requests are refused until a WRPRC providers list in force names its provider")
        }
        if iacaTrust.snapshot.anchors.isEmpty {
            warnings.append("no trusted IACA is loaded: every verification fails until one is added")
        }
        var keyFiles: [(String, URL)] = (configuration.apple?.encryptionKeys ?? []).enumerated().map { ("apple.encryptionKeys[\($0.offset)]", $0.element) }
        if let readerAuth = configuration.readerAuth {
            keyFiles += [("readerAuth.signingKey", readerAuth.signingKey), ("readerAuth.certificateChain", readerAuth.certificateChain)]
        }
        if let tokens = configuration.readerTokens { keyFiles.append(("readerTokens.signingKey", tokens.signingKey)) }
        for (key, url) in keyFiles where url.standardizedFileURL.pathComponents.contains("TestVectors") {
            warnings.append("\(key) is TEST-ONLY material from the repository (\(url.lastPathComponent)): never in production")
        }
        let testTokens = configuration.integrators.tokens.filter { $0.value.contains("TEST-ONLY") }.keys.sorted()
        if !testTokens.isEmpty {
            warnings.append("integrators.tokens of \(testTokens.joined(separator: ", ")) are TEST-ONLY tokens: never in production")
        }
        if let demo = configuration.demo {
            warnings.append("the demo page is on (GET /demo; POST /demo/requests and /demo/verify need no token and count as "
                            + "integrator \(demo.integrator)): never in production")
        }
        if configuration.zeroKnowledge != nil {
            for entry in zkMissing {
                warnings.append("zero-knowledge system left out, its circuit file is missing: \(entry) (scripts/zk/install-circuits.sh installs them)")
            }
            if zkSystems.isEmpty {
                warnings.append("zk is configured but no circuit loaded: every zero-knowledge document fails zk.system")
            }
        }
        return warnings
    }
}
