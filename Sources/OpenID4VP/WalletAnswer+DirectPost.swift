import MDoc

extension WalletAnswer {
    /// The form fields a wallet posts to a response URI (`direct_post.jwt`, OpenID4VP 1.0 §8.3.1): `response=<JWE>`,
    /// or `error=` with an optional `error_description` (§8.5), never both. The error texts are cut to 128 and 512
    /// characters, as from the Digital Credentials API.
    public init(directPostFields fields: [String: String]) throws(ResponseFailure) {
        if let response = fields["response"], fields["error"] == nil {
            self = .encrypted(response)
        } else if let error = fields["error"], fields["response"] == nil {
            self = .error(code: String(error.prefix(128)), description: fields["error_description"].map { String($0.prefix(512)) })
        } else {
            throw ResponseFailure(.envelopeMalformed, "exactly one of the fields response and error is expected")
        }
    }
}
