import CertificateRevocation
import Foundation
import MDoc
import SDJWT
import StrictJSON
import TrustStore

/// An SD-JWT VC checked up to its revocation status: what ``SDJWTVCVerifier/finish(_:statusEvidence:)`` needs, and
/// the status reference to resolve, present only when the credential is valid as issued (Token Status List 8.3: a
/// list is looked up for an authentic credential only, never for a URI an unverified payload names).
public struct PreparedSDJWTVC: Sendable {
    public let statusReference: SDJWTVCStatusReference?
    let outcome: Outcome
    /// The certificates of a path that holds, each with its issuer, to check against CRLs (empty when CRL checking is
    /// off, or the issuer is not verified by a certificate path).
    public var revocationLinks: [ChainRevocationChecker.Link] {
        guard case .checked(let checked) = outcome else { return [] }
        return checked.revocationLinks ?? []
    }

    enum Outcome: Sendable {
        case failure(FailureCode, String)
        case checked(Checked)
    }

    struct Checked: Sendable {
        var vct: String?
        var claims: JSON?
        var disclosedPaths: [ClaimPath]
        var issuer: SDJWTVCIssuerSummary
        var issuedAt: Date?
        var notBefore: Date?
        var expiresAt: Date?
        var keyBinding: KeyBindingVerifier.Verified?
        var approvedTransactionData: [ApprovedTransactionData] = []
        /// Every check but `sdjwt.status`, in order.
        var checks: [SDJWTVCCheckResult]
        /// Why status is not looked up, when it is not.
        var statusNotApplicable: String?
        var statusReference: SDJWTVCStatusReference?
        var anchorSHA256: String?
        /// The listed issuer whose metadata keys verified the credential; its status list must be signed by one of them.
        var metadataIssuer: String?
        var policy: StatusPolicy
        /// Set when the issuer's chain holds and CRL checking is on; nil: the check is not applicable (``revocationNotApplicable``).
        var revocationLinks: [ChainRevocationChecker.Link]?
        var revocationNotApplicable: String?
        var revocationPolicy = CertificateRevocationPolicy()
    }
}
