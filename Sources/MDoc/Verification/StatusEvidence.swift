/// What a fetched and verified status list says about one reference, as the `mso.status` check reads it.
///
/// The revocation module fetches the list, verifies its signature, its `typ`, `sub`, `iat` and `exp`, and finds
/// the certificate the list signer chains to; this check then applies the rules that need the document: the
/// signer must chain to the document's own IACA (or to the MSO's `certificate`) and must not be the document
/// signer.
public struct StatusEvidence: Sendable, Equatable {
    /// What the list said.
    public enum Finding: Sendable, Equatable {
        /// A Token Status List value at the index (0 valid, 1 invalid, 2 suspended, anything else unknown).
        case status(UInt8)
        /// An identifier list: whether the identifier is listed (listed means revoked).
        case identifierListed(Bool)
        /// No statement can be made (fetch failed, signature, chain, claims or index did not hold).
        case unknown(String)
    }

    /// Whom the list signer's certificate chains to.
    public enum SignerTrust: Sendable, Equatable {
        /// A trusted IACA, by the SHA-256 of its DER.
        case anchor(sha256: String)
        /// The certificate the MSO names in its status reference.
        case msoCertificate
        /// A key of the JWT VC Issuer Metadata of `issuer` (an SD-JWT VC issuer an operator listed).
        case issuerKey(issuer: String)
        /// Nothing checked (the finding is unknown).
        case none
    }

    public let finding: Finding
    public let signerTrust: SignerTrust
    /// The list signer's certificate DER, to refuse a list signed by the document signer itself.
    public let signerCertificate: [UInt8]?
    /// How the list was obtained, for the report (e.g. "fetched", "cached 42 s", "stale 310 s").
    public let source: String

    public init(finding: Finding, signerTrust: SignerTrust = .none, signerCertificate: [UInt8]? = nil,
                source: String = "") {
        self.finding = finding
        self.signerTrust = signerTrust
        self.signerCertificate = signerCertificate
        self.source = source
    }

    public static func unknown(_ reason: String) -> StatusEvidence {
        StatusEvidence(finding: .unknown(reason))
    }
}

/// How revocation status is applied.
public struct StatusPolicy: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Revoked, suspended (and unknown, per `unknown`) fail the document.
        case enforce
        /// Every status problem is a warning.
        case warn
        /// Status is not checked; `mso.status` is not applicable.
        case off
    }

    public enum Unknown: String, Sendable, CaseIterable {
        case fail
        case warn
    }

    public var mode: Mode
    public var unknown: Unknown

    public init(mode: Mode = .enforce, unknown: Unknown = .fail) {
        self.mode = mode
        self.unknown = unknown
    }
}
