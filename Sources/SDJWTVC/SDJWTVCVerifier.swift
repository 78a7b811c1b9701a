import CertificateRevocation
import Crypto
import Foundation
import MDoc
import SDJWT
import StrictJSON
import TrustStore
import X509

/// Verifies SD-JWT VC presentations (`dc+sd-jwt`: RFC 9901, SD-JWT VC draft -19, HAIP 1.0) against the SD-JWT VC
/// issuer trust set, in two steps around revocation: ``prepare(_:options:)`` runs every check but status and names
/// the status list to fetch; ``finish(_:statusEvidence:)`` judges the list's answer and builds the report.
public struct SDJWTVCVerifier: Sendable {
    /// The SD-JWT VC issuer anchors (not IACAs), scoped by `vct`.
    public let trust: TrustSnapshot
    /// The issuers an operator listed for JWT VC Issuer Metadata; every other issuer is verified by `x5c`.
    public let metadataIssuers: [SDJWTVCMetadataIssuer]

    public init(trust: TrustSnapshot, metadataIssuers: [SDJWTVCMetadataIssuer] = []) {
        self.trust = trust
        self.metadataIssuers = metadataIssuers
    }

    /// The listing of the presentation's `iss` (read before any check), when its issuer is verified by JWT VC Issuer
    /// Metadata: the caller looks its keys up and passes them to ``prepare(_:options:issuerKeys:)``. Nil for every
    /// issuer nobody listed, and for input that does not parse (``prepare(_:options:issuerKeys:)`` says why).
    public func listedIssuer(of text: String, limits: SDJWTLimits = SDJWTLimits()) -> SDJWTVCMetadataIssuer? {
        guard !metadataIssuers.isEmpty, let presentation = try? SDJWTPresentation(text, limits: limits),
              let jws = try? CompactJWS(presentation.issuerJWT, limits: limits),
              let iss = jws.payload[member: "iss"]?.stringValue
        else { return nil }
        return metadataIssuers.listing(of: iss)
    }

    public static let credentialType = "dc+sd-jwt"

