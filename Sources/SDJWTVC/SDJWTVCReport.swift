import Foundation
import MDoc
import SDJWT
import StrictJSON

/// The verification result of one SD-JWT VC: every check in a fixed order, the issuer-signed claims, and what the
/// holder signed in its KB-JWT, kept apart.
public struct SDJWTVCReport: Sendable {
    /// The credential type, when the payload has one (reported even when a check failed, as an mdoc's docType is).
    public let vct: String?
    /// True when no check failed (warnings and not-applicable checks do not fail a credential).
    public let verified: Bool
    /// The issuer-signed claims after disclosure: with a query, only the paths it asked for (a claim in the clear
    /// too, when asked for); without one, the whole processed payload. Nil when the disclosures could not be applied.
    public let claims: JSON?
    /// Where a disclosure supplied a value (the rest of ``claims`` was in the clear).
    public let disclosedPaths: [ClaimPath]
    public let issuer: SDJWTVCIssuerSummary
    public let issuedAt: Date?
    public let notBefore: Date?
    public let expiresAt: Date?
    /// Holder-asserted: the KB-JWT's `iat`, `nonce` and `aud`, when it verified.
    public let keyBinding: KeyBindingVerifier.Verified?
    /// Holder-asserted: the transaction data the KB-JWT approved (only when `sdjwt.transactionData` passed).
    public let approvedTransactionData: [ApprovedTransactionData]
    public let checks: [SDJWTVCCheckResult]

    public init(vct: String?, verified: Bool, claims: JSON?, disclosedPaths: [ClaimPath], issuer: SDJWTVCIssuerSummary,
                issuedAt: Date?, notBefore: Date?, expiresAt: Date?, keyBinding: KeyBindingVerifier.Verified?,
                approvedTransactionData: [ApprovedTransactionData] = [], checks: [SDJWTVCCheckResult]) {
        self.vct = vct
        self.verified = verified
        self.claims = claims
        self.disclosedPaths = disclosedPaths
        self.issuer = issuer
        self.issuedAt = issuedAt
        self.notBefore = notBefore
        self.expiresAt = expiresAt
        self.keyBinding = keyBinding
        self.approvedTransactionData = approvedTransactionData
        self.checks = checks
    }

    /// This report with `check` in place of the check of its id, and `verified` recomputed (the OpenID4VP verdict
    /// judges what one credential cannot: a transaction data entry approved by none or by two). A failed check
    /// withdraws the approvals it stood for.
    public func replacing(_ check: SDJWTVCCheckResult) -> SDJWTVCReport {
        var checks = self.checks
        guard let position = checks.firstIndex(where: { $0.id == check.id }) else { return self }
        checks[position] = check
        return SDJWTVCReport(vct: vct, verified: !checks.contains { $0.status == .failed }, claims: claims, disclosedPaths: disclosedPaths,
                             issuer: issuer, issuedAt: issuedAt, notBefore: notBefore, expiresAt: expiresAt, keyBinding: keyBinding,
                             approvedTransactionData: check.id == .transactionData && check.status == .failed ? [] : approvedTransactionData,
                             checks: checks)
    }

    /// The first failing check's code, in check order.
    public var firstFailureCode: FailureCode? {
        checks.first { $0.status == .failed }?.code
    }

    public func check(_ id: SDJWTVCCheckID) -> SDJWTVCCheckResult? {
        checks.first { $0.id == id }
    }
}

/// Who issued an SD-JWT VC, as far as its `x5c` and the trust set tell, or the JWT VC Issuer Metadata of a listed
/// issuer.
public struct SDJWTVCIssuerSummary: Sendable, Equatable {
    /// `iss`, as the issuer wrote it (no spec ties it to the certificate).
    public let iss: String?
    /// Subject of `x5c[0]`.
    public let signerSubject: String?
    /// Subject of the trusted anchor the chain ends in.
    public let anchorSubject: String?
    /// Lowercase hex SHA-256 of the anchor's DER.
    public let anchorSHA256: String?
    /// For a listed issuer: where its keys were read (the metadata URL, and its `jwks_uri`).
    public var metadataSource: String? = nil
    /// For a listed issuer: the `kid` of the key that verified the signature.
    public var keyID: String? = nil

    public init(iss: String?, signerSubject: String?, anchorSubject: String?, anchorSHA256: String?) {
        self.iss = iss
        self.signerSubject = signerSubject
        self.anchorSubject = anchorSubject
        self.anchorSHA256 = anchorSHA256
    }
}

/// What verifying one SD-JWT VC presentation gave: a report, or a failure before any check could run (the
/// presentation or its issuer-signed JWT does not parse).
public enum SDJWTVCResult: Sendable {
    case report(SDJWTVCReport)
    case failure(FailureCode, String)

    public var verified: Bool {
        if case .report(let report) = self { return report.verified }
        return false
    }
}
