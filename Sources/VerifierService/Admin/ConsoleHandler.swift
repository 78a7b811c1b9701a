import HTTPServer
import HTTPTypes

/// The operations console: one static page and its script and style. The page holds no data; everything it shows
/// comes from the admin API with the token the operator pastes (kept in the page's memory only).
enum ConsoleHandler {
    /// Scripts, styles and requests only from this origin; no inline code, no frames, no forms posting elsewhere.
    static let consoleContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        + "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static func consoleAsset(_ text: String, contentType: String) -> HTTPServerResponse {
        var fields = HTTPFields()
        fields[.contentType] = contentType
        fields[.contentSecurityPolicy] = consoleContentSecurityPolicy
        fields[.xContentTypeOptions] = "nosniff"
        fields[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        fields[.cacheControl] = "no-store"
        return HTTPServerResponse(status: .ok, headerFields: fields, body: Array(text.utf8))
    }

    static func page(_: HTTPServerRequest, _: Void) -> HTTPServerResponse {
        consoleAsset(EmbeddedAssets.consoleHTML, contentType: "text/html; charset=utf-8")
    }

    static func script(_: HTTPServerRequest, _: Void) -> HTTPServerResponse {
        consoleAsset(EmbeddedAssets.consoleScript, contentType: "text/javascript; charset=utf-8")
    }

    static func style(_: HTTPServerRequest, _: Void) -> HTTPServerResponse {
        consoleAsset(EmbeddedAssets.consoleStyle, contentType: "text/css; charset=utf-8")
    }
}
