import Crypto
import Encodings
import Foundation
import HTTPServer
import HTTPTypes
import ReportEncoding
import StrictJSON
import TrustManagement
import TrustStore

/// The trusted-IACA directory for operations: list, add, replace, remove, reload, and the last changes. Admin group.
struct TrustAdminHandler: Sendable {
    let trust: LiveTrustSet
    let expiringWindowDays: Int
    let now: @Sendable () -> Date

    func listAnchors(_ request: HTTPServerRequest, by _: AdminActor) throws(ServiceProblem) -> HTTPServerResponse {
        anchorsResponse(trust.snapshot)
    }

    func anchorsResponse(_ snapshot: TrustSnapshot, status: HTTPResponse.Status = .ok) -> HTTPServerResponse {
        .json(.object([("version", .int(Int64(snapshot.version))), ("anchors", .array(snapshot.anchors.map(anchorJSON)))]),
              status: status)
    }

    /// POST: adds manual anchors (PEM/DER body, `?docType=a,b` to scope them; or a JSON body, see
    /// ``validatedAnchors(_:)``).
    func addAnchors(_ request: HTTPServerRequest, by actor: AdminActor) async throws(ServiceProblem) -> HTTPServerResponse {
        let anchors = try validatedAnchors(request)
        do {
            let snapshot = try await trust.add(anchors, actor: actor.description, requestID: request.requestID)
            let added = Set(anchors.map(\.sha256))
            let entries = snapshot.anchors.filter { added.contains($0.sha256) && $0.metadata.source == TrustAnchorMetadata.manualSource }
            return .json(.object([("version", .int(Int64(snapshot.version))), ("anchors", .array(entries.map(anchorJSON)))]),
                         status: .created)
        } catch {
            throw ServiceProblem(error)
        }
    }

    /// PUT: replaces the manual anchors (VICAL anchors stay); `?allowEmpty=true` to trust none.
    func replaceAnchors(_ request: HTTPServerRequest, by actor: AdminActor) async throws(ServiceProblem) -> HTTPServerResponse {
        let allowEmpty = request.query("allowEmpty") == "true"
        let anchors = try validatedAnchors(request, allowNone: allowEmpty)
        do {
            return anchorsResponse(try await trust.replaceManual(with: anchors, allowEmpty: allowEmpty, actor: actor.description,
                                                                requestID: request.requestID))
        } catch {
            throw ServiceProblem(error)
        }
    }

    /// DELETE: distrusts a certificate (every source); refused when it is the last one unless `?allowEmpty=true`.
    func removeAnchor(_ request: HTTPServerRequest, by actor: AdminActor) async throws(ServiceProblem) -> HTTPServerResponse {
        let fingerprint = request.pathParameters["sha256"] ?? ""
        do {
            _ = try await trust.remove(sha256: fingerprint, allowEmpty: request.query("allowEmpty") == "true",
                                      actor: actor.description, requestID: request.requestID)
            return HTTPServerResponse(status: .noContent)
        } catch {
            throw ServiceProblem(error)
        }
    }

    func reloadAnchors(_ request: HTTPServerRequest, by actor: AdminActor) async throws(ServiceProblem) -> HTTPServerResponse {
        do {
            return anchorsResponse(try await trust.reload(actor: actor.description, requestID: request.requestID))
        } catch {
            throw ServiceProblem(.unprocessableContent, error.code, "the directory holds an unusable set, which was not loaded: \(error)")
        }
    }

    /// The last trust changes, newest first (for the console; the log has them all).
    func trustChanges(_ request: HTTPServerRequest, by _: AdminActor) async throws(ServiceProblem) -> HTTPServerResponse {
        let recent: [TrustChange]
        do {
            recent = try await trust.recentChanges()
        } catch {
            switch error {
            case .storage(let reason): throw SessionGate.storeUnavailable(reason)
            }
        }
        let changes = recent.map { change -> JSON in
            .object([
                ("at", .string(ReportJSON.timestamp(change.at))), ("actor", .string(change.actor)),
                ("action", .string(change.action)), ("requestId", change.requestID.map { .string($0) } ?? .null),
                ("version", .int(Int64(change.version))), ("anchorCount", .int(Int64(change.anchorCount))),
                ("fingerprints", .array(change.fingerprints.map { .string($0) })),
            ])
        }
        return .json(.object([("changes", .array(changes))]))
    }

    /// A JSON body for POST and PUT
    /// `{"anchors": [{"certificate": "PEM or base64 DER", "docTypes": ["org.iso.18013.5.1.mDL"]}]}` (docTypes
    /// optional: any), or PEM/DER certificates scoped by `?docType=a,b`. Each is validated as an IACA.
    struct AnchorsBody: KnownFields {
        enum CodingKeys: String, CodingKey, CaseIterable { case anchors }
        struct Entry: KnownFields {
            let certificate: String
            let docTypes: [String]?

