import Foundation

/// A VICAL fetched on a schedule (`trust.vicalSources`).
public struct VICALSource: Sendable {
    public var name: String
    public var url: URL
    public var refreshHours: Double

    public init(name: String, url: URL, refreshHours: Double) {
        self.name = name
        self.url = url
        self.refreshHours = refreshHours
    }

    /// Lowercase letters, digits and dashes, 1 to 32 characters.
    public static func isValidName(_ name: String) -> Bool {
        (1...32).contains(name.count) && name.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2d }
    }
}
