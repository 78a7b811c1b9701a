import Crypto
import Foundation
import HTTPServer
import HTTPTypes
import TrustStore

/// The trusted-IACA directory for operations: list, add, replace, remove, reload. Bearer admin token required.
extension VerifierService {
    /// Checks the admin token in constant time and returns the caller's identity for the audit log
    /// (a short hash of the token, never the token).
    func authorizeAdmin(_ request: HTTPServerRequest) throws(ServiceProblem) -> String {
        guard let expected = configuration.admin.token else {
            throw ServiceProblem(.notFound, "NOT_FOUND", "no route for \(request.path)")
        }
        guard let presented = Self.bearerToken(request), ConstantTime.equals(presented, expected) else {
            var problem = ServiceProblem(.unauthorized, "UNAUTHORIZED", "a valid admin bearer token is required")
            problem.headers[.wwwAuthenticate] = "Bearer"
            throw problem
        }
        // With client certificates in force the certificate names the operator; the token alone names no one.
        if let certificate = request.clientCertificate, certificate.chainsToClientCA {
            return "client-certificate:" + certificate.subject
        }
        return "admin-token:" + SHA256.hash(data: Array(expected.utf8)).prefix(4).hexString
    }

    static func bearerToken(_ request: HTTPServerRequest) -> String? {
        guard let value = request.head.headerFields[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }

    func listAnchors(_ request: HTTPServerRequest) throws(ServiceProblem) -> HTTPServerResponse {
        _ = try authorizeAdmin(request)
        let snapshot = trustStore.snapshot
        return .json(.object([("version", .int(Int64(snapshot.version))), ("anchors", .array(snapshot.anchors.map(anchorJSON)))]))
    }

    func addAnchors(_ request: HTTPServerRequest) throws(ServiceProblem) -> HTTPServerResponse {
        let actor = try authorizeAdmin(request)
        let anchors = try validatedAnchors(request)
        do {
            let snapshot = try trustStore.add(anchors, actor: actor)
            return .json(.object([("version", .int(Int64(snapshot.version))), ("anchors", .array(anchors.map(anchorJSON)))]),
                         status: .created)
        } catch {
            throw Self.problem(error)
        }
    }

    func replaceAnchors(_ request: HTTPServerRequest) throws(ServiceProblem) -> HTTPServerResponse {
        let actor = try authorizeAdmin(request)
        let anchors = try validatedAnchors(request)
        do {
            let snapshot = try trustStore.replace(with: anchors, actor: actor)
            return .json(.object([("version", .int(Int64(snapshot.version))), ("anchors", .array(snapshot.anchors.map(anchorJSON)))]))
        } catch {
            throw Self.problem(error)
        }
    }

    func removeAnchor(_ request: HTTPServerRequest) throws(ServiceProblem) -> HTTPServerResponse {
        let actor = try authorizeAdmin(request)
        let fingerprint = request.pathParameters["sha256"] ?? ""
        do {
            _ = try trustStore.remove(sha256: fingerprint, actor: actor)
            return HTTPServerResponse(status: .noContent)
        } catch {
            throw Self.problem(error)
        }
    }

    func reloadAnchors(_ request: HTTPServerRequest) throws(ServiceProblem) -> HTTPServerResponse {
        let actor = try authorizeAdmin(request)
        do {
            let snapshot = try trustStore.reload(actor: actor)
            return .json(.object([("version", .int(Int64(snapshot.version))), ("anchors", .array(snapshot.anchors.map(anchorJSON)))]))
        } catch {
            throw ServiceProblem(.unprocessableContent, error.code, "the directory holds an unusable set, which was not loaded: \(error)")
        }
    }

    /// Reads PEM (one or more certificates) or DER from the body and validates each as an IACA.
    func validatedAnchors(_ request: HTTPServerRequest) throws(ServiceProblem) -> [TrustAnchor] {
        let certificates: [[UInt8]]
        do {
            certificates = try CertificateParsing.derCertificates(from: request.body)
        } catch {
            throw ServiceProblem(.badRequest, error.code, error.description)
        }
        let allowExpired = request.query("allowExpired") == "true"
        do {
            return try TrustStoreManager.validate(certificates, allowExpired: allowExpired, now: now())
        } catch {
            throw Self.problem(error)
        }
    }

    static func problem(_ error: TrustChangeError) -> ServiceProblem {
        switch error {
        case .invalid(let reason): return ServiceProblem(.badRequest, "INVALID_IACA", reason)
        case .alreadyPresent: return ServiceProblem(.conflict, "IACA_ALREADY_TRUSTED", error.description)
        case .notFound: return ServiceProblem(.notFound, "IACA_NOT_FOUND", error.description)
        case .storage: return ServiceProblem(.internalServerError, "TRUST_STORAGE_FAILED", error.description)
        }
    }

    func anchorJSON(_ anchor: TrustAnchor) -> JSON {
        let time = now()
        let window = TimeInterval(configuration.trust.expiringWindowDays) * 86_400
        let status = !anchor.isValid(at: time) ? "expired" : (anchor.notAfter.timeIntervalSince(time) <= window ? "expiring" : "valid")
        return .object([
            ("sha256", .string(anchor.sha256)),
            ("subject", .string(anchor.subject)),
            ("country", anchor.country.map { .string($0) }),
            ("subjectKeyIdentifier", anchor.subjectKeyIdentifier.map { .string($0.hexString) }),
            ("notBefore", .string(ReportJSON.timestamp(anchor.notBefore))),
            ("notAfter", .string(ReportJSON.timestamp(anchor.notAfter))),
            ("status", .string(status)),
            ("file", anchor.source.map { .string($0) }),
        ])
    }
}
