import Foundation
import SessionStore
import Testing
import TestSupport
import VerifierService

/// The demo page in headless Chromium (Debian's chromium and chromium-driver, installed by .ci/run), driven by
/// `scripts/browser/demo-page-check.py`: the button gets a request from verifierd (OpenID4VP and Annex C, the harness
/// allows the page's origin for both) and hands verifierd's `digital` object unchanged to the browser's own
/// `navigator.credentials.get`, whose prompt is then up (headless Chromium has no wallet, so it stays pending); the
/// answer of either TEST-ONLY wallet (Annex C, OpenID4VP), posted back by the page, shows as verified claims.
@Suite(.serialized)
struct DemoPageBrowserTests {
    static let steps = ["page", "prompt", "request", "screenshot", "answer", "answer-openid4vp", "tampered", "unsupported",
                        "browser-log"]

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
              Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        let number = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    @Test func theBrowserGetsAsFarAsItsOwnPrompt() async throws {
        let missing = ["/usr/bin/chromium", "/usr/bin/chromedriver"].filter { !FileManager.default.isExecutableFile(atPath: $0) }
        try #require(missing.isEmpty, "install chromium and chromium-driver (apt-get install -y chromium chromium-driver); missing: \(missing)")
        let harness = try DemoPageTests.harness()
        defer { Task { await harness.stop() } }
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-demo-\(UUID().uuidString.prefix(8))")
        let run = try ProcessRunner.run([
            "python3", "scripts/browser/demo-page-check.py", "--base-url", "http://127.0.0.1:\(harness.server.port)",
            "--screenshot-dir", shots.path, "--mode", "readerAuth", "--timeout", "30",
        ])
        var results: [String: [String: Any]] = [:]
        for line in run.output.split(separator: "\n") {
            if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let step = object["step"] as? String {
                results[step] = object
            }
        }
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        for step in Self.steps {
            #expect(results[step]?["ok"] as? Bool == true, "\(step): \(results[step] ?? [:])\n\(run.error)")
        }
        // The page got as far as the browser's prompt with verifierd's request, and that session is still open.
        let prompt = try #require(results["prompt"])
        #expect(prompt["called_with_exact_request"] as? Bool == true && prompt["settled"] is NSNull)
        #expect(prompt["protocols"] as? [String] == ["openid4vp-v1-signed", "org-iso-mdoc"], "both offered: \(prompt)")
        let id = try #require(prompt["session_id"] as? String)
        #expect(await harness.service.sessionStore.presence(id: id, kind: "dc-presentation", owner: "demo",
                                                            now: TestClock.date("2030-01-01T00:00:00Z")) == .open)
        // The screenshots: PNGs of the viewport, not blank.
        for (step, file) in [("screenshot", "demo-prompt.png"), ("answer", "demo-verified.png"),
                             ("answer-openid4vp", "demo-verified-openid4vp.png")] {
            let facts = (step == "screenshot" ? results[step] : results[step]?["screenshot"] as? [String: Any]) ?? [:]
            let data = try Data(contentsOf: shots.appendingPathComponent(file))
            let size = try #require(Self.pngSize(data), "\(file) is not a PNG")
            #expect([size.width, size.height] == facts["viewport"] as? [Int], "\(file): \(size) vs \(facts)")
            #expect(size.width >= 1000 && size.height >= 600, "\(file): \(size)")
            #expect((facts["colours"] as? Int ?? 0) > 16, "\(file) looks blank: \(facts)")
        }
        if run.status == 0 { try? FileManager.default.removeItem(at: shots) }
        await harness.stop()
    }
}
