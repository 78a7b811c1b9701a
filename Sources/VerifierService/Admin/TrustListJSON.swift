import Foundation
import ReportEncoding
import StrictJSON
import TrustManagement
import TrustStore

/// How the admin routes show a trust list source's list in force and last scheduled refresh (VICALs and lists of
/// trusted entities alike).
enum TrustListJSON {
    /// `inForce` (issue number or sequence, provider, dates, anchors, SHA-256), `ageSeconds` and
    /// `nextUpdateMarginSeconds`; nulls when no list is in force.
    static func inForce(_ list: TrustListRecord?, time: Date) -> [(String, JSON)] {
        guard let list else { return [("inForce", .null), ("ageSeconds", .null), ("nextUpdateMarginSeconds", .null)] }
        let inForce: [(String, JSON)] = [
            ("issueID", list.issueID.map { JSON.int(Int64(truncatingIfNeeded: $0)) } ?? .null),
            ("provider", .string(list.provider)),
            ("date", .string(ReportJSON.timestamp(list.date))),
            ("nextUpdate", JSON.nullable(list.nextUpdate.map(ReportJSON.timestamp))),
            ("importedAt", .string(ReportJSON.timestamp(list.importedAt))),
            ("anchorCount", .int(Int64(list.anchorCount))),
            ("sha256", .string(list.sha256)),
        ]
        return [
            ("inForce", .object(inForce)),
            ("ageSeconds", .double(time.timeIntervalSince(list.date).rounded())),
            ("nextUpdateMarginSeconds", list.nextUpdate.map { JSON.double($0.timeIntervalSince(time).rounded()) } ?? .null),
        ]
    }

    /// The last scheduled refresh, or null.
    static func lastRefresh(_ last: VICALRefresher.Outcome?) -> JSON {
        guard let last else { return .null }
        return .object([
            ("at", .string(ReportJSON.timestamp(last.at))),
            ("outcome", .string(last.outcome)),
            ("detail", JSON.nullable(last.detail)),
        ])
    }
}