    /// Every check but status. `issuerKeys` is what looking up the keys of ``listedIssuer(of:limits:)`` gave; a
    /// listed issuer without it fails `sdjwt.issuerSignature`.
    public func prepare(_ text: String, options: SDJWTVCOptions, issuerKeys: SDJWTVCIssuerKeyLookup? = nil) -> PreparedSDJWTVC {
        let limits = options.limits
        let presentation: SDJWTPresentation
        let jws: CompactJWS
        do throws(SDJWTFailure) {
            presentation = try SDJWTPresentation(text, limits: limits)
            do { jws = try CompactJWS(presentation.issuerJWT, limits: limits) } catch {
                throw SDJWTFailure(.malformed, "the issuer-signed JWT: \(error.reason)")
            }
        } catch {
            return PreparedSDJWTVC(statusReference: nil, outcome: .failure(FailureCode(rawValue: error.code.rawValue), error.detail))
        }
        let now = options.verificationTime
        let payload = jws.payload
        let vct = payload[member: "vct"]?.stringValue
        var checks: [SDJWTVCCheckResult] = []

        // sdjwt.issuerSignature, then sdjwt.issuerCertificateChain: by the key of x5c, or of a listed issuer's metadata.
        let iss = payload[member: "iss"]?.stringValue
        let signature: SDJWTVCCheckResult
        var issuer = SDJWTVCIssuerSummary(iss: iss, signerSubject: nil, anchorSubject: nil, anchorSHA256: nil)
        var anchor: TrustAnchor?
        var metadataIssuer: String?
        // The types the operator trusts this issuer for: what `vct`, and any alias the issuer names in `aka_vcts`,
        // is held to (nothing when no anchor or listing vouches for the issuer).
        var issuerScope: (String) -> Bool = { _ in false }
        // The AuthorityKeyIdentifiers of the certificates the credential carries (none for a listed issuer's key).
        var presentedAuthorityKeyIdentifiers: [[UInt8]] = []
        var chainLinks: [ChainRevocationChecker.Link]?
        if let listed = iss.flatMap(metadataIssuers.listing(of:)) {
            issuerScope = { listed.isAuthorized(for: $0) }
            let verifiedKey: SDJWTVCIssuerKeys.Key?
            (signature, verifiedKey) = metadataSignature(jws, lookup: issuerKeys)
            checks.append(signature)
            if let verifiedKey, case .keys(let keys)? = issuerKeys {
                issuer.metadataSource = keys.source
                issuer.keyID = verifiedKey.id
            }
            if listed.isAuthorized(for: vct) {
                metadataIssuer = listed.iss
                checks.append(.notApplicable(.issuerCertificateChain,
                                             "no certificate: the key comes from the issuer's JWT VC Issuer Metadata (a listed issuer)"))
            } else {
                checks.append(.failed(.issuerCertificateChain, FailureCode(.issuerNotAuthorizedForVCT),
                                      "the listed issuer is trusted for other vct values, not \"\((vct ?? "").prefix(128))\""))
            }
        } else {
            let chain: SDJWTVCIssuerChain?
            (signature, chain) = issuerSignature(jws, options: options)
            checks.append(signature)
            chainLinks = chain?.revocationLinks
            if let chain {
                presentedAuthorityKeyIdentifiers = chain.presentedAuthorityKeyIdentifiers
                let (result, found) = chain.check(vct: vct, now: now)
                checks.append(result)
                anchor = found
                if let metadata = found?.metadata { issuerScope = { metadata.authorizes(docType: $0) } }
            } else {
                checks.append(.notApplicable(.issuerCertificateChain, "no certificate to build a path from"))
            }
            issuer = SDJWTVCIssuerSummary(iss: iss, signerSubject: chain?.leafSubject, anchorSubject: anchor?.subject,
                                          anchorSHA256: anchor?.sha256)
        }
        var checked = PreparedSDJWTVC.Checked(vct: vct, claims: nil, disclosedPaths: [], issuer: issuer, checks: checks,
                                              anchorSHA256: anchor?.sha256, metadataIssuer: metadataIssuer,
                                              policy: options.statusPolicy)
        checked.revocationPolicy = options.certificateRevocation
        if options.certificateRevocation.mode == .off {
            checked.revocationNotApplicable = "CRL checking is off (crl.mode)"
        } else if metadataIssuer != nil {
            checked.revocationNotApplicable = "no certificate: the key comes from the issuer's JWT VC Issuer Metadata"
        } else if checks.allSatisfy({ $0.status != .failed }), checks.contains(where: { $0.id == .issuerCertificateChain && $0.status != .notApplicable }),
                  let links = chainLinks {
            checked.revocationLinks = links
        } else {
            checked.revocationNotApplicable = "not looked up: the issuer's signature or chain does not hold"
        }
        guard signature.status == .passed else {
            let reason = "the issuer-signed JWT did not verify"
            for id in [SDJWTVCCheckID.disclosures, .claims, .validity, .keyBinding, .transactionData, .requestClaims, .requestTrustedAuthorities] {
                checked.checks.append(.notApplicable(id, reason))
            }
            checked.statusNotApplicable = "not looked up: \(reason)"
            return PreparedSDJWTVC(statusReference: nil, outcome: .checked(checked))
        }

        // sdjwt.disclosures
        var resolved: DisclosureResolver.Resolved?
        do throws(SDJWTFailure) {
            var disclosures: [Disclosure] = []
            disclosures.reserveCapacity(presentation.disclosures.count)
            for text in presentation.disclosures { disclosures.append(try Disclosure(text, limits: limits)) }
            resolved = try DisclosureResolver(limits: limits).resolve(payload: payload, disclosures: disclosures)
            checked.checks.append(.passed(.disclosures, "\(disclosures.count) disclosure(s) applied"))
        } catch {
            checked.checks.append(.failed(.disclosures, FailureCode(rawValue: error.code.rawValue), error.detail))
        }
        checked.claims = resolved?.claims
        checked.disclosedPaths = resolved?.disclosedPaths ?? []

        // sdjwt.claims and sdjwt.validity
        let claims = ClaimsReading(payload)
        checked.checks.append(claims.result)
        checked.issuedAt = claims.issuedAt
        checked.notBefore = claims.notBefore
        checked.expiresAt = claims.expiresAt
        checked.checks.append(claims.validity(at: now, skew: options.clockSkew))

        // sdjwt.keyBinding
        let required = claims.hasConfirmation || options.requiresHolderBinding
        if !required && presentation.keyBindingJWT == nil {
            checked.checks.append(.notApplicable(.keyBinding, "not required: the credential has no cnf and the query does not ask for holder binding"))
        } else if let holderKey = claims.holderKey {
            do throws(SDJWTFailure) {
                let verified = try KeyBindingVerifier(limits: limits).verify(presentation, holderKey: holderKey, expected: options.keyBinding)
                checked.keyBinding = verified
                checked.checks.append(.passed(.keyBinding, "signed by cnf.jwk for this nonce and audience"))
            } catch {
                checked.checks.append(.failed(.keyBinding, FailureCode(rawValue: error.code.rawValue), error.detail))
            }
        } else if !claims.hasConfirmation {
            checked.checks.append(.failed(.keyBinding, FailureCode(rawValue: SDJWTErrorCode.confirmationKeyMissing.rawValue),
                                          required ? "holder binding is required but the credential has no cnf.jwk"
                                              : "a KB-JWT was sent but the credential has no cnf.jwk to check it with (RFC 9901 4.3)"))
        } else {
            checked.checks.append(.notApplicable(.keyBinding, "cnf is malformed (sdjwt.claims)"))
        }

        // sdjwt.transactionData
        let (transactionData, approved) = TransactionDataBindingCheck.evaluate(options.transactionData, keyBinding: checked.keyBinding)
        checked.checks.append(transactionData)
        checked.approvedTransactionData = approved

        // request.claims
        if let query = options.query {
            if let processed = resolved?.claims, let vct {
                let akaVcts: [String] = { if case .array(let items)? = payload[member: "aka_vcts"] { return items.compactMap(\.stringValue) } else { return [] } }()
                checked.checks.append(RequestedClaimsCheck.evaluate(query: query, vct: vct, akaVcts: akaVcts, issuerScope: issuerScope,
                                                                    claims: processed, disclosedPaths: resolved?.disclosedPaths ?? []))
                if query.restrictsClaims {
                    checked.claims = ClaimsPathPointer.project(processed, query.claims.map(\.path)) ?? .object([])
                }
            } else {
                checked.checks.append(.notApplicable(.requestClaims, "the claims could not be read (sdjwt.disclosures or sdjwt.claims)"))
                checked.claims = nil
            }
        } else {
            checked.checks.append(.notApplicable(.requestClaims, "no query: every claim is reported"))
        }

        // request.trustedAuthorities
        checked.checks.append(Self.trustedAuthorities(options.query?.trustedAuthorities, presented: presentedAuthorityKeyIdentifiers))

        // What decides whether the status list is looked up: the credential is valid as issued.
        let issuance: [SDJWTVCCheckID] = [.issuerSignature, .issuerCertificateChain, .disclosures, .claims, .validity]
        if let failing = checked.checks.first(where: { issuance.contains($0.id) && $0.status == .failed }) {
            checked.statusNotApplicable = "not looked up: the credential is not valid as issued (\(failing.id.rawValue) failed)"
        } else if options.statusPolicy.mode == .off {
            checked.statusNotApplicable = "status checking is off (status.mode)"
        } else if let reference = claims.statusReference {
            checked.statusReference = reference
        } else {
            checked.statusNotApplicable = "the credential has no status"
        }
        return PreparedSDJWTVC(statusReference: checked.statusReference, outcome: .checked(checked))
    }

