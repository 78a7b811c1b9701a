import HTTPServer
import HTTPTypes
import Testing

extension HTTPServerTests {
    @Suite struct Units {
        @Test func routerListsRoutesAndMatchesParameters() {
            let router = testRouter()
            let listed = router.routes.map(\.description)
            #expect(listed.contains("GET /items/:id"))
            #expect(listed.contains("PUT /items/:id"))
            #expect(listed.contains("POST /echo"))
            #expect(listed.count == 9)
        }

        @Test func problemJSONIsEscaped() {
            let p = HTTPProblem(title: "T", status: 400, detail: "quote \" backslash \\ newline \n ctl \u{1}", code: "X")
            let text = String(decoding: p.jsonBytes, as: UTF8.self)
            #expect(text == #"{"type":"about:blank","title":"T","status":400,"detail":"quote \" backslash \\ newline \n ctl \u0001","code":"X"}"#)
        }

        @Test func errorKindsHaveStableCodesAndStatuses() {
            #expect(HTTPServerErrorKind.malformedRequest.status.code == 400)
            #expect(HTTPServerErrorKind.notFound.status.code == 404)
            #expect(HTTPServerErrorKind.methodNotAllowed.status.code == 405)
            #expect(HTTPServerErrorKind.requestTimeout.status.code == 408)
            #expect(HTTPServerErrorKind.payloadTooLarge.status.code == 413)
            #expect(HTTPServerErrorKind.uriTooLong.status.code == 414)
            #expect(HTTPServerErrorKind.headersTooLarge.status.code == 431)
            #expect(HTTPServerErrorKind.serviceUnavailable.status.code == 503)
            let p = HTTPServerErrorKind.uriTooLong.problem(detail: "d", typeBase: "https://example.invalid/problems/")
            #expect(p.type == "https://example.invalid/problems/uri-too-long")
            #expect(p.code == "URI_TOO_LONG")
        }

        @Test func responseConveniences() {
            let t = HTTPServerResponse.text("hi", status: .created)
            #expect(t.head.status == .created)
            #expect(t.head.headerFields[.contentType] == "text/plain; charset=utf-8")
            let j = HTTPServerResponse.json(Array("{}".utf8))
            #expect(j.head.headerFields[.contentType] == "application/json")
            let p = HTTPServerResponse.problem(HTTPServerErrorKind.notFound.problem(detail: "x"))
            #expect(p.head.status.code == 404)
            #expect(p.head.headerFields[.contentType] == "application/problem+json")
        }
    }
}
