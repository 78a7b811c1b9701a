import Foundation

/// Locates test inputs: the repository's `TestVectors/` and the shared vectors beside the repository.
public enum Fixtures {
    /// The repository root, found from this file's location.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `TestVectors/` in this repository.
    public static let testVectors: URL = repositoryRoot.appendingPathComponent("TestVectors")

    /// The documentation a newcomer reads, as relative paths: README.md, then every Markdown file under docs/
    /// (sorted).
    public static var documentationFiles: [String] {
        let docs = repositoryRoot.appendingPathComponent("docs")
        let found = (FileManager.default.subpaths(atPath: docs.path) ?? []).filter { $0.hasSuffix(".md") }.sorted()
        return ["README.md"] + found.map { "docs/\($0)" }
    }

    /// A documentation file's text (a path relative to the repository root).
    public static func documentation(_ path: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// README.md and every document under docs/, joined: for checks that an example or a statement is written
    /// somewhere a reader finds it.
    public static func allDocumentation() throws -> String {
        try documentationFiles.map(documentation).joined(separator: "\n")
    }

    /// `../shared/vectors`, present in CI and on developer machines, absent in a bare clone.
    public static let sharedVectors: URL = repositoryRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/vectors")

    /// Whether the shared vectors are present; tests that need them are skipped otherwise.
    public static let sharedVectorsAvailable: Bool = {
        let available = FileManager.default.fileExists(atPath: sharedVectors.path)
        if !available {
            print("note: \(sharedVectors.path) is missing; tests that need ../shared/vectors are skipped")
        }
        return available
    }()

    public static func annexD(_ name: String) throws -> [UInt8] {
        try hexFile(sharedVectors.appendingPathComponent("iso18013-5-annex-d/\(name).hex"))
    }

    public static func appleSample(_ name: String) throws -> URL {
        sharedVectors.appendingPathComponent("apple-identity-sample/\(name)")
    }

    public static func bytes(_ url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }

    public static func text(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }

    /// Reads a file of hex text (whitespace ignored).
    public static func hexFile(_ url: URL) throws -> [UInt8] {
        guard let bytes = [UInt8](hex: try text(url)) else { throw FixtureError.notHex(url.path) }
        return bytes
    }

    public enum FixtureError: Error { case notHex(String) }
}

extension Array where Element == UInt8 {
    /// Parses hex text, ignoring whitespace; nil on any other character or an odd digit count.
    public init?(hex: String) {
        var result: [UInt8] = []
        var high: UInt8?
        for scalar in hex.unicodeScalars {
            let nibble: UInt8
            switch scalar {
            case "0"..."9": nibble = UInt8(scalar.value - 48)
            case "a"..."f": nibble = UInt8(scalar.value - 87)
            case "A"..."F": nibble = UInt8(scalar.value - 55)
            case " ", "\n", "\r", "\t": continue
            default: return nil
            }
            if let h = high {
                result.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard high == nil else { return nil }
        self = result
    }

    /// Lowercase hex.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
