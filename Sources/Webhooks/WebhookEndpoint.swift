/// Where one integrator's events go: a URL from the operator's configuration (never from a request) and the secret
/// that signs them.
public struct WebhookEndpoint: Sendable {
    public let integrator: String
    public let url: String
    public let secret: WebhookSecret

    public init(integrator: String, url: String, secret: WebhookSecret) {
        self.integrator = integrator
        self.url = url
        self.secret = secret
    }
}
