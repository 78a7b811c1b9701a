import Encodings
import Foundation
import HTTPServer
import MDoc

/// A JSON request body: its fields are known (``KnownFields``), any other is refused.
protocol RequestBody: KnownFields {}

/// Reading JSON request bodies strictly, with errors that name the field.
enum RequestDecoding {
    /// Flat bodies of strings and booleans (every verify request) are read in place by ``FlatJSONDecoder``; any
    /// other body, and every body that fails there, goes through Foundation's decoder, whose errors are reported.
    /// Both refuse unknown fields through ``StrictBody``. A name repeated within an object, at any depth, is
    /// refused: the flat reader finds it at the top of a flat body (and leaves that body alone), and
    /// ``JSONSyntaxScan`` checks every body the flat reader did not read before Foundation sees it (Foundation
    /// would keep one of the two).
    static func decode<T: RequestBody>(_ type: T.Type, from request: HTTPServerRequest) throws(ServiceProblem) -> T {
        let object = FlatJSONObject(request.body)
        if let object, let value = try? StrictBody<T>(from: FlatJSONDecoder(object: object)) {
            return value.body
        }
        // A flat object that was read has no nesting and no repeated name: only the others need the scan.
        if object == nil, let failure = JSONSyntaxScan.check(request.body) {
            guard let path = failure.duplicate else { throw ServiceProblem.invalidRequest("the body is not valid JSON") }
            throw ServiceProblem.invalidRequest(duplicateField(path))
        }
        do {
            return try JSONDecoder().decode(StrictBody<T>.self, from: Data(request.body)).body
        } catch let error as DecodingError {
            throw ServiceProblem.invalidRequest(describe(error))
        } catch {
            throw ServiceProblem.invalidRequest("the body is not valid JSON")
        }
    }

    /// The detail for a name that appears twice in one object, `path` in the style of unknown fields.
    static func duplicateField(_ path: String) -> String {
        "duplicate field \"\(path)\" (a name may appear only once in an object)"
    }

    static func describe(_ error: DecodingError) -> String {
        /// `anchors[0].certificate`: names joined by dots, array positions in brackets.
        func path(_ context: DecodingError.Context) -> String {
            var text = ""
            for key in context.codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text
        }
        if case .dataCorrupted(let context) = error, context.debugDescription.hasPrefix(UnknownField.marker) {
            return "unknown field \"\(path(context))\" (known: \(context.debugDescription.dropFirst(UnknownField.marker.count)))"
        }
        switch error {
        case .keyNotFound(let key, _): return "missing field \"\(key.stringValue)\""
        case .typeMismatch(_, let context): return "field \"\(path(context))\" has the wrong type"
        case .valueNotFound(_, let context): return "field \"\(path(context))\" is null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the body is not valid JSON" : "field \"\(path(context))\" is invalid"
        @unknown default: return "the body is not a valid request"
        }
    }

    /// Standard or URL-safe base64, padding optional.
    static func base64(_ text: String, field: String) throws(ServiceProblem) -> [UInt8] {
        guard let bytes = Base64Input.decode(text) else {
            throw ServiceProblem(.badRequest, "INVALID_BASE64", "\"\(field)\" is not base64")
        }
        return bytes
    }

    /// An RFC 3339 time, honoured only when the configuration allows overriding the clock.
    static func verificationTime(_ text: String?, allowed: Bool, now: Date) throws(ServiceProblem) -> Date {
        guard let text else { return now }
        guard allowed else {
            throw ServiceProblem(.badRequest, "VERIFICATION_TIME_OVERRIDE_DISABLED",
                                 "verificationTime is not accepted: verification.allowVerificationTimeOverride is false")
        }
        guard let date = TDate.parse(text) else {
            throw ServiceProblem.invalidRequest("\"verificationTime\" is not an RFC 3339 date-time")
        }
        return date
    }
}
