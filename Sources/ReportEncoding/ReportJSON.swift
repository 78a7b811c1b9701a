import StrictJSON
import Encodings
import Foundation
import MDoc

/// The JSON shapes of verification results (public API: names and shapes are fixed, fields may be added), written
/// once into one buffer with no intermediate tree.
public enum ReportJSON {
    /// 200 or 422 body for a report, with `extra` members appended to the top-level object. Claim values appear
    /// only when the whole report verified: a relying party that reads `claims` without reading `verified` never
    /// gets data from a response that failed.
    public static func bytes(_ report: VerificationReport, includeClaims: Bool, extra: [(String, JSON?)] = []) -> [UInt8] {
        var writer = JSONWriter(capacity: 2048)
        write(report, includeClaims: includeClaims, extra: extra, into: &writer)
        return writer.bytes
    }

    static func write(_ report: VerificationReport, includeClaims: Bool, extra: [(String, JSON?)],
                      into writer: inout JSONWriter) {
        let includeClaims = includeClaims && report.verified
        writeHead(verified: report.verified, code: report.failureCode,
                  message: { report.failureDetail ?? message(for: report) }, into: &writer)
        for document in report.documents { write(document, includeClaims: includeClaims, into: &writer) }
        writeTail(extra: extra, into: &writer)
    }

    /// Opens a report object: `verified`, and when it did not verify its `code` and `message`; then opens `documents`.
    static func writeHead(verified: Bool, code: FailureCode?, message: () -> String, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("verified")
        writer.bool(verified)
        if !verified {
            writer.key("code")
            writer.string((code ?? .deviceResponseMalformed).rawValue)
            writer.key("message")
            writer.string(message())
        }
        writer.key("documents")
        writer.beginArray()
    }

    /// Closes `documents`, appends the `extra` members that have a value, and closes the report object.
    static func writeTail(extra: [(String, JSON?)], into writer: inout JSONWriter) {
        writer.endArray()
        for (name, value) in extra {
            guard let value else { continue }
            writer.key(name)
            writer.value(value)
        }
        writer.endObject()
    }

    static func message(for report: VerificationReport) -> String {
        let failing = report.documents.flatMap(\.checks).first { $0.status == .failed }
        return failing.map { "\($0.id.rawValue) failed: \($0.detail ?? $0.code?.rawValue ?? "")" } ?? "not verified"
    }

    static func write(_ document: DocumentReport, includeClaims: Bool, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("format")
        writer.string("mso_mdoc")
        writer.key("docType")
        writer.string(document.docType)
        writer.key("verified")
        writer.bool(document.verified)
        if let zk = document.zeroKnowledge {
            // A proof, not the mdoc: its claims are verified issuer data, but the reader must see what it leaves out.
            writer.key("zk")
            writer.bool(true)
            writer.key("zeroKnowledge")
            write(zk, into: &writer)
        }
        if includeClaims && document.verified {
            writer.key("claims")
            writeClaims(document.claims, source: .issuerSigned, into: &writer)
            if document.claims.contains(where: { $0.source == .deviceSigned }) {
                writer.key("deviceSignedClaims")
                writeClaims(document.claims, source: .deviceSigned, into: &writer)
            }
        }
        writer.key("issuer")
        write(document.issuer, into: &writer)
        writer.key("validity")
        if let validity = document.validityInfo { write(validity, into: &writer) } else { writer.null() }
        writer.key("deviceAuthentication")
        if let method = document.deviceAuthentication { writer.string(method.rawValue) } else { writer.null() }
        writer.key("checks")
        writer.beginArray()
        for check in document.checks { write(check, into: &writer) }
        writer.endArray()
        if !document.notReturned.isEmpty {
            // Names only, never values: what was asked for and did not come back (the holder may decline).
            writer.key("notReturned")
            writer.beginObject()
            for nameSpace in nameSpaces(document.notReturned.map(\.nameSpace)) {
                writer.key(nameSpace)
                writer.beginArray()
                for reference in document.notReturned where reference.nameSpace == nameSpace {
                    writer.string(reference.identifier)
                }
                writer.endArray()
            }
            writer.endObject()
        }
        writer.endObject()
    }

