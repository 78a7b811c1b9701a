import StrictJSON

/// The body of `POST /demo/requests`: `{}` (or nothing) for the default mDL elements, or `documents` as on
/// `/v1/web/requests`. The origin is never in the body: it is the page's own (``DemoPageOrigin``).
struct DemoRequestBody: KnownFields {
    let documents: [RequestedDocument]?

    enum CodingKeys: String, CodingKey, CaseIterable { case documents }
}

/// The body of `POST /demo/verify`: the session the page was given and `credential.data.response` as the browser
/// returned it. Only stored sessions: no stateless variant, no `verificationTime`.
struct DemoVerifyBody: KnownFields {
    let sessionId: String
    let response: String

    enum CodingKeys: String, CodingKey, CaseIterable { case sessionId, response }
}
