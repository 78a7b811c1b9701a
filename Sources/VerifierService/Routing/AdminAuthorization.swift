import Crypto
import Encodings
import HTTPServer

/// Who made an admin change, for the audit log: the client certificate's subject when one chains to the client CA,
/// else a short hash of the admin token (never the token).
struct AdminActor: Sendable, CustomStringConvertible {
    let description: String
}

/// The admin bearer token, compared in constant time.
struct AdminAuthorization: Sendable {
    let token: String?

    /// The caller's identity, or 401 `UNAUTHORIZED`; without a configured token the admin routes do not exist (404).
    func authorize(_ request: HTTPServerRequest) throws(ServiceProblem) -> AdminActor {
        guard let token else {
            throw ServiceProblem(.notFound, "NOT_FOUND", "no route for \(request.path)")
        }
        guard let presented = request.bearerToken, ConstantTime.equals(presented, token) else {
            throw .unauthorized("a valid admin bearer token is required")
        }
        // With client certificates in force the certificate names the operator; the token alone names no one.
        if let certificate = request.clientCertificate, certificate.chainsToClientCA {
            return AdminActor(description: "client-certificate:" + certificate.subject)
        }
        return AdminActor(description: "admin-token:" + SHA256.hash(data: Array(token.utf8)).prefix(4).hexString)
    }
}
