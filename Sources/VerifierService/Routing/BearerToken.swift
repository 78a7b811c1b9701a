import Foundation
import HTTPServer

extension HTTPServerRequest {
    /// The token of an `Authorization: Bearer …` header, or nil.
    var bearerToken: String? {
        guard let value = head.headerFields[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }
}
