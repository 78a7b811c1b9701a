import Encodings
import HTTPServer

/// Recognises an integrator by its bearer token.
///
/// Every configured token is compared (``ConstantTime``, over digests taken once here), so neither the position of the
/// matching token nor its length shows in the time taken. Without `integrators.requireToken`, a request with no
/// `Authorization` header counts as ``ServiceConfiguration/Integrators/anonymous``; a token that is presented must
/// still be a known one.
struct IntegratorAuthentication: Sendable {
    private let names: [String]
    private let digests: [[UInt8]]
    let requireToken: Bool

    init(_ configuration: ServiceConfiguration.Integrators) {
        let tokens = configuration.tokens.sorted { $0.key < $1.key }
        names = tokens.map(\.key)
        digests = tokens.map { ConstantTime.digest($0.value) }
        requireToken = configuration.requireToken
    }

    /// How many integrators share each kind's session capacity (the anonymous caller counts as one).
    var integratorCount: Int { max(1, names.count + (requireToken ? 0 : 1)) }

    /// The integrator of this request, or 401 `UNAUTHORIZED` with `WWW-Authenticate: Bearer`.
    func authenticate(_ request: HTTPServerRequest) throws(ServiceProblem) -> Integrator {
        guard let presented = request.bearerToken else {
            if !requireToken && request.head.headerFields[.authorization] == nil {
                return Integrator(name: ServiceConfiguration.Integrators.anonymous)
            }
            throw .unauthorized(names.isEmpty
                ? "this route needs an integrator bearer token, and none is configured (integrators.tokens)"
                : "this route needs an integrator bearer token (Authorization: Bearer …)")
        }
        guard let position = ConstantTime.index(of: presented, among: digests) else {
            throw .unauthorized("the bearer token is not an integrator's token")
        }
        return Integrator(name: names[position])
    }
}
