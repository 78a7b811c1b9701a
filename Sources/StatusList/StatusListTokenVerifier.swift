import CertificateRevocation
import CBOR
import CertificationPath
import COSE
import Crypto
import Encodings
import Foundation
import MDoc
import SDJWTVC
import TrustStore
import X509

/// Verifies a status list token (IETF OAuth Token Status List, CWT form) or an ISO identifier list token.
///
/// The token is a tagged COSE_Sign1 (18) whose protected header carries `typ` (16) and the signer's `x5chain`
/// (33). The signer certificate has keyUsage digitalSignature, is no CA, is valid at the verification time and
/// is signed by a trusted IACA (or by the certificate the MSO names); `sub` equals the URI the MSO names; `iat`
/// is present and not in the future beyond the clock skew; `exp`, when present, is in the future. `iat`, `exp` and
/// `ttl` are NumericDates (integer or float seconds); any other type is refused, never read as absent. Anything else
/// throws, and the caller reports "unknown".
public struct StatusListTokenVerifier: Sendable {
    public enum Kind: String, Sendable {
        case statusList = "application/statuslist+cwt"
        case identifierList = "application/identifierlist+cwt"
        /// A Token Status List in JWT form (TSL 5.1), for SD-JWT VCs; its signer chains to the SD-JWT VC issuer trust.
        case statusListJWT = "application/statuslist+jwt"

        /// The `Accept` of a fetch: the JWT form asks for itself; both CWT forms ask for `application/statuslist+cwt`
        /// as they always have.
        public var accept: String { self == .statusListJWT ? rawValue : Kind.statusList.rawValue }
    }

    /// Largest decompressed status list accepted.
    public var maximumDecompressedBytes = 16 << 20
    /// Most identifiers in an identifier list.
    public var maximumIdentifiers = 1_000_000
    /// How far in the future `iat` may lie (the verification clock skew).
    public var clockSkew: TimeInterval

    public init(clockSkew: TimeInterval = 300) {
        self.clockSkew = clockSkew
    }

    static let typLabel: Int64 = 16
    static let subClaim: Int64 = 2
    static let expClaim: Int64 = 4
    static let iatClaim: Int64 = 6
    static let identifierListClaim: Int64 = 65_530
    static let statusListClaim: Int64 = 65_533
    static let ttlClaim: Int64 = 65_534

    /// `issuerKeys`: for a JWT list of an SD-JWT VC whose issuer an operator listed for JWT VC Issuer Metadata, that
    /// issuer's keys (the list must be signed by one of them).
    public func verify(_ bytes: [UInt8], kind: Kind, uri: String, certificate: [UInt8]?, trust: TrustSnapshot,
                       issuerKeys: SDJWTVCIssuerKeys? = nil, now: Date) throws(StatusListError) -> VerifiedStatusList
    {
        if kind == .statusListJWT { return try verifyJWT(bytes, uri: uri, trust: trust, issuerKeys: issuerKeys, now: now) }
        let limits = CBORDecodingLimits(maxDepth: 16, maxItems: maximumIdentifiers * 2 + 64,
                                        maxInputBytes: max(bytes.count, 1), allowIndefiniteLength: false)
        let decoder = CBORDecoder(limits: limits)
        let item: CBORItem
        do { item = try decoder.decode(bytes) } catch { throw StatusListError("the token is not CBOR: \(error)") }
        guard let (tag, _) = item.tagged, tag == CBORTag.coseSign1 else {
            throw StatusListError("the token is not a tagged COSE_Sign1 (tag 18)")
        }
        let sign1: COSESign1
        do { sign1 = try COSESign1(item: item, decoder: decoder) } catch { throw StatusListError("COSE_Sign1: \(error)") }
        guard let typ = sign1.headers.protected.first(where: { $0.key.intValue == Self.typLabel })?.value.textValue,
              typ == kind.rawValue
        else { throw StatusListError("protected typ is not \(kind.rawValue)") }
        guard sign1.headers.protected.contains(where: { $0.key.intValue == COSEHeaderLabel.x5chain }) else {
            throw StatusListError("the signer's x5chain is not in the protected header")
        }
        let chain: [ArraySlice<UInt8>]
        do { chain = try sign1.headers.x5chain() } catch { throw StatusListError("x5chain: \(error)") }
        guard let leafDER = chain.first, chain.count <= 5, leafDER.count <= 16_384 else {
            throw StatusListError("x5chain is empty or too large")
        }
        let signer: Certificate
        do { signer = try Certificate(derEncoded: Array(leafDER)) } catch { throw StatusListError("signer certificate: x5chain certificate 0 does not parse as an X.509 certificate (\(DERProblem.phrase(error)))") }
        guard let key = COSEPublicKey(certificate: signer) else { throw StatusListError("signer key is not EC P-256, P-384 or P-521") }
        do { try sign1.verify(using: key) } catch { throw StatusListError("signature: \(error)") }
        let (signerTrust, signerLinks) = try Self.signerTrust(signer, certificate: certificate, trust: trust, now: now)

        guard let payload = sign1.payload else { throw StatusListError("the token has no payload") }
        let claims: CBORItem
        do { claims = try decoder.decode(payload) } catch { throw StatusListError("claims are not CBOR: \(error)") }
        guard claims.isMap else { throw StatusListError("claims are not a map") }
        guard claims[intKey: Self.subClaim]?.textValue == uri else { throw StatusListError("sub does not equal the URI in the MSO") }
        guard let iat = try NumericDate.seconds(claims[intKey: Self.iatClaim], claim: "iat") else {
            throw StatusListError("iat is missing")
        }
        let issuedAt = Date(timeIntervalSince1970: iat)
        if issuedAt > now.addingTimeInterval(clockSkew) {
            throw StatusListError("iat \(RFC3339Timestamp.string(issuedAt)) is in the future beyond the clock skew of \(Int(clockSkew)) s")
        }
        let expiresAt = try NumericDate.seconds(claims[intKey: Self.expClaim], claim: "exp").map(Date.init(timeIntervalSince1970:))
        if let expiresAt, expiresAt <= now { throw StatusListError("the list expired (exp)") }
        let ttl = try Self.timeToLive(claims[intKey: Self.ttlClaim])

        let content: VerifiedStatusList.Content
        switch kind {
        case .statusList:
            guard let list = claims[intKey: Self.statusListClaim], list.isMap else {
                throw StatusListError("status_list claim (65533) is missing")
            }
            guard let bits = Self.bits(list["bits"]) else { throw StatusListError("bits is not 1, 2, 4 or 8") }
            guard let compressed = list["lst"]?.bytesValue else { throw StatusListError("lst is missing") }
            let statuses: [UInt8]
            do { statuses = try ZlibInflate.inflate(Array(compressed), maximumBytes: maximumDecompressedBytes) } catch {
                throw StatusListError("lst does not inflate: \(error)")
            }
            content = .statusList(bits: Int(bits), statuses: statuses)
        case .statusListJWT:
            throw StatusListError("a JWT status list is not CBOR")
        case .identifierList:
            guard expiresAt != nil else { throw StatusListError("an identifier list needs exp") }
            guard claims[intKey: Self.statusListClaim] == nil else {
                throw StatusListError("an identifier list may not carry a status_list claim")
            }
            guard let identifiers = claims[intKey: Self.identifierListClaim]?["identifiers"]?.mapValue else {
                throw StatusListError("identifier_list claim (65530) has no identifiers map")
            }
            var set = Set<[UInt8]>()
            for pair in identifiers {
                guard let id = pair.key.bytesValue else { throw StatusListError("an identifier is not a byte string") }
                set.insert(Array(id))
            }
            content = .identifierList(set)
        }
        var verified = VerifiedStatusList(
            uri: uri, content: content, issuedAt: issuedAt, expiresAt: expiresAt, timeToLive: ttl,
            signerTrust: signerTrust, signerCertificate: Array(leafDER))
        verified.signerLinks = signerLinks
        return verified
    }