            enum CodingKeys: String, CodingKey, CaseIterable { case certificate, docTypes }

            init(from decoder: any Decoder) throws {
                try Self.refuseUnknownFields(decoder)
                let container = try decoder.container(keyedBy: CodingKeys.self)
                certificate = try container.decode(String.self, forKey: .certificate)
                docTypes = try container.decodeIfPresent([String].self, forKey: .docTypes)
            }
        }
        let anchors: [Entry]
    }

    func validatedAnchors(_ request: HTTPServerRequest, allowNone: Bool = false) throws(ServiceProblem) -> [TrustAnchor] {
        let allowExpired = request.query("allowExpired") == "true"
        var groups: [(certificates: [[UInt8]], docTypes: [String]?)] = []
        if request.head.headerFields[.contentType]?.lowercased().hasPrefix("application/json") == true {
            let body = try RequestDecoding.decode(AnchorsBody.self, from: request)
            for (index, entry) in body.anchors.enumerated() {
                let text = Array(entry.certificate.utf8)
                let isPEM = PEM.containsBlock(text)
                let der = isPEM ? text : try RequestDecoding.base64(entry.certificate, field: "anchors[\(index)].certificate")
                let scope = try Self.docTypeScope(entry.docTypes)
                do {
                    groups.append((try CertificateParsing.derCertificates(from: der, source: "anchors[\(index)]"), scope))
                } catch {
                    throw ServiceProblem(.badRequest, error.code, error.description)
                }
            }
        } else if !request.body.isEmpty {
            let scope = try Self.docTypeScope(request.query("docType").map { $0.split(separator: ",").map(String.init) })
            do {
                groups.append((try CertificateParsing.derCertificates(from: request.body), scope))
            } catch {
                throw ServiceProblem(.badRequest, error.code, error.description)
            }
        }
        if groups.allSatisfy({ $0.certificates.isEmpty }) {
            guard allowNone else { throw ServiceProblem(.invalid("no certificate in the request")) }
            return []
        }
        var anchors: [TrustAnchor] = []
        do throws(TrustChangeError) {
            for group in groups {
                anchors += try LiveTrustSet.validate(group.certificates, docTypes: group.docTypes,
                                                          allowExpired: allowExpired, now: now(),
                                                          allowExpiredHint: "add ?allowExpired=true")
            }
            try LiveTrustSet.requireDistinct(anchors)
        } catch {
            throw ServiceProblem(error)
        }
        return anchors
    }

    /// A docType scope from the request: nil for any; otherwise non-empty, trimmed names.
    static func docTypeScope(_ names: [String]?) throws(ServiceProblem) -> [String]? {
        guard let names else { return nil }
        let trimmed = names.map { $0.trimmingCharacters(in: .whitespaces) }
        guard !trimmed.isEmpty, trimmed.allSatisfy({ !$0.isEmpty && $0.count <= 256 }) else {
            throw ServiceProblem(.badRequest, "INVALID_DOC_TYPE", "docType must list one or more non-empty docTypes")
        }
        return trimmed
    }

    func anchorJSON(_ anchor: TrustAnchor) -> JSON {
        let time = now()
        let window = TimeInterval(expiringWindowDays) * 86_400
        let status = !anchor.isValid(at: time) ? "expired" : (anchor.notAfter.timeIntervalSince(time) <= window ? "expiring" : "valid")
        let days = (anchor.notAfter.timeIntervalSince(time) / 86_400 * 10).rounded() / 10
        let metadata = anchor.metadata
        let docTypes: JSON = metadata.docTypes.map { JSON.array($0.map { JSON.string($0) }) } ?? .null
        let issueID: JSON = metadata.vicalIssueID.map { JSON.int(Int64(truncatingIfNeeded: $0)) } ?? .null
        var members: [(String, JSON)] = [
            ("sha256", .string(anchor.sha256)),
            ("subject", .string(anchor.subject)),
            ("country", JSON.nullable(anchor.country)),
            ("subjectKeyIdentifier", JSON.nullable(anchor.subjectKeyIdentifier?.hexString)),
            ("notBefore", .string(ReportJSON.timestamp(anchor.notBefore))),
            ("notAfter", .string(ReportJSON.timestamp(anchor.notAfter))),
        ]
        members += [
            ("status", .string(status)),
            ("daysToExpiry", .double(days)),
            ("file", JSON.nullable(anchor.file)),
            ("source", .string(metadata.source)),
            ("docTypes", docTypes),
            ("issuingAuthority", JSON.nullable(metadata.issuingAuthority)),
            ("issuingCountry", JSON.nullable(metadata.issuingCountry)),
            ("stateOrProvince", JSON.nullable(metadata.stateOrProvince)),
            ("vicalIssueID", issueID),
        ]
        return .object(members)
    }
}
