import OpenID4VP
import WebPresentment

/// A protocol a page may offer in one `navigator.credentials.get({digital: {requests: [...]}})` and a wallet may
/// answer with: the `protocol` member of a W3C Digital Credentials request and of the `DigitalCredential` returned.
public enum DigitalCredentialProtocol: String, Sendable, CaseIterable, Hashable {
    /// OpenID4VP 1.0 Appendix A with a signed request object (the reader's certificate names the verifier).
    case openID4VPSigned = "openid4vp-v1-signed"
    /// ISO/IEC 18013-7 Annex C: a DeviceRequest and EncryptionInfo, an HPKE-sealed DeviceResponse.
    case isoMdoc = "org-iso-mdoc"
    /// OpenID4VP 1.0 Appendix A with the request's parameters in the clear (the wallet knows the verifier only by the
    /// page's origin).
    case openID4VPUnsigned = "openid4vp-v1-unsigned"

    /// The order offered when the configuration names none: a signed OpenID4VP request first (mdocs and SD-JWT VCs,
    /// the verifier authenticated), then Annex C (what Safari speaks). An unsigned request only when configured.
    public static let defaultPreference: [DigitalCredentialProtocol] = [.openID4VPSigned, .isoMdoc]
}