    /// The `ttl` claim in seconds (capped at a year); nil when absent. A value that is not a non-negative number
    /// throws, like an unreadable `exp`.
    static func timeToLive(_ item: CBORItem?) throws(StatusListError) -> TimeInterval? {
        guard let seconds = try NumericDate.seconds(item, claim: "ttl") else { return nil }
        guard seconds >= 0 else { throw StatusListError("ttl is negative") }
        return min(seconds, 31_536_000)
    }

    /// The `bits` of a status list: 1, 2, 4 or 8.
    @inline(never)
    static func bits(_ item: CBORItem?) -> UInt64? {
        guard let item, let value = item.unsignedValue, [1, 2, 4, 8].contains(value) else { return nil }
        return value
    }

    /// The status-list signer rule set: directly under its issuer (no intermediate), keyUsage digitalSignature, not a
    /// CA, valid now; an IACA it chains to must be valid now too (the MSO's own certificate is judged with the MSO).
    static func rules(now: Date, anchorValidity: Bool) -> [any PathRule] {
        [
            MaximumIntermediateCAs(0, profile: "a status-list signer"),
            LeafSigningKeyUsage(required: true),
            LeafIsNotCA(),
            ValidAtTime(now, includingAnchor: anchorValidity),
        ]
    }

    /// The signer is issued by the MSO's certificate when it names one, else directly by a trusted IACA.
    static func signerTrust(_ signer: Certificate, certificate: [UInt8]?, trust: TrustSnapshot, now: Date)
        throws(StatusListError) -> (StatusEvidence.SignerTrust, [ChainRevocationChecker.Link])
    {
        if let certificate {
            guard let issuer = try? Certificate(derEncoded: certificate) else {
                throw StatusListError("the signer is not issued by the certificate the MSO names")
            }
            let builder = CertificationPathBuilder(anchors: PinnedAnchors([issuer], name: "certificate the MSO names"),
                                                   rules: rules(now: now, anchorValidity: false))
            switch builder.build(leaf: signer, others: []) {
            case .success(let path) where !path.path.isEmpty:
                return (.msoCertificate, ChainRevocationChecker.links(path: path.path, anchor: issuer))
            case .success: throw StatusListError("the signer is the MSO's certificate itself, not issued by it")
            case .failure(let problem) where problem.kind == .untrusted:
                throw StatusListError("the signer is not issued by the certificate the MSO names")
            case .failure(let problem): throw StatusListError("the signer certificate: \(problem.detail)")
            }
        }
        let builder = CertificationPathBuilder(anchors: IACAAnchors(trust, purpose: .revocation), rules: rules(now: now, anchorValidity: true))
        switch builder.build(leaf: signer, others: []) {
        case .success(let path):
            return (.anchor(sha256: path.anchor.sha256), ChainRevocationChecker.links(path: path.path, anchor: path.anchor.certificate))
        case .failure(let problem) where problem.kind == .untrusted:
            throw StatusListError("the signer does not chain to a trusted IACA")
        case .failure(let problem): throw StatusListError("the signer certificate: \(problem.detail)")
        }
    }
}
