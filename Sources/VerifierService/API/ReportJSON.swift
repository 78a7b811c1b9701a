import Foundation
import MDoc

/// The JSON shapes of verification results (public API: names and shapes are fixed, fields may be added).
enum ReportJSON {
    /// 200 or 422 body for a report. Claim values appear only when the whole report verified: a relying party that
    /// reads `claims` without reading `verified` never gets data from a response that failed.
    static func body(_ report: VerificationReport, includeClaims: Bool) -> JSON {
        let includeClaims = includeClaims && report.verified
        var members: [(String, JSON?)] = [("verified", .bool(report.verified))]
        if !report.verified {
            let code = report.failureCode ?? .deviceResponseMalformed
            members.append(("code", .string(code.rawValue)))
            members.append(("message", .string(report.failureDetail ?? message(for: report))))
        }
        members.append(("documents", .array(report.documents.map { document($0, includeClaims: includeClaims) })))
        return .object(members)
    }

    static func message(for report: VerificationReport) -> String {
        let failing = report.documents.flatMap(\.checks).first { $0.status == .failed }
        return failing.map { "\($0.id.rawValue) failed: \($0.detail ?? $0.code?.rawValue ?? "")" } ?? "not verified"
    }

    static func document(_ document: DocumentReport, includeClaims: Bool) -> JSON {
        var members: [(String, JSON?)] = [
            ("docType", .string(document.docType)),
            ("verified", .bool(document.verified)),
        ]
        if includeClaims && document.verified {
            members.append(("claims", claims(document.claims.filter { $0.source == .issuerSigned })))
            let deviceSigned = document.claims.filter { $0.source == .deviceSigned }
            if !deviceSigned.isEmpty { members.append(("deviceSignedClaims", claims(deviceSigned))) }
        }
        members.append(("issuer", issuer(document.issuer)))
        members.append(("validity", validity(document.validityInfo)))
        members.append(("deviceAuthentication", document.deviceAuthentication.map { .string($0.rawValue) } ?? .null))
        members.append(("checks", .array(document.checks.map(check))))
        if !document.notReturned.isEmpty {
            // Names only, never values: what was asked for and did not come back (the holder may decline).
            members.append(("notReturned", .object(byNameSpace(document.notReturned) { ($0.nameSpace, .string($0.identifier)) }
                .map { ($0.0, JSON.array($0.1)) })))
        }
        return .object(members)
    }

    /// `{namespace: {element: value}}` for claims of one source. The model guarantees one value per element and
    /// source, so no key repeats.
    static func claims(_ claims: [Claim]) -> JSON {
        .object(byNameSpace(claims) { ($0.nameSpace, ($0.identifier, value($0.value))) }.map { ($0.0, JSON.object($0.1)) })
    }

    /// Groups entries by namespace, namespaces and entries in the order first seen.
    static func byNameSpace<Entry, Value>(_ entries: [Entry], _ split: (Entry) -> (String, Value)) -> [(String, [Value])] {
        var groups: [(String, [Value])] = []
        for entry in entries {
            let (nameSpace, value) = split(entry)
            if let index = groups.firstIndex(where: { $0.0 == nameSpace }) {
                groups[index].1.append(value)
            } else {
                groups.append((nameSpace, [value]))
            }
        }
        return groups
    }

    static func check(_ result: CheckResult) -> JSON {
        .object([
            ("id", .string(result.id.rawValue)),
            ("outcome", .string(result.status.rawValue)),
            ("code", result.code.map { .string($0.rawValue) }),
            ("detail", result.detail.map { .string($0) }),
        ])
    }

    static func issuer(_ issuer: IssuerSummary) -> JSON {
        .object([
            ("documentSigner", issuer.documentSignerSubject.map { .string($0) }),
            ("iaca", issuer.iacaSubject.map { .string($0) }),
            ("iacaSha256", issuer.iacaSHA256.map { .string($0) }),
            ("country", issuer.country.map { .string($0) }),
        ])
    }

    static func validity(_ validity: ValidityInfo) -> JSON {
        .object([
            ("signed", .string(timestamp(validity.signed))),
            ("validFrom", .string(timestamp(validity.validFrom))),
            ("validUntil", .string(timestamp(validity.validUntil))),
            ("expectedUpdate", validity.expectedUpdate.map { .string(timestamp($0)) }),
        ])
    }

    /// Element values: text, numbers and booleans as themselves; bytes as standard base64; dates as strings;
    /// arrays and maps recursively (map keys as strings).
    static func value(_ element: ElementValue) -> JSON {
        switch element {
        case .text(let s), .fullDate(let s), .tdate(let s), .bigInteger(let s): return .string(s)
        case .integer(let n): return .int(n)
        case .bool(let b): return .bool(b)
        case .bytes(let b): return .string(Data(b).base64EncodedString())
        case .float(let d): return .double(d)
        case .array(let items): return .array(items.map(value))
        case .map(let pairs):
            // Keys become strings; when two differ only in type (1 and "1") an object would repeat a key, so such
            // a map is written as an array of [key, value] pairs instead.
            var seen = Set<String>()
            if pairs.allSatisfy({ seen.insert($0.key).inserted }) {
                return .object(pairs.map { ($0.key, value($0.value)) })
            }
            return .array(pairs.map { .array([.string($0.key), value($0.value)]) })
        case .null: return .null
        case .tagged(_, let inner): return value(inner)
        }
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
