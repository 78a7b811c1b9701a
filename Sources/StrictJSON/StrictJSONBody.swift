import Foundation

/// The one way a JSON request is read (HTTP routes and the CLI alike): strictly, with a reason that names the field.
public enum StrictJSONBody {
    /// Why a body was refused; `detail` names the field (`anchors[0].certificate`) and is safe to show the caller.
    public struct Refusal: Error, Sendable {
        public let detail: String
    }

    /// The most JSON values (objects, arrays, strings, numbers, literals) a body may hold: a DCQL query at
    /// verifierd's largest (4 credentials of 256 claims) holds about 6,200. Foundation's decoder and ``RawJSON``
    /// pay per value, so the scan refuses more before they run.
    public static let maximumValues = 8_192

    /// Flat bodies of strings and booleans (every verify request) are read in place by ``FlatJSONDecoder``; any
    /// other body, and every body that fails there, goes through Foundation's decoder, whose errors are reported.
    /// Both refuse unknown fields through ``StrictBody``. A name repeated within an object, at any depth, is
    /// refused: the flat reader finds it at the top of a flat body (and leaves that body alone), and
    /// ``JSONSyntaxScan`` checks every body the flat reader did not read before Foundation sees it (Foundation
    /// would keep one of the two).
    public static func decode<T: KnownFields>(_ type: T.Type, from bytes: [UInt8]) throws(Refusal) -> T {
        let object = FlatJSONObject(bytes)
        if let object, let value = try? StrictBody<T>(from: FlatJSONDecoder(object: object)) {
            return value.body
        }
        // A flat object that was read has no nesting and no repeated name: only the others need the scan.
        if object == nil, let failure = JSONSyntaxScan.check(bytes, maximumValues: maximumValues) {
            if failure.reason == "more values than the limit" {
                throw Refusal(detail: "the body holds more than \(maximumValues) JSON values")
            }
            guard let path = failure.duplicate else { throw Refusal(detail: "the body is not valid JSON") }
            throw Refusal(detail: duplicateField(path))
        }
        do {
            return try JSONDecoder().decode(StrictBody<T>.self, from: Data(bytes)).body
        } catch let error as DecodingError {
            throw Refusal(detail: describe(error))
        } catch {
            throw Refusal(detail: "the body is not valid JSON")
        }
    }

    /// The detail for a name that appears twice in one object, `path` in the style of unknown fields.
    public static func duplicateField(_ path: String) -> String {
        "duplicate field \"\(path)\" (a name may appear only once in an object)"
    }

    /// A decoding error as a sentence naming the field.
    public static func describe(_ error: DecodingError) -> String {
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
}
