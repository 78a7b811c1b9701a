import Encodings
import HTTPServer
import StrictJSON

/// Reading request bodies: strict JSON through ``StrictJSONBody`` (the CLI reads the same way), base64 fields.
enum RequestDecoding {
    /// The body as `T`, or 400 `INVALID_REQUEST` naming the field.
    static func decode<T: KnownFields>(_ type: T.Type, from request: HTTPServerRequest) throws(ServiceProblem) -> T {
        do {
            return try StrictJSONBody.decode(type, from: request.body)
        } catch {
            throw ServiceProblem.invalidRequest(error.detail)
        }
    }

    /// Standard or URL-safe base64, padding optional.
    static func base64(_ text: String, field: String) throws(ServiceProblem) -> [UInt8] {
        guard let bytes = Base64Input.decode(text) else {
            throw ServiceProblem(.badRequest, "INVALID_BASE64", "\"\(field)\" is not base64")
        }
        return bytes
    }
}
