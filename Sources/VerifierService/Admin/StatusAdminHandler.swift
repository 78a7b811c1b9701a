import Foundation
import HTTPServer
import MDoc
import ReportEncoding
import StatusList
import StrictJSON

/// `GET /v1/admin/status-cache`: the cached status lists, their age and freshness. Admin group.
struct StatusAdminHandler: Sendable {
    let statusResolver: StatusResolver
    let now: @Sendable () -> Date

    func statusCache(_ request: HTTPServerRequest, by _: AdminActor) async throws(ServiceProblem) -> HTTPServerResponse {
        let entries = await statusResolver.cache.snapshot()
        let now = now()
        let lists: [JSON] = entries.map { entry in
            let kind: String
            let size: Int
            switch entry.list.content {
            case .statusList(let bits, let statuses):
                kind = "statusList"
                size = statuses.count * 8 / bits
            case .identifierList(let identifiers):
                kind = "identifierList"
                size = identifiers.count
            }
            let trust: JSON
            switch entry.list.signerTrust {
            case .anchor(let sha256): trust = .string(sha256)
            case .msoCertificate: trust = .string("msoCertificate")
            case .issuerKey(let issuer): trust = .string("issuerMetadata \(issuer)")
            case .none: trust = .null
            }
            return .object([
                ("uri", .string(entry.key.uri)),
                ("kind", .string(kind)),
                ("entries", .int(Int64(size))),
                ("fetchedAt", .string(ReportJSON.timestamp(entry.fetchedAt))),
                ("ageSeconds", .int(Int64(now.timeIntervalSince(entry.fetchedAt)))),
                ("freshUntil", .string(ReportJSON.timestamp(entry.freshUntil))),
                ("issuedAt", .string(ReportJSON.timestamp(entry.list.issuedAt))),
                ("expiresAt", entry.list.expiresAt.map { .string(ReportJSON.timestamp($0)) }),
                ("signerIaca", trust),
            ])
        }
        return .json(.object([("lists", .array(lists))]))
    }
}