    /// The report, with `sdjwt.status` judged from `statusEvidence` (the list named by ``PreparedSDJWTVC/statusReference``).
    public func finish(_ prepared: PreparedSDJWTVC, statusEvidence: StatusEvidence?,
                       certificateRevocation: [Certificate: CertificateRevocationOutcome] = [:]) -> SDJWTVCResult {
        var checked: PreparedSDJWTVC.Checked
        switch prepared.outcome {
        case .failure(let code, let detail): return .failure(code, detail)
        case .checked(let outcome): checked = outcome
        }
        let status: SDJWTVCCheckResult
        if let reason = checked.statusNotApplicable {
            status = .notApplicable(.status, reason)
        } else {
            status = SDJWTVCStatusJudgement.judge(statusEvidence ?? .unknown("the status list was not resolved"),
                                                  reference: checked.statusReference, anchorSHA256: checked.anchorSHA256,
                                                  metadataIssuer: checked.metadataIssuer, policy: checked.policy)
        }
        // sdjwt.issuerCertificateRevocation follows the chain.
        let revocation: SDJWTVCCheckResult
        if let links = checked.revocationLinks {
            revocation = Self.revocationResult(links.map { certificateRevocation[$0.certificate]
                ?? .undetermined(.unavailable, detail: "\($0.certificate.subject): the CRL was not resolved") }, policy: checked.revocationPolicy)
        } else {
            revocation = .notApplicable(.issuerCertificateRevocation, checked.revocationNotApplicable ?? "no certification path")
        }
        checked.checks.insert(revocation, at: (checked.checks.firstIndex { $0.id == .issuerCertificateChain } ?? -1) + 1)
        // sdjwt.status sits before request.claims.
        checked.checks.insert(status, at: checked.checks.firstIndex { $0.id == .requestClaims } ?? checked.checks.endIndex)
        let verified = !checked.checks.contains { $0.status == .failed }
        return .report(SDJWTVCReport(vct: checked.vct, verified: verified, claims: checked.claims, disclosedPaths: checked.disclosedPaths,
                                     issuer: checked.issuer, issuedAt: checked.issuedAt, notBefore: checked.notBefore,
                                     expiresAt: checked.expiresAt, keyBinding: checked.keyBinding,
                                     approvedTransactionData: checked.approvedTransactionData, checks: checked.checks))
    }

