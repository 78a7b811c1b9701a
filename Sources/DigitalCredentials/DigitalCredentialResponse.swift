import StrictJSON

/// What the page received from `navigator.credentials.get` and posts back as it is: the `DigitalCredential`'s
/// `protocol` and `data`. `data` is read by the rules of the protocol named, once the session shows it was offered.
public struct DigitalCredentialResponse: KnownFields, Sendable {
    /// The protocol the wallet answered, as the browser reports it.
    public let `protocol`: String
    /// The protocol's answer: `{"response"}` for Annex C; `{"response"}`, `{"vp_token"}` or `{"error"}` for OpenID4VP.
    public let data: RawJSON

    public init(protocol: String, data: RawJSON) {
        self.protocol = `protocol`
        self.data = data
    }

    public enum CodingKeys: String, CodingKey, CaseIterable { case `protocol`, data }

    /// Exactly `protocol` and `data`: another member is refused by name, like every other request member.
    public init(from decoder: any Decoder) throws {
        try Self.refuseUnknownFields(decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        `protocol` = try container.decode(String.self, forKey: .protocol)
        data = try container.decode(RawJSON.self, forKey: .data)
    }
}
