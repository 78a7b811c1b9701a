/// The certificate a client presented in the handshake.
public struct TLSClientCertificate: Sendable, Hashable {
    /// Subject distinguished name (RFC 2253), e.g. `CN=ops-alice,O=Example`.
    public let subject: String
    /// Whether it chains to the configured client CA (OpenSSL's verification result).
    public let chainsToClientCA: Bool

    public init(subject: String, chainsToClientCA: Bool) {
        self.subject = subject
        self.chainsToClientCA = chainsToClientCA
    }
}
