import HTTPServer
import HTTPTypes
import WebPresentment

/// The origin of the page calling the demo routes, which is the origin the browser binds into the transcript.
///
/// The page is served by this service, so its origin names the `Host` the request came to: the browser's `Origin`
/// header is taken only when its host and port are that `Host` (a page elsewhere cannot borrow the routes), and
/// without one (a command-line client) the origin is the `Host` with this listener's scheme. Either way it must be
/// one of `web.allowedOrigins`, compared exactly, or the request is refused with 400 `ORIGIN_NOT_ALLOWED`.
enum DemoPageOrigin {
    static func of(_ request: HTTPServerRequest, web: ServiceConfiguration.Web, tls: Bool) throws(ServiceProblem) -> SerializedOrigin {
        guard let host = request.head.authority?.lowercased(), !host.isEmpty else {
            throw refused("the request names no Host")
        }
        let text: String
        if let sent = request.head.headerFields[.origin] {
            let scheme = sent.hasPrefix("https://") ? "https" : "http"
            guard sent == "\(scheme)://\(host)" else {
                throw refused("the Origin header (\(sent.prefix(SerializedOrigin.maximumLength))) is not this page's origin (Host \(host))")
            }
            text = sent
        } else {
            text = "\(tls ? "https" : "http")://\(host)"
        }
        guard let origin = SerializedOrigin(text), web.allowedOrigins.contains(origin) else {
            throw refused("the page's origin \(text.prefix(SerializedOrigin.maximumLength)) is not one of web.allowedOrigins")
        }
        return origin
    }

    static func refused(_ detail: String) -> ServiceProblem {
        ServiceProblem(.badRequest, "ORIGIN_NOT_ALLOWED", detail)
    }
}
