import CertificateRevocation
import CertificationPath
import Crypto
import Encodings
import MDoc
import Foundation
import SDJWT
import SDJWTVC
import StrictJSON
import TrustStore
import X509

extension StatusListTokenVerifier {
    /// A Token Status List in JWT form (TSL 5.1, HAIP 1.0 6.1): protected `typ` `statuslist+jwt`, ES256, the signer's
    /// key from `x5c` (a copy of a trusted anchor in it is ignored), the signer chaining to an anchor of `trust` (the
    /// SD-JWT VC issuer trust set, TSL 11.3) with the status-list signer rules; `sub` equal to the credential's URI,
    /// `iat` required and not in the future beyond the skew, `exp` when present not passed, `ttl` a non-negative
    /// number, `status_list` `{bits: 1|2|4|8, lst: base64url(zlib)}`. NumericDates may be floats; anything unreadable
    /// throws (the caller reports unknown, never absent).
    ///
    /// For a credential whose issuer is listed for JWT VC Issuer Metadata (`issuerKeys`), the list carries no `x5c`
    /// and is signed by the key of that issuer's metadata its `kid` names (11.3: the same issuer).
    func verifyJWT(_ bytes: [UInt8], uri: String, trust: TrustSnapshot, issuerKeys: SDJWTVCIssuerKeys?,
                   now: Date) throws(StatusListError) -> VerifiedStatusList {
        guard bytes.count <= 16 << 20, let text = String(validating: bytes, as: UTF8.self) else {
            throw StatusListError("the token is not UTF-8 text")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let limits = SDJWTLimits(maximumBytes: 16 << 20, maximumValues: 64)
        let jws: CompactJWS
        do { jws = try CompactJWS(Substring(trimmed), limits: limits) } catch { throw StatusListError("the token: \(error.reason)") }
        guard jws.type == "statuslist+jwt" else { throw StatusListError("protected typ is not statuslist+jwt") }
        guard jws.algorithm == ES256.name, jws.header[member: "crit"] == nil else {
            throw StatusListError("the token is not ES256 or names crit")
        }
        let signerTrust: StatusEvidence.SignerTrust
        let signerDER: [UInt8]
        var signerLinks: [ChainRevocationChecker.Link] = []
        if let issuerKeys, jws.header[member: "x5c"] == nil {
            let kid = jws.header[member: "kid"]?.stringValue
            guard jws.header[member: "kid"] == nil || kid != nil else { throw StatusListError("the list's kid is not a string") }
            guard case .success(let key) = issuerKeys.key(for: kid) else {
                throw StatusListError("no key of the issuer's metadata has the list's kid")
            }
            guard ES256.isValid(jws.signature, over: jws.signingInput, key: key.key) else { throw StatusListError("signature does not verify") }
            signerTrust = .issuerKey(issuer: issuerKeys.issuer)
            signerDER = []
        } else {
            (signerTrust, signerDER, signerLinks) = try x5cSigner(jws, trust: trust, now: now)
        }
        var verified = try jwtList(jws.payload, uri: uri, signerTrust: signerTrust, signerDER: signerDER, now: now)
        verified.signerLinks = signerLinks
        return verified
    }

    /// The signer of a JWT list by its `x5c`: the signature, and the chain to an anchor of the SD-JWT VC issuer trust.
    func x5cSigner(_ jws: CompactJWS, trust: TrustSnapshot, now: Date) throws(StatusListError)
        -> (StatusEvidence.SignerTrust, [UInt8], [ChainRevocationChecker.Link])
    {
        guard case .array(let entries)? = jws.header[member: "x5c"], !entries.isEmpty, entries.count <= 5 else {
            throw StatusListError("the signer's x5c is not in the protected header")
        }
        let texts = entries.compactMap(\.stringValue)
        guard texts.count == entries.count, case .success(let certificates) = X5CHeader.certificates(texts) else {
            throw StatusListError("an x5c entry is not a base64 DER certificate")
        }
        let (signer, signerDER) = certificates[0]
        guard let key = P256.Signing.PublicKey(signer.publicKey) else { throw StatusListError("signer key is not EC P-256") }
        guard ES256.isValid(jws.signature, over: jws.signingInput, key: key) else { throw StatusListError("signature does not verify") }
        let anchorsDER = Set(trust.anchors.map(\.derBytes))
        let others = certificates.dropFirst().filter { !anchorsDER.contains($0.1) }.map(\.0)
        let rules: [any PathRule] = [
            MaximumIntermediateCAs(2, profile: "a JWT status-list signer"),
            CertificateAuthorityConstraints(keyUsageRequired: true),
            LeafSigningKeyUsage(required: true),
            LeafIsNotCA(),
            ValidAtTime(now, includingAnchor: true),
        ]
        let builder = CertificationPathBuilder(anchors: IACAAnchors(trust, name: "trusted SD-JWT VC issuer anchor", purpose: .revocation), rules: rules)
        switch builder.build(leaf: signer, others: others) {
        case .success(let path):
            return (.anchor(sha256: path.anchor.sha256), signerDER, ChainRevocationChecker.links(path: path.path, anchor: path.anchor.certificate))
        case .failure(let problem) where problem.kind == .untrusted:
            throw StatusListError("the signer does not chain to a trusted SD-JWT VC issuer anchor")
        case .failure(let problem): throw StatusListError("the signer certificate: \(problem.detail)")
        }
    }

    /// The list's claims (TSL 5.1), once its signer is known.
    func jwtList(_ claims: JSON, uri: String, signerTrust: StatusEvidence.SignerTrust, signerDER: [UInt8],
                 now: Date) throws(StatusListError) -> VerifiedStatusList {
        guard claims[member: "sub"]?.stringValue == uri else { throw StatusListError("sub does not equal the credential's status URI") }
        guard let iat = try Self.jwtNumericDate(claims[member: "iat"], "iat") else { throw StatusListError("iat is missing") }
        let issuedAt = Date(timeIntervalSince1970: iat)
        if issuedAt > now.addingTimeInterval(clockSkew) {
            throw StatusListError("iat \(RFC3339Timestamp.string(issuedAt)) is in the future beyond the clock skew of \(Int(clockSkew)) s")
        }
        let expiresAt = try Self.jwtNumericDate(claims[member: "exp"], "exp").map(Date.init(timeIntervalSince1970:))
        if let expiresAt, expiresAt <= now { throw StatusListError("the list expired (exp)") }
        var ttl: TimeInterval?
        if let seconds = try Self.jwtNumericDate(claims[member: "ttl"], "ttl") {
            // TSL 5.1: a positive number of seconds.
            guard seconds > 0 else { throw StatusListError("ttl is not positive") }
            ttl = min(seconds, 31_536_000)
        }
        guard let list = claims[member: "status_list"], case .object = list else { throw StatusListError("status_list is missing") }
        guard case .int(let bits)? = list[member: "bits"], [1, 2, 4, 8].contains(bits) else {
            throw StatusListError("bits is not 1, 2, 4 or 8")
        }
        guard let compressed = list[member: "lst"]?.stringValue.flatMap(Base64URL.decodeBytes) else {
            throw StatusListError("lst is not base64url")
        }
        let statuses: [UInt8]
        do { statuses = try ZlibInflate.inflate(compressed, maximumBytes: maximumDecompressedBytes) } catch {
            throw StatusListError("lst does not inflate: \(error)")
        }
        return VerifiedStatusList(uri: uri, content: .statusList(bits: Int(bits), statuses: statuses), issuedAt: issuedAt,
                                  expiresAt: expiresAt, timeToLive: ttl, signerTrust: signerTrust, signerCertificate: signerDER)
    }

    /// A JWT NumericDate: nil when absent; any value but a finite number throws naming the claim.
    static func jwtNumericDate(_ value: JSON?, _ claim: String) throws(StatusListError) -> Double? {
        guard let value else { return nil }
        guard let seconds = KeyBindingVerifier.numericDate(value) else { throw StatusListError("\(claim) is not a NumericDate") }
        return seconds
    }
}
