import HTTPTypes
import Testing
@testable import HTTPServer

/// `HEAD` runs a `GET` route only where that route has no side effect: a route registered with `answersHead: false`
/// (one that takes a one-time record) answers `HEAD` with 405, and its `Allow` does not offer it.
struct HeadRuleTests {
    static func router() -> Router {
        var router = Router()
        router.get("/safe") { _ in .text("safe") }
        router.add(.get, "/takes/:id", answersHead: false) { _ in .text("taken") }
        router.add(.post, "/takes/:id") { _ in .text("posted") }
        return router
    }

    @Test func headFallsBackToASafeGet() {
        guard case .found(_, let pattern, _) = Self.router().match(method: .head, path: "/safe") else {
            Issue.record("HEAD /safe should run GET /safe")
            return
        }
        #expect(pattern == "/safe")
    }

    @Test func headNeverRunsAGetThatTakesARecord() {
        guard case .methodNotAllowed(let allowed) = Self.router().match(method: .head, path: "/takes/abc") else {
            Issue.record("HEAD /takes/abc must be 405")
            return
        }
        #expect(allowed == ["GET", "POST"])
        guard case .found(_, let pattern, _) = Self.router().match(method: .get, path: "/takes/abc") else {
            Issue.record("GET still runs")
            return
        }
        #expect(pattern == "/takes/:id")
    }

    @Test func aSafeGetOffersHead() {
        guard case .methodNotAllowed(let allowed) = Self.router().match(method: .delete, path: "/safe") else {
            Issue.record("DELETE /safe must be 405")
            return
        }
        #expect(allowed == ["GET", "HEAD"])
    }
}
