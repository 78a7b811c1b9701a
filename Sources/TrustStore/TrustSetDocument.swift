import Foundation

/// A trust set as one self-contained JSON document (certificates as base64 DER, each with its metadata, and the
/// VICALs in force): how a database keeps each version of the set. Reading it back validates every certificate
/// as an IACA again, so a damaged or hand-edited row can never put a non-CA in force.
public enum TrustSetDocument {
    static let currentFormat = 1

    struct Document: Codable {
        struct Entry: Codable {
            var certificate: String
            var sha256: String
            var metadata: TrustAnchorMetadata
        }
        var format: Int
        var anchors: [Entry]
        var lists: [String: TrustListRecord]
    }

    /// The document's bytes (sorted keys, so the same set always gives the same bytes).
    public static func encode(_ set: TrustSet) -> [UInt8] {
        let document = Document(
            format: currentFormat,
            anchors: set.anchors.map { Document.Entry(certificate: Data($0.derBytes).base64EncodedString(), sha256: $0.sha256,
                                                      metadata: $0.metadata) },
            lists: set.lists)
        // Encoding plain strings, integers and dates cannot fail.
        return Array((try? TrustManifest.encoder.encode(document)) ?? Data())
    }

    /// Parses a document and validates each certificate; `source` names it in errors (e.g. `trust version 12`).
    public static func decode(_ bytes: [UInt8], source: String) throws(TrustAnchorError) -> TrustSet {
        let document: Document
        do {
            document = try TrustManifest.decoder.decode(Document.self, from: Data(bytes))
        } catch {
            throw .unreadable(source: source, reason: "not a trust set document: \(error)")
        }
        guard document.format == currentFormat else {
            throw .unreadable(source: source, reason: "document format \(document.format) is not \(currentFormat)")
        }
        var anchors: [TrustAnchor] = []
        anchors.reserveCapacity(document.anchors.count)
        for (index, entry) in document.anchors.enumerated() {
            guard let der = Data(base64Encoded: entry.certificate) else {
                throw .unreadable(source: source, reason: "anchors[\(index)].certificate is not base64")
            }
            let anchor = try TrustAnchor(derBytes: Array(der), file: nil, metadata: entry.metadata)
            guard anchor.sha256 == entry.sha256 else {
                throw .unreadable(source: source, reason: "anchors[\(index)] does not match its sha256")
            }
            anchors.append(anchor)
        }
        return TrustSet(anchors: anchors, lists: document.lists)
    }
}