    /// `sdjwt.issuerCertificateRevocation` from the chain's CRL outcomes (the same verdict as an mdoc's).
    static func revocationResult(_ outcomes: [CertificateRevocationOutcome], policy: CertificateRevocationPolicy) -> SDJWTVCCheckResult {
        let id = SDJWTVCCheckID.issuerCertificateRevocation
        switch CertificateRevocationVerdict.judge(outcomes, policy: policy) {
        case .passed(let detail): return .passed(id, detail)
        case .notApplicable(let detail): return .notApplicable(id, detail)
        case .failed(let code, let detail): return .failed(id, FailureCode(rawValue: code), detail)
        case .warning(let code, let detail): return .warning(id, FailureCode(rawValue: code), detail)
        }
    }

    /// `request.trustedAuthorities`: when the query names `aki` trusted authorities, a certificate of `x5c` carries an
    /// AuthorityKeyIdentifier whose keyIdentifier is one of them (OpenID4VP 1.0 §6.1.1.1; a listed issuer's metadata
    /// key has no certificate to carry one).
    static func trustedAuthorities(_ wanted: [[UInt8]]?, presented: [[UInt8]]) -> SDJWTVCCheckResult {
        let id = SDJWTVCCheckID.requestTrustedAuthorities
        guard let wanted else { return .notApplicable(id, "the query names no trusted authorities") }
        guard let match = presented.first(where: wanted.contains) else {
            return .failed(id, FailureCode(.issuerNotTrustedAuthority),
                           "no certificate of x5c has an AuthorityKeyIdentifier among the \(wanted.count) the query names")
        }
        return .passed(id, "x5c names authority key identifier \(match.hexString)")
    }

