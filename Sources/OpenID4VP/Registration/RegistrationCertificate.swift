import CertificateRevocation
import CertificationPath
import Crypto
import Foundation
import SDJWT
import SDJWTVC
import StrictJSON
import X509

/// A relying party's registration certificate (ETSI TS 119 475, JWT form: `typ` `rc-wrp+jwt`, signed by a registrar's
/// provider with `x5c`), as EU wallets (ARF, CIR (EU) 2025/848) check it: it names who is asking and the credentials
/// and claims the relying party registered to ask for. verifierd checks it at start and on reload, sends it in
/// `verifier_info` of every signed request of the integrator it belongs to (ETSI TS 119 472-2), and refuses a
/// request for anything it does not register, before anything is signed.
public struct RegistrationCertificate: Sendable {
    /// The certificate as it is sent (the compact JWS).
    public let compact: String
    /// `sub` (the relying party's identifier) and `name`, when given.
    public let subject: String?
    public let name: String?
    public let issuedAt: Date
    public let expiresAt: Date?
    /// The credentials the relying party registered, each with its claims.
    public let credentials: [RegisteredCredential]
    /// The verified chain of the provider's certificate, as links for the CRL check (RFC 5280 §6.3): every
    /// certificate below the registrar anchor with its issuer.
    public let revocationLinks: [ChainRevocationChecker.Link]

    /// One registered credential: its format, its type (`doctype_value` or `vct_values`) and the claim paths.
    public struct RegisteredCredential: Sendable, Equatable {
        public let format: String
        public let docType: String?
        public let vctValues: [String]
        /// `claim[].path`, each element a name, an index, or null (any).
        public let claimPaths: [[SDJWTVCQuery.PathElement]]
    }

