import Foundation

/// Decodes base64 from clients: standard or URL-safe alphabet, padding optional, no whitespace.
enum Base64Input {
    static func decode(_ text: String) -> [UInt8]? {
        guard !text.isEmpty else { return [] }
        var normalized = ""
        normalized.reserveCapacity(text.utf8.count + 3)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "-": normalized.unicodeScalars.append("+")
            case "_": normalized.unicodeScalars.append("/")
            case "A"..."Z", "a"..."z", "0"..."9", "+", "/", "=": normalized.unicodeScalars.append(scalar)
            default: return nil
            }
        }
        let unpadded = normalized.trimmingCharacters(in: CharacterSet(charactersIn: "="))
        guard !unpadded.contains("="), normalized.count - unpadded.count <= 2 else { return nil }
        let remainder = unpadded.count % 4
        guard remainder != 1 else { return nil }
        let padded = unpadded + String(repeating: "=", count: remainder == 0 ? 0 : 4 - remainder)
        return Data(base64Encoded: padded).map(Array.init)
    }
}
