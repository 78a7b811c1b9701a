import Crypto
import HTTPServer

/// Recognises an integrator by its bearer token.
///
/// Every configured token is compared, each in constant time over its SHA-256 (so neither the position of the
/// matching token nor its length shows in the time taken). Without `integrators.requireToken`, a request with no
/// `Authorization` header counts as ``ServiceConfiguration/Integrators/anonymous``; a token that is presented must
/// still be a known one.
struct IntegratorAuthentication: Sendable {
    private let digests: [(name: String, digest: [UInt8])]
    let requireToken: Bool

    init(_ configuration: ServiceConfiguration.Integrators) {
        digests = configuration.tokens.sorted { $0.key < $1.key }.map { ($0.key, Array(SHA256.hash(data: Array($0.value.utf8)))) }
        requireToken = configuration.requireToken
    }

    /// How many integrators share each kind's session capacity (the anonymous caller counts as one).
    var integratorCount: Int { max(1, digests.count + (requireToken ? 0 : 1)) }

    /// The integrator of this request, or 401 `UNAUTHORIZED` with `WWW-Authenticate: Bearer`.
    func authenticate(_ request: HTTPServerRequest) throws(ServiceProblem) -> Integrator {
        guard let presented = VerifierService.bearerToken(request) else {
            if !requireToken && request.head.headerFields[.authorization] == nil {
                return Integrator(name: ServiceConfiguration.Integrators.anonymous)
            }
            throw Self.unauthorized(digests.isEmpty
                ? "this route needs an integrator bearer token, and none is configured (integrators.tokens)"
                : "this route needs an integrator bearer token (Authorization: Bearer …)")
        }
        guard let name = match(presented) else {
            throw Self.unauthorized("the bearer token is not an integrator's token")
        }
        return Integrator(name: name)
    }

    /// The name whose token is `presented`, comparing against every token whatever matches.
    private func match(_ presented: String) -> String? {
        let digest = Array(SHA256.hash(data: Array(presented.utf8)))
        var found: Int? = nil
        for (index, candidate) in digests.enumerated() {
            var difference: UInt8 = 0
            for i in 0..<digest.count { difference |= digest[i] ^ candidate.digest[i] }
            if difference == 0 { found = index }
        }
        return found.map { digests[$0].name }
    }

    static func unauthorized(_ detail: String) -> ServiceProblem {
        var problem = ServiceProblem(.unauthorized, "UNAUTHORIZED", detail)
        problem.headers[.wwwAuthenticate] = "Bearer"
        return problem
    }
}
