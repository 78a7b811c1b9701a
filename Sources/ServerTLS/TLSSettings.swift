import Foundation

/// What a TLS listener serves: the certificate chain and key files, the lowest protocol version, and optionally the
/// CA that client certificates must chain to.
public struct TLSSettings: Sendable, Hashable {
    /// The lowest TLS version accepted. TLS 1.0 and 1.1 are never offered.
    public enum MinimumVersion: String, Sendable, Hashable, CaseIterable {
        case tls12 = "1.2"
        case tls13 = "1.3"
    }

    /// PEM file: the server certificate first, then any intermediates.
    public var certificateChain: URL
    /// PEM file: the server's private key (PKCS#8, SEC1 or PKCS#1; not encrypted).
    public var privateKey: URL
    /// Lowest version accepted.
    public var minimumVersion: MinimumVersion
    /// PEM bundle of CAs that client certificates must chain to; nil: no client certificates are requested.
    public var clientCA: URL?
    /// How long one session-ticket key is used; then a fresh one is made and older tickets fall back to a full
    /// handshake.
    public var ticketKeyLifetime: Duration

    /// Creates settings; only the two files are required.
    public init(certificateChain: URL, privateKey: URL, minimumVersion: MinimumVersion = .tls12, clientCA: URL? = nil,
                ticketKeyLifetime: Duration = .seconds(12 * 3600)) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
        self.minimumVersion = minimumVersion
        self.clientCA = clientCA
        self.ticketKeyLifetime = ticketKeyLifetime
    }
}
