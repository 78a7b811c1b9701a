import Foundation
import HTTPServer
import HTTPTypes
import ReportEncoding
import StrictJSON
import TrustLists
import TrustManagement
import TrustStore

/// Lists of trusted entities for operations: import (or dry-run) a list by hand, and see each source's list in
/// force with what it grants. Admin group.
struct LoTEAdminHandler: Sendable {
    let sources: [LoTESource]
    let importer: LoTEImporter
    let refresher: VICALRefresher
    let clock: RequestClock

    /// `POST /v1/admin/lotes/{source}`: the body is the list (the compact JWS). It is verified as the source's kind
    /// under its signer anchors at the service clock (or `?at=`, only with `verification.allowVerificationTimeOverride`),
    /// checked against the list in force (the sequence number never goes back), then replaces the source's anchors in
    /// every set it feeds; `?dryRun=true` answers the same diff and writes nothing. The signer's CRL is checked as
    /// for a scheduled refresh: under `crl.mode` warn an undetermined outcome is in `warnings`.
    func importList(_ request: HTTPServerRequest, by actor: AdminActor) async throws(ServiceProblem) -> HTTPServerResponse {
        let name = request.pathParameters["source"] ?? ""
        guard let source = sources.first(where: { $0.name == name }) else {
            throw ServiceProblem(.badRequest, "LOTE_SOURCE_NOT_CONFIGURED", "no list source \"\(name.prefix(64))\" is configured (trust.loteSources)")
        }
        let dryRun = request.query("dryRun") == "true"
        let time = try clock.verificationTime(request.query("at"))
        let verified: VerifiedLoTE, warning: String?
        do {
            (verified, warning) = try await importer.verifyAndCheckSigner(request.body, source: source, at: time)
        } catch {
            throw ServiceProblem(.unprocessableContent, error.code, error.detail)
        }
        let results: [LoTEImportResult]
        do {
            results = try await importer.importVerified(verified, source: source, dryRun: dryRun, at: clock.now(),
                                                        actor: actor.description, requestID: request.requestID)
        } catch {
            throw ServiceProblem(error)
        }
        return .json(Self.importJSON(verified, results: results, dryRun: dryRun, warnings: warning.map { [$0] } ?? []))
    }

    /// The import report; `warnings` holds what did not refuse the list (the signer's undetermined CRL under
    /// `crl.mode` warn).
    static func importJSON(_ verified: VerifiedLoTE, results: [LoTEImportResult], dryRun: Bool, warnings: [String] = []) -> JSON {
        func brief(_ anchors: [TrustAnchor]) -> JSON {
            .array(anchors.map { .object([("sha256", .string($0.sha256)), ("subject", .string($0.subject))]) })
        }
        return .object([
            ("source", .string(verified.source)), ("kind", .string(verified.kind.rawValue)), ("dryRun", .bool(dryRun)),
            ("sequenceNumber", .int(Int64(truncatingIfNeeded: verified.sequenceNumber))),
            ("operator", .string(verified.operatorName)), ("issued", .string(ReportJSON.timestamp(verified.issued))),
            ("nextUpdate", .string(ReportJSON.timestamp(verified.nextUpdate))),
            ("signer", .string(verified.signer)), ("sha256", .string(verified.sha256)),
            ("grants", .array(verified.grants.map { grant in
                .object([
                    ("entity", .string(grant.entityName)), ("country", JSON.nullable(grant.country)),
                    ("serviceType", .string(grant.serviceType)), ("purpose", .string(grant.purpose.rawValue)),
                    ("grantsTrust", .bool(grant.grantsTrust)), ("sha256", .string(grant.sha256)),
                ])
            })),
            ("skipped", .array(verified.skipped.map { .object([("index", .string($0.index)), ("reason", .string($0.reason))]) })),
            ("warnings", .array(warnings.map { .string($0) })),
            ("trustSets", .array(results.map { result in
                .object([
                    ("trustSet", .string(result.trustSet)),
                    ("added", brief(result.diff.added)), ("removed", brief(result.diff.removed)),
                    ("unchanged", brief(result.diff.unchanged)), ("version", .int(Int64(result.version))),
                ])
            })),
        ])
    }

    /// `GET /v1/admin/lotes`: every configured list source, its scope, the list in force and the last refresh.
    func listSources(_ request: HTTPServerRequest, by _: AdminActor) throws(ServiceProblem) -> HTTPServerResponse {
        let time = clock.now()
        return .json(.object([("sources", .array(sources.map { sourceJSON($0, time: time) }))]))
    }

    func sourceJSON(_ source: LoTESource, time: Date) -> JSON {
        var members: [(String, JSON)] = [
            ("name", .string(source.name)), ("kind", .string(source.kind.rawValue)),
            ("url", .string(source.url.absoluteString)), ("refreshHours", .double(source.refreshHours)),
            ("signerAnchors", .array(source.signerAnchors.map { .string($0.subject.description) })),
            ("docTypes", source.scope.iacaDocTypes.map { .array($0.map { .string($0) }) } ?? .null),
            ("vcts", source.scope.sdJwtVcTypes.map { .array($0.map { .string($0) }) } ?? .null),
            ("providers", source.scope.providers.map { .string($0.setName) } ?? .null),
            ("staleGraceSeconds", .double(source.staleGraceSeconds)), ("onStale", .string(source.onStale.rawValue)),
        ]
        let record = importer.inForce(source)
        members += TrustListJSON.inForce(record, time: time)
        members.append(("stale", .bool(record?.nextUpdate.map { time >= $0 } ?? false)))
        members.append(("lastRefresh", TrustListJSON.lastRefresh(refresher.lastOutcome(source.trustSource))))
        return .object(members)
    }
}
