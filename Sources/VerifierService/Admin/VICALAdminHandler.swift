import Foundation
import HTTPServer
import HTTPTypes
import ReportEncoding
import StrictJSON
import TrustLists
import TrustManagement
import TrustStore

/// VICAL sources for operations: import (or dry-run) a list by hand, and see each source's list in force. Admin group.
struct VICALAdminHandler: Sendable {
    let trust: LiveTrustSet
    /// The certificate each source's signer must chain to, by source name.
    let signers: [String: VICALSignerAnchor]
    let verifier: VICALVerifier
    let scheduled: [ServiceConfiguration.VICALSource]
    let refresher: VICALRefresher
    let clock: RequestClock

    /// `POST /v1/admin/vicals/{source}`: the body is the VICAL. It is verified against the source's signer anchor
    /// at the service clock (or `?at=`, only with `verification.allowVerificationTimeOverride`), checked against the
    /// list in force (no rollback), then replaces the source's anchors in one step; `?dryRun=true` answers the
    /// same diff and writes nothing.
    func importVICAL(_ request: HTTPServerRequest, by actor: AdminActor) async throws(ServiceProblem) -> HTTPServerResponse {
        let source = request.pathParameters["source"] ?? ""
        guard let anchor = signers[source] else {
            throw ServiceProblem(.badRequest, "VICAL_SOURCE_NOT_CONFIGURED",
                                 "no signer anchor is configured for source \"\(source)\" (trust.vicalSigners)")
        }
        let dryRun = request.query("dryRun") == "true"
        let time = try clock.verificationTime(request.query("at"))
        let verified: VerifiedVICAL
        do {
            verified = try verifier.verify(request.body, source: source, signerAnchor: anchor, at: time)
        } catch {
            throw ServiceProblem(.unprocessableContent, error.code.rawValue, error.detail)
        }
        let result: VICALImportResult
        do {
            result = try await trust.importVICAL(verified, dryRun: dryRun, now: clock.now(), actor: actor.description,
                                                 requestID: request.requestID)
        } catch {
            throw ServiceProblem(error)
        }
        return .json(Self.importJSON(result))
    }

    static func importJSON(_ result: VICALImportResult) -> JSON {
        func brief(_ anchors: [TrustAnchor]) -> JSON {
            .array(anchors.map { .object([("sha256", .string($0.sha256)), ("subject", .string($0.subject))]) })
        }
        let vical = result.verified.vical
        return .object([
            ("source", .string(result.verified.source)), ("dryRun", .bool(result.dryRun)),
            ("issueID", vical.issueID.map { .int(Int64(truncatingIfNeeded: $0)) } ?? .null),
            ("provider", .string(vical.provider)), ("date", .string(ReportJSON.timestamp(vical.date))),
            ("nextUpdate", vical.nextUpdate.map { .string(ReportJSON.timestamp($0)) } ?? .null),
            ("signer", .string(result.verified.signer)), ("sha256", .string(result.verified.sha256)),
            ("entries", .int(Int64(result.verified.entryCount))),
            ("added", brief(result.diff.added)), ("removed", brief(result.diff.removed)),
            ("unchanged", brief(result.diff.unchanged)),
            ("skipped", .array(result.verified.skipped.map {
                .object([("index", .int(Int64($0.index))), ("reason", .string($0.reason))])
            })),
            ("version", .int(Int64(result.version))),
        ])
    }

    /// `GET /v1/admin/vicals`: every source with a signer or a schedule, and the list in force for each.
    func listSources(_ request: HTTPServerRequest, by _: AdminActor) throws(ServiceProblem) -> HTTPServerResponse {
        let snapshot = trust.snapshot
        let time = clock.now()
        let vicalLists = snapshot.lists.keys.filter { !$0.hasPrefix(TrustAnchorMetadata.loteSourcePrefix) }
        let names = Set(signers.keys).union(scheduled.map(\.name)).union(vicalLists).sorted()
        let sources = names.map { sourceJSON($0, snapshot: snapshot, time: time) }
        return .json(.object([("sources", .array(sources))]))
    }

    func sourceJSON(_ name: String, snapshot: TrustSnapshot, time: Date) -> JSON {
        let scheduled = scheduled.first { $0.name == name }
        var members: [(String, JSON)] = [
            ("name", .string(name)),
            ("configured", .bool(signers[name] != nil)),
            ("url", JSON.nullable(scheduled?.url.absoluteString)),
            ("refreshHours", scheduled.map { JSON.double($0.refreshHours) } ?? .null),
            ("signerAnchor", JSON.nullable(signers[name]?.subject)),
        ]
        members += TrustListJSON.inForce(snapshot.lists[name], time: time)
        members.append(("lastRefresh", TrustListJSON.lastRefresh(refresher.lastOutcome(name))))
        return .object(members)
    }
}