    static func write(_ zk: ZeroKnowledgeSummary, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("system")
        writer.string(zk.system)
        if let hash = zk.circuitHash {
            writer.key("circuitHash")
            writer.string(hash)
        }
        if let version = zk.version {
            writer.key("version")
            writer.int(Int64(version))
        }
        writer.key("timestamp")
        writer.string(zk.timestamp)
        writer.key("proves")
        writer.beginArray()
        for token in ZeroKnowledgeSummary.proves { writer.string(token) }
        writer.endArray()
        writer.key("doesNotProve")
        writer.beginArray()
        for token in ZeroKnowledgeSummary.doesNotProve { writer.string(token) }
        writer.endArray()
        writer.endObject()
    }

    /// `{namespace: {element: value}}` for the claims of one source, namespaces and elements in the order first
    /// seen. The model guarantees one value per element and source, so no key repeats.
    static func writeClaims(_ claims: [Claim], source: Claim.Source, into writer: inout JSONWriter) {
        writer.beginObject()
        for nameSpace in nameSpaces(claims.lazy.filter { $0.source == source }.map(\.nameSpace)) {
            writer.key(nameSpace)
            writer.beginObject()
            for claim in claims where claim.source == source && claim.nameSpace == nameSpace {
                writer.key(claim.identifier)
                write(claim.value, into: &writer)
            }
            writer.endObject()
        }
        writer.endObject()
    }

    /// Distinct namespaces in the order first seen.
    static func nameSpaces(_ names: some Sequence<String>) -> [String] {
        var distinct: [String] = []
        for name in names where !distinct.contains(name) { distinct.append(name) }
        return distinct
    }

    static func write(_ result: CheckResult, into writer: inout JSONWriter) {
        writeCheck(id: result.id.rawValue, outcome: result.status, code: result.code?.rawValue, detail: result.detail, into: &writer)
    }

    /// One check of any format: `{id, outcome, code?, detail?}`.
    static func writeCheck(id: String, outcome: CheckStatus, code: String?, detail: String?, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id")
        writer.string(id)
        writer.key("outcome")
        writer.string(outcome.rawValue)
        if let code {
            writer.key("code")
            writer.string(code)
        }
        if let detail {
            writer.key("detail")
            writer.string(detail)
        }
        writer.endObject()
    }

    static func write(_ issuer: IssuerSummary, into writer: inout JSONWriter) {
        writer.beginObject()
        for (name, value) in [("documentSigner", issuer.documentSignerSubject), ("iaca", issuer.iacaSubject),
                              ("iacaSha256", issuer.iacaSHA256), ("country", issuer.country)] {
            guard let value else { continue }
            writer.key(name)
            writer.string(value)
        }
        writer.endObject()
    }

    static func write(_ validity: ValidityInfo, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("signed")
        writer.timestamp(validity.signed)
        writer.key("validFrom")
        writer.timestamp(validity.validFrom)
        writer.key("validUntil")
        writer.timestamp(validity.validUntil)
        if let expectedUpdate = validity.expectedUpdate {
            writer.key("expectedUpdate")
            writer.timestamp(expectedUpdate)
        }
        writer.endObject()
    }

    /// Element values: text, numbers and booleans as themselves; bytes as standard base64; dates as strings;
    /// arrays and maps recursively (map keys as strings).
    static func write(_ element: ElementValue, into writer: inout JSONWriter) {
        switch element {
        case .text(let s), .fullDate(let s), .tdate(let s), .bigInteger(let s): writer.string(s)
        case .integer(let n): writer.int(n)
        case .bool(let b): writer.bool(b)
        case .bytes(let b): writer.base64(b)
        case .float(let d): writer.double(d)
        case .array(let items):
            writer.beginArray()
            for item in items { write(item, into: &writer) }
            writer.endArray()
        case .map(let pairs):
            // Keys become strings; when two differ only in type (1 and "1") an object would repeat a key, so such
            // a map is written as an array of [key, value] pairs instead.
            var seen = Set<String>()
            if pairs.allSatisfy({ seen.insert($0.key).inserted }) {
                writer.beginObject()
                for pair in pairs {
                    writer.key(pair.key)
                    write(pair.value, into: &writer)
                }
                writer.endObject()
            } else {
                writer.beginArray()
                for pair in pairs {
                    writer.beginArray()
                    writer.string(pair.key)
                    write(pair.value, into: &writer)
                    writer.endArray()
                }
                writer.endArray()
            }
        case .null: writer.null()
        case .tagged(_, let inner): write(inner, into: &writer)
        }
    }

    public static func timestamp(_ date: Date) -> String {
        RFC3339Timestamp.string(date)
    }
}
