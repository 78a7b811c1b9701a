import Foundation
import HTTPServer
import ReportEncoding
import StatusList
import StrictJSON

/// The kept CRLs, for operations. Admin group.
struct CRLAdminHandler: Sendable {
    let cache: CRLCache
    let now: @Sendable () -> Date

    /// `GET /v1/admin/crl-cache`: each kept CRL by distribution point, its issuer, dates, entries and size.
    func crlCache(_ request: HTTPServerRequest, by _: AdminActor) async throws(ServiceProblem) -> HTTPServerResponse {
        let entries = await cache.snapshot()
        let time = now()
        let crls: [JSON] = entries.map { entry in
            .object([
                ("url", .string(entry.url)),
                ("issuer", .string(entry.crl.issuer.description)),
                ("thisUpdate", .string(ReportJSON.timestamp(entry.crl.thisUpdate))),
                ("nextUpdate", JSON.nullable(entry.crl.nextUpdate.map(ReportJSON.timestamp))),
                ("revokedEntries", .int(Int64(entry.crl.entries.count))),
                ("bytes", .int(Int64(entry.crl.byteCount))),
                ("fetchedAt", .string(ReportJSON.timestamp(entry.fetchedAt))),
                ("ageSeconds", .int(Int64(time.timeIntervalSince(entry.fetchedAt)))),
                ("freshUntil", .string(ReportJSON.timestamp(entry.freshUntil))),
            ])
        }
        return .json(.object([("crls", .array(crls))]))
    }
}