    /// Why a registration certificate is not used (stable kinds; the detail names the rule).
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            case malformed, typInvalid, algorithmUnsupported, signatureInvalid, untrustedSigner, expired, notYetValid
            case notServiceProvider, credentialsMissing
        }

        public let kind: Kind
        public let detail: String

        public var description: String { "\(kind.rawValue): \(detail)" }
    }

    public static let type = "rc-wrp+jwt"
    /// The format `verifier_info` names it by (ETSI TS 119 472-2).
    public static let verifierInfoFormat = "registration_cert"
    /// The entitlement of a relying party that asks for credentials, as URI and as OID.
    public static let serviceProviderEntitlements: Set<String> = [
        "https://uri.etsi.org/19475/Entitlement/Service_Provider", "0.4.0.19475.1.1",
    ]
    /// The largest certificate read.
    public static let maximumBytes = 32 << 10
    /// Signatures and chains of registrars' providers: EC P-256 (ES256), at most one intermediate CA.
    static let rules: [any PathRule] = [
        AcceptedKeys("an EC P-256 key") { P256.Signing.PublicKey($0.publicKey) != nil },
        MaximumIntermediateCAs(1, profile: "a registration certificate provider"),
        CertificateAuthorityConstraints(keyUsageRequired: true),
        LeafSigningKeyUsage(required: true),
        LeafIsNotCA(),
    ]

    /// Reads and checks `compact` at `now`: `typ` `rc-wrp+jwt`, ES256 by the leaf of `x5c`, which chains to one of
    /// `registrars` and is valid now; `iat` (and `nbf`, `exp` when given) around now; the Service_Provider
    /// entitlement; `credentials` with a format and type each.
    public init(compact text: String, registrars: [Certificate], at now: Date) throws(Problem) {
        try self.init(compact: text, registrarsOrNone: registrars, at: now)
    }

    /// The first fault of `compact` at `now` other than its provider's trust: every check of
    /// ``init(compact:registrars:at:)`` except that `x5c` chains to a registrar (x5c[0] must still be valid now and
    /// its key must verify the signature). Nil when the certificate would be usable once its provider is trusted.
    public static func problemApartFromTrust(compact text: String, at now: Date) -> Problem? {
        do throws(Problem) {
            _ = try RegistrationCertificate(compact: text, registrarsOrNone: nil, at: now)
            return nil
        } catch {
            return error
        }
    }

    /// With `registrars` nil, the chain is not built (only ``problemApartFromTrust(compact:at:)`` does that).
    private init(compact text: String, registrarsOrNone registrars: [Certificate]?, at now: Date) throws(Problem) {
        func refuse(_ kind: Problem.Kind, _ detail: String) -> Problem { Problem(kind: kind, detail: detail) }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count <= Self.maximumBytes else { throw refuse(.malformed, "over \(Self.maximumBytes) bytes") }
        let jws: CompactJWS
        do {
            jws = try CompactJWS(Substring(trimmed), limits: SDJWTLimits())
        } catch {
            throw refuse(.malformed, "not a compact JWS with JSON header and payload: \(error.reason)")
        }
        guard jws.type == Self.type else {
            throw refuse(.typInvalid, "typ is \(jws.type.map { "\"\($0.prefix(32))\"" } ?? "missing"), not \"\(Self.type)\"")
        }
        guard jws.algorithm == ES256.name else {
            throw refuse(.algorithmUnsupported, "alg \(jws.algorithm.map { "\"\($0.prefix(16))\"" } ?? "missing") is not ES256")
        }
        if jws.header[member: "crit"] != nil { throw refuse(.malformed, "crit names header parameters this verifier does not process") }
        guard case .array(let items)? = jws.header[member: "x5c"], (1...3).contains(items.count) else {
            throw refuse(.untrustedSigner, "the header has no x5c of 1 to 3 certificates")
        }
        var certificates: [Certificate] = []
        for (index, item) in items.enumerated() {
            guard let text = item.stringValue, let der = Data(base64Encoded: text),
                  let certificate = try? Certificate(derEncoded: Array(der))
            else { throw refuse(.untrustedSigner, "x5c[\(index)] is not a base64 DER certificate") }
            certificates.append(certificate)
        }
        var links: [ChainRevocationChecker.Link] = []
        if let registrars {
            let builder = CertificationPathBuilder(anchors: PinnedAnchors(registrars, name: "registrar anchor"), rules: Self.rules)
            let path: CertificationPath<Certificate>
            switch builder.build(leaf: certificates[0], others: Array(certificates.dropFirst())) {
            case .success(let built): path = built
            case .failure(let problem): throw refuse(.untrustedSigner, problem.detail)
            }
            if let problem = ValidAtTime(now, includingAnchor: true).problem(
                with: PathCandidate(path: path.path, anchor: path.anchor, leaf: certificates[0]), at: .verified) {
                throw refuse(.expired, "the provider's certificate: \(problem.detail)")
            }
            links = ChainRevocationChecker.links(path: path.path, anchor: path.anchor)
        } else {
            let alone = PathCandidate(path: [certificates[0]], anchor: nil, leaf: certificates[0])
            // The leaf's own rules (key, key usage, not a CA); no path, so nothing about CAs or the anchor.
            if let problem = Self.rules.lazy.compactMap({ $0.problem(with: alone, at: .leaf) ?? $0.problem(with: alone, at: .verified) }).first {
                throw refuse(.untrustedSigner, problem.detail)
            }
            if let problem = ValidAtTime(now, includingAnchor: false).problem(with: alone, at: .verified) {
                throw refuse(.expired, "the provider's certificate: \(problem.detail)")
            }
        }
        guard let key = P256.Signing.PublicKey(certificates[0].publicKey),
              ES256.isValid(jws.signature, over: jws.signingInput, key: key)
        else { throw refuse(.signatureInvalid, "the ES256 signature does not verify with x5c[0]'s key") }

        let payload = jws.payload
        func date(_ name: String) throws(Problem) -> Date? {
            guard let value = payload[member: name] else { return nil }
            switch value {
            case .int(let seconds): return Date(timeIntervalSince1970: TimeInterval(seconds))
            default: throw refuse(.malformed, "\(name) is not a NumericDate")
            }
        }
        guard let issued = try date("iat") else { throw refuse(.malformed, "iat is missing") }
        guard issued <= now.addingTimeInterval(300) else { throw refuse(.notYetValid, "issued \(issued), after now") }
        if let notBefore = try date("nbf"), notBefore > now { throw refuse(.notYetValid, "not valid before \(notBefore)") }
        let expires = try date("exp")
        if let expires, expires <= now { throw refuse(.expired, "expired \(expires)") }
        guard case .array(let entitlements)? = payload[member: "entitlements"],
              entitlements.contains(where: { $0.stringValue.map(Self.serviceProviderEntitlements.contains) == true })
        else { throw refuse(.notServiceProvider, "entitlements do not name Service_Provider: this certificate does not register asking for credentials") }
        guard case .array(let entries)? = payload[member: "credentials"], !entries.isEmpty, entries.count <= 64 else {
            throw refuse(.credentialsMissing, "credentials is not an array of 1 to 64 registered credentials")
        }
        var registered: [RegisteredCredential] = []
        for (index, entry) in entries.enumerated() {
            registered.append(try Self.credential(entry, at: index))
        }
        compact = trimmed
        subject = payload[member: "sub"]?.stringValue
        name = payload[member: "name"]?.stringValue
        issuedAt = issued
        expiresAt = expires
        credentials = registered
        revocationLinks = links
    }

    static func credential(_ entry: JSON, at index: Int) throws(Problem) -> RegisteredCredential {
        let at = "credentials[\(index)]"
        guard let format = entry[member: "format"]?.stringValue, !format.isEmpty else {
            throw Problem(kind: .malformed, detail: "\(at).format is not a string")
        }
        let meta = entry[member: "meta"]
        let docType = meta?[member: "doctype_value"]?.stringValue
        var types: [String] = []
        if case .array(let values)? = meta?[member: "vct_values"] { types = values.compactMap(\.stringValue) }
        guard docType != nil || !types.isEmpty else {
            throw Problem(kind: .malformed, detail: "\(at).meta names neither doctype_value nor vct_values")
        }
        // TS 119 475 v1.2.1 writes `claim`; v1.1.1 and some implementations `claims`.
        var paths: [[SDJWTVCQuery.PathElement]] = []
        if case .array(let claims)? = entry[member: "claim"] ?? entry[member: "claims"] {
            for (claimIndex, claim) in claims.prefix(512).enumerated() {
                guard case .array(let parts)? = claim[member: "path"], !parts.isEmpty, parts.count <= 16 else {
                    throw Problem(kind: .malformed, detail: "\(at).claim[\(claimIndex)].path is not an array of 1 to 16 elements")
                }
                var path: [SDJWTVCQuery.PathElement] = []
                for part in parts {
                    switch part {
                    case .string(let text): path.append(.name(text))
                    case .int(let number) where number >= 0: path.append(.index(Int(number)))
                    case .null: path.append(.all)
                    default: throw Problem(kind: .malformed, detail: "\(at).claim[\(claimIndex)].path holds an element of another type")
                    }
                }
                paths.append(path)
            }
        }
        return RegisteredCredential(format: format, docType: docType, vctValues: types, claimPaths: paths)
    }

    /// Why `query` asks for more than this certificate registers (a credential of another format or type, or a claim
    /// no registered path covers: a registered path covers itself and everything below it), or nil when it asks for
    /// nothing more (the subset EU wallets check).
    public func unregistered(in query: DCQLQuery) -> String? {
        for credential in query.credentials {
            let candidates = credentials.filter { registered in
                if let sdJwtVc = credential.sdJwtVc {
                    return registered.format == DCQLQuery.sdJwtVcFormat && !sdJwtVc.vctValues.isEmpty
                        && sdJwtVc.vctValues.allSatisfy(registered.vctValues.contains)
                }
                return (registered.format == DCQLQuery.mdocFormat || registered.format == credential.format)
                    && registered.docType == credential.document.docType
            }
            guard !candidates.isEmpty else {
                return "credential \"\(credential.id)\" (\(credential.format)) is of a type the registration certificate does not register"
            }
            let requested: [[SDJWTVCQuery.PathElement]]
            if let sdJwtVc = credential.sdJwtVc {
                requested = sdJwtVc.claims.map(\.path)
            } else {
                requested = credential.document.nameSpaces.flatMap { entry in
                    entry.elements.map { [.name(entry.nameSpace), .name($0.identifier)] }
                }
            }
            for path in requested where !candidates.contains(where: { $0.claimPaths.contains { Self.covers($0, path) } }) {
                return "credential \"\(credential.id)\" asks for claim [\(path.map(\.description).joined(separator: ","))], "
                    + "which the registration certificate does not register"
            }
        }
        return nil
    }

    /// Whether a registered path covers a requested one: it is a prefix of it, element for element (null covers
    /// any index and null; an index only itself).
    static func covers(_ registered: [SDJWTVCQuery.PathElement], _ requested: [SDJWTVCQuery.PathElement]) -> Bool {
        guard registered.count <= requested.count else { return false }
        return zip(registered, requested).allSatisfy { mine, theirs in
            switch (mine, theirs) {
            case (.all, .all), (.all, .index): return true
            default: return mine == theirs
            }
        }
    }

    /// The `verifier_info` entry: `{"format": "registration_cert", "data": <the JWT>}`.
    public var verifierInfo: JSON {
        .object([("format", .string(Self.verifierInfoFormat)), ("data", .string(compact))])
    }
}
