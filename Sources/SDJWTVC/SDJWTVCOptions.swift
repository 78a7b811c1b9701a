import CertificateRevocation
import Foundation
import MDoc
import SDJWT

/// How one SD-JWT VC presentation is verified: the clock, the key binding expected, the query it answers.
public struct SDJWTVCOptions: Sendable {
    public var verificationTime: Date
    /// Tolerance on `nbf` and `exp`.
    public var clockSkew: TimeInterval
    /// The nonce, audience and `iat` window the KB-JWT must meet.
    public var keyBinding: KeyBindingExpectation
    /// The DCQL credential query it answers; nil when there is none (the bare route, offline), and then every claim
    /// is reported and holder binding is required.
    public var query: SDJWTVCQuery?
    public var statusPolicy: StatusPolicy
    /// How CRLs apply to the issuer's `x5c` path (`sdjwt.issuerCertificateRevocation`). Off unless the caller resolves
    /// CRLs (the service does, as `crl.mode` says): this library fetches nothing.
    public var certificateRevocation = CertificateRevocationPolicy(mode: .off)
    public var limits: SDJWTLimits
    /// The OpenID4VP `transaction_data` addressed to this credential (nil outside OpenID4VP): what its KB-JWT must
    /// approve (`sdjwt.transactionData`).
    public var transactionData: TransactionDataExpectation?

    public init(verificationTime: Date, clockSkew: TimeInterval = 300, keyBinding: KeyBindingExpectation,
                query: SDJWTVCQuery? = nil, statusPolicy: StatusPolicy = StatusPolicy(), limits: SDJWTLimits = SDJWTLimits()) {
        self.verificationTime = verificationTime
        self.clockSkew = clockSkew
        self.keyBinding = keyBinding
        self.query = query
        self.statusPolicy = statusPolicy
        self.limits = limits
    }

    /// These options with `policy` for the issuer chain's CRLs.
    public func with(certificateRevocation policy: CertificateRevocationPolicy) -> SDJWTVCOptions {
        var options = self
        options.certificateRevocation = policy
        return options
    }

    /// Decided before the input is read (RFC 9901 7.3 step 1): stripping the KB-JWT never lowers the bar.
    public var requiresHolderBinding: Bool { query?.requireHolderBinding ?? true }
}
