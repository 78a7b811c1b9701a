import CBOR
import Foundation
import MDoc

/// The payload of a VICAL (ISO/IEC 18013-5 Annex C): who publishes it, when, and the IACAs it lists.
///
/// Read as the real lists are written: unknown keys (and capitalised ones such as `Extensions`) are ignored, and a
/// malformed entry is reported on its own instead of failing the list.
public struct VICAL: Sendable {
    public let version: String
    public let provider: String
    public let date: Date
    public let issueID: UInt64?
    public let nextUpdate: Date?
    public let entries: [VICALEntry]
    /// Entries that could not be read, by position, with the reason.
    public let malformedEntries: [(index: Int, reason: String)]

    /// Parses the `VICAL` map from the COSE payload.
    public init(payload: ArraySlice<UInt8>, limits: VICALLimits = .default) throws(VICALError) {
        let item: CBORItem
        do {
            item = try CBORDecoder(limits: limits.decoding).decode(payload)
        } catch {
            throw VICALError(.malformed, "the payload is not CBOR: \(error)")
        }
        guard item.isMap else { throw VICALError(.malformed, "the payload is \(item.kindWithArticle), not a map") }
        func text(_ key: String) throws(VICALError) -> String {
            guard let value = item[key]?.textValue else { throw VICALError(.malformed, "\"\(key)\" is missing or not text") }
            return value
        }
        version = try text("version")
        provider = try text("vicalProvider")
        guard let dateItem = item["date"], let date = TDate.date(from: dateItem) else {
            throw VICALError(.malformed, "\"date\" is missing or not an RFC 3339 tdate")
        }
        self.date = date
        if let issue = item["vicalIssueID"] {
            guard let value = issue.unsignedValue else { throw VICALError(.malformed, "\"vicalIssueID\" is not an unsigned integer") }
            issueID = value
        } else {
            issueID = nil
        }
        if let next = item["nextUpdate"] {
            guard let value = TDate.date(from: next) else { throw VICALError(.malformed, "\"nextUpdate\" is not an RFC 3339 tdate") }
            nextUpdate = value
        } else {
            nextUpdate = nil
        }
        guard let infos = item["certificateInfos"]?.arrayValue else {
            throw VICALError(.malformed, "\"certificateInfos\" is missing or not an array")
        }
        guard infos.count <= limits.maximumEntries else {
            throw VICALError(.malformed, "\(infos.count) entries; at most \(limits.maximumEntries) are read")
        }
        var entries: [VICALEntry] = []
        var malformed: [(index: Int, reason: String)] = []
        for (index, info) in infos.enumerated() {
            switch VICALEntry.parse(info, index: index) {
            case .success(let entry): entries.append(entry)
            case .failure(let reason): malformed.append((index, reason.detail))
            }
        }
        self.entries = entries
        self.malformedEntries = malformed
    }
}

/// One `CertificateInfo`: a trust point and the docTypes it may vouch for.
public struct VICALEntry: Sendable {
    /// Position in `certificateInfos`.
    public let index: Int
    public let certificate: [UInt8]
    public let docTypes: [String]
    public let issuingAuthority: String?
    public let issuingCountry: String?
    public let stateOrProvinceName: String?

    struct Malformed: Error { let detail: String }

    static func parse(_ item: CBORItem, index: Int) -> Result<VICALEntry, Malformed> {
        guard item.isMap else { return .failure(Malformed(detail: "is \(item.kindWithArticle), not a map")) }
        guard let certificate = item["certificate"]?.bytesValue, !certificate.isEmpty else {
            return .failure(Malformed(detail: "\"certificate\" is missing or not a byte string"))
        }
        guard let list = item["docType"]?.arrayValue, !list.isEmpty else {
            return .failure(Malformed(detail: "\"docType\" is missing or not a non-empty array"))
        }
        var docTypes: [String] = []
        for element in list {
            guard let docType = element.textValue, !docType.isEmpty else {
                return .failure(Malformed(detail: "\"docType\" holds \(element.kindWithArticle), not text"))
            }
            docTypes.append(docType)
        }
        func optionalText(_ key: String) -> String? { item[key]?.textValue }
        return .success(VICALEntry(index: index, certificate: Array(certificate), docTypes: docTypes,
                                   issuingAuthority: optionalText("issuingAuthority"),
                                   issuingCountry: optionalText("issuingCountry"),
                                   stateOrProvinceName: optionalText("stateOrProvinceName")))
    }
}
