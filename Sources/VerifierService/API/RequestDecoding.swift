import Encodings
import Foundation
import HTTPServer
import MDoc

/// A JSON request body whose top-level fields are known: any other field is refused (a mistyped `merchantID`
/// must not silently fall back to the configured merchant).
protocol RequestBody: Decodable {
    static var fields: Set<String> { get }
}

/// Reading JSON request bodies strictly, with errors that name the field.
enum RequestDecoding {
    /// Flat bodies of strings and booleans (every verify request) are read in place by ``FlatJSONDecoder``; any
    /// other body, and every body that fails there, goes through Foundation's decoder, whose errors are reported.
    static func decode<T: RequestBody>(_ type: T.Type, from request: HTTPServerRequest) throws(ServiceProblem) -> T {
        if let object = FlatJSONObject(request.body), let value = try? T(from: FlatJSONDecoder(object: object)) {
            try refuseUnknown(object.members.map(\.name), of: T.self)
            return value
        }
        if let object = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] {
            try refuseUnknown(Array(object.keys), of: T.self)
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(request.body))
        } catch let error as DecodingError {
            throw ServiceProblem.invalidRequest(describe(error))
        } catch {
            throw ServiceProblem.invalidRequest("the body is not valid JSON")
        }
    }

    static func refuseUnknown<T: RequestBody>(_ names: [String], of type: T.Type) throws(ServiceProblem) {
        guard let unknown = names.first(where: { !T.fields.contains($0) }) else { return }
        throw ServiceProblem.invalidRequest("unknown field \"\(unknown)\" (known: \(T.fields.sorted().joined(separator: ", ")))")
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
