import MDoc
import OpenID4VP

/// The outcome of one answer to a ``PresentationRequest``: the protocol that answered and its verdict, in that
/// protocol's report shape (Annex C: one report of mdoc documents; OpenID4VP: documents with their DCQL credential ids).
public enum PresentationVerdict: Sendable {
    case isoMdoc(VerificationReport)
    case openID4VP(DigitalCredentialProtocol, OpenID4VPVerdict)

    /// The protocol the wallet answered with.
    public var answeredWith: DigitalCredentialProtocol {
        switch self {
        case .isoMdoc: return .isoMdoc
        case .openID4VP(let offer, _): return offer
        }
    }
}

/// An answer refused before any verification: it names a protocol this session did not offer.
public struct PresentationRefusal: Error, Sendable {
    public let detail: String
}