    /// `sdjwt.issuerSignature` for a listed issuer: the ES256 signature by the key its metadata publishes under the
    /// JWS's `kid`. `x5c` is not consulted: the listing, not the credential, chooses the mechanism.
    func metadataSignature(_ jws: CompactJWS, lookup: SDJWTVCIssuerKeyLookup?) -> (SDJWTVCCheckResult, SDJWTVCIssuerKeys.Key?) {
        let id = SDJWTVCCheckID.issuerSignature
        if let refusal = headerRefusal(jws) { return (refusal, nil) }
        let keyID = jws.header[member: "kid"]?.stringValue
        if jws.header[member: "kid"] != nil && keyID == nil {
            return (.failed(id, FailureCode(.issuerKeyNotFound), "kid is not a string"), nil)
        }
        let keys: SDJWTVCIssuerKeys
        switch lookup {
        case .keys(let found)?: keys = found
        case .unavailable(let reason)?:
            return (.failed(id, FailureCode(.issuerMetadataUnavailable), "the issuer's JWT VC Issuer Metadata: \(reason)"), nil)
        case .invalid(let reason)?:
            return (.failed(id, FailureCode(.issuerMetadataInvalid), "the issuer's JWT VC Issuer Metadata: \(reason)"), nil)
        case nil:
            return (.failed(id, FailureCode(.issuerMetadataUnavailable), "the issuer's JWT VC Issuer Metadata was not looked up"), nil)
        }
        switch keys.key(for: keyID) {
        case .failure(let problem):
            return (.failed(id, FailureCode(.issuerKeyNotFound), problem.detail), nil)
        case .success(let key):
            let named = key.id.map { " \"\($0.prefix(64))\"" } ?? ""
            guard ES256.isValid(jws.signature, over: jws.signingInput, key: key.key) else {
                return (.failed(id, FailureCode(rawValue: SDJWTErrorCode.issuerSignatureInvalid.rawValue),
                                "the ES256 signature does not verify with the issuer's metadata key\(named)"), nil)
            }
            return (.passed(id, "ES256 by the key\(named) of the issuer's JWT VC Issuer Metadata"), key)
        }
    }

    /// The protected header's refusals shared by both key mechanisms: `typ`, `alg`, `crit`.
    func headerRefusal(_ jws: CompactJWS) -> SDJWTVCCheckResult? {
        let id = SDJWTVCCheckID.issuerSignature
        func failed(_ code: SDJWTErrorCode, _ detail: String) -> SDJWTVCCheckResult {
            .failed(id, FailureCode(rawValue: code.rawValue), detail)
        }
        guard jws.type == Self.credentialType else {
            return failed(.typInvalid, "typ is \(jws.type.map { "\"\($0.prefix(32))\"" } ?? "missing"), not \"dc+sd-jwt\"")
        }
        guard jws.algorithm == ES256.name else {
            return failed(.algorithmUnsupported, "alg \(jws.algorithm.map { "\"\($0.prefix(16))\"" } ?? "missing") is not ES256")
        }
        if jws.header[member: "crit"] != nil {
            return failed(.critUnsupported, "crit names header parameters this verifier does not process")
        }
        return nil
    }

    /// `sdjwt.issuerSignature`, and the x5c read for the chain check.
    func issuerSignature(_ jws: CompactJWS, options: SDJWTVCOptions) -> (SDJWTVCCheckResult, SDJWTVCIssuerChain?) {
        let id = SDJWTVCCheckID.issuerSignature
        func failed(_ code: SDJWTErrorCode, _ detail: String) -> SDJWTVCCheckResult {
            .failed(id, FailureCode(rawValue: code.rawValue), detail)
        }
        if let refusal = headerRefusal(jws) { return (refusal, nil) }
        guard case .array(let items)? = jws.header[member: "x5c"] else {
            return (failed(.x5cMissing, "the protected header has no x5c array"), nil)
        }
        let entries = items.compactMap(\.stringValue)
        guard entries.count == items.count else { return (failed(.x5cMissing, "x5c holds a value that is not a string"), nil) }
        guard entries.count <= options.limits.maximumCertificates else {
            return (.failed(id, FailureCode(.issuerCertificateInvalid),
                            "x5c holds \(entries.count) certificates; at most \(options.limits.maximumCertificates)"), nil)
        }
        switch SDJWTVCIssuerChainCache.shared.chain(entries, trust: trust, maximumCertificates: options.limits.maximumCertificates) {
        case .failure(let result):
            return (result, nil)
        case .success(let chain):
            guard let key = chain.leafKey else {
                return (failed(.algorithmUnsupported, "x5c[0]'s key is not EC P-256, so it cannot make an ES256 signature"), chain)
            }
            guard ES256.isValid(jws.signature, over: jws.signingInput, key: key) else {
                return (failed(.issuerSignatureInvalid, "the ES256 signature does not verify with x5c[0]'s key"), chain)
            }
            return (.passed(id, "ES256 by \(chain.leafSubject)"), chain)
        }
    }
}
