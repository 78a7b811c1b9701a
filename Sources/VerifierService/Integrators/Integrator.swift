/// A caller of the create and verify routes (a website's backend, an app backend, a reader), as its bearer token
/// names it. The name is not secret: it appears in access logs and metrics, and owns the sessions it creates.
struct Integrator: Sendable, Equatable {
    let name: String
}
