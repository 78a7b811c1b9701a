import Foundation

/// An `application/x-www-form-urlencoded` body (a wallet's post to the response URI), at most 16 fields, each
/// name once.
enum FormBody {
    static func fields(_ body: [UInt8]) -> [String: String]? {
        guard let text = String(validating: body, as: UTF8.self) else { return nil }
        var fields: [String: String] = [:]
        let pairs = text.split(separator: "&", omittingEmptySubsequences: true)
        guard pairs.count <= 16 else { return nil }
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2,
                  let name = parts[0].replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
                  let value = parts[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
                  fields[name] == nil
            else { return nil }
            fields[name] = value
        }
        return fields
    }
}
