/// How the wallet returns its answer (OpenID4VP 1.0 Appendix A.2 and 8.3).
public enum ResponseMode: String, Sendable, CaseIterable {
    /// Over the Digital Credentials API, encrypted to the session's key (the default; the only mode HAIP allows).
    case dcAPIJWT = "dc_api.jwt"
    /// Over the Digital Credentials API, in the clear (only where the configuration allows it).
    case dcAPI = "dc_api"
    /// Cross-device: posted by the wallet to the response URI, encrypted.
    case directPostJWT = "direct_post.jwt"

    /// Whether answers are JWEs to the session's key.
    public var encrypted: Bool { self != .dcAPI }
}
