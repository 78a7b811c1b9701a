/// How a document was authenticated by the device.
public enum DeviceAuthenticationKind: String, Sendable, Codable {
    case signature
    case mac
}

/// The verification result of one document: every check in a fixed order, and the claims.
public struct DocumentReport: Sendable {
    public let docType: String
    /// True when no check failed (warnings and not-applicable checks do not fail a document).
    public let verified: Bool
    /// Issuer-signed then device-signed claims, in the order received.
    public let claims: [Claim]
    public let issuer: IssuerSummary
    /// The MSO's validity; nil for a zero-knowledge document (the MSO stays hidden).
    public let validityInfo: ValidityInfo?
    public let deviceAuthentication: DeviceAuthenticationKind?
    public let checks: [CheckResult]
    /// Requested elements of this docType that the answer did not contain (the holder may decline); empty when
    /// the caller gave no request.
    public let notReturned: [ElementReference]
    /// Set for a document from `zkDocuments`: proven in zero knowledge, with what that does not prove.
    public let zeroKnowledge: ZeroKnowledgeSummary?

    public init(docType: String, verified: Bool, claims: [Claim], issuer: IssuerSummary, validityInfo: ValidityInfo?,
                deviceAuthentication: DeviceAuthenticationKind?, checks: [CheckResult], notReturned: [ElementReference],
                zeroKnowledge: ZeroKnowledgeSummary? = nil) {
        self.docType = docType
        self.verified = verified
        self.claims = claims
        self.issuer = issuer
        self.validityInfo = validityInfo
        self.deviceAuthentication = deviceAuthentication
        self.checks = checks
        self.notReturned = notReturned
        self.zeroKnowledge = zeroKnowledge
    }

    /// The first failing check's code, in check order.
    public var firstFailureCode: VerificationErrorCode? {
        checks.first { $0.status == .failed }?.code
    }

    public func check(_ id: VerificationCheckID) -> CheckResult? {
        checks.first { $0.id == id }
    }

    /// The value of an issuer-signed element (never a device-signed one of the same name).
    public func claim(_ nameSpace: String, _ identifier: String) -> ElementValue? {
        claim(nameSpace, identifier, source: .issuerSigned)
    }

    /// The value of an element from one source.
    public func claim(_ nameSpace: String, _ identifier: String, source: Claim.Source) -> ElementValue? {
        claims.first { $0.source == source && $0.nameSpace == nameSpace && $0.identifier == identifier }?.value
    }
}
