import Foundation

/// `anchors.json` beside the certificate files of a version: each file's metadata and the VICALs in force.
/// Files it does not name are manual anchors without a docType scope, so a folder of PEM files placed by hand
/// needs no manifest.
struct TrustManifest: Codable {
    static let fileName = "anchors.json"
    static let currentFormat = 1

    struct Entry: Codable {
        var file: String
        var sha256: String
        var metadata: TrustAnchorMetadata
    }

    var format: Int
    var anchors: [Entry]
    var lists: [String: TrustListRecord]

    init(_ set: TrustSet) {
        format = Self.currentFormat
        anchors = set.anchors.map { Entry(file: $0.file ?? "", sha256: $0.sha256, metadata: $0.metadata) }
        lists = set.lists
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    func encoded() throws -> [UInt8] { Array(try Self.encoder.encode(self)) }

    static func decode(_ data: Data, source: String) throws(TrustAnchorError) -> TrustManifest {
        let manifest: TrustManifest
        do {
            manifest = try decoder.decode(TrustManifest.self, from: data)
        } catch {
            throw .unreadable(source: source, reason: "not a trust manifest: \(error)")
        }
        guard manifest.format == currentFormat else {
            throw .unreadable(source: source, reason: "manifest format \(manifest.format) is not \(currentFormat)")
        }
        return manifest
    }
}
