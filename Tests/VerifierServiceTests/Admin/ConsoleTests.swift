import Foundation
import Testing
import TestSupport
import VerifierService

/// The operations console (`GET /admin`): served with a strict CSP, and driven end to end in headless Chromium
/// (Debian's chromium and chromium-driver, installed by .ci/run) by `scripts/browser/console-check.py`.
@Suite(.serialized)
struct ConsoleTests {
    static let aamva = Fixtures.sharedVectors.appendingPathComponent("vical/aamva-vical-2025-11-18.cbor")

    @Test func pageAndAssetsCarryAStrictContentSecurityPolicy() async throws {
        let harness = try VICALAdminTests.harness()
        defer { Task { await harness.stop() } }
        for (path, type) in [("/admin", "text/html"), ("/admin/console.js", "text/javascript"), ("/admin/console.css", "text/css")] {
            let answer = try await harness.request("GET", path)
            #expect(answer.status == 200, "\(path)")
            #expect(answer.headers["content-type"]?.hasPrefix(type) == true, "\(path)")
            let csp = try #require(answer.headers["content-security-policy"])
            #expect(csp.contains("default-src 'none'") && csp.contains("script-src 'self'") && !csp.contains("unsafe"))
            #expect(answer.headers["x-content-type-options"] == "nosniff")
        }
        let page = try await harness.request("GET", "/admin").text
        #expect(!page.contains("<script>") && !page.contains("style=") && !page.contains("onclick"), "no inline code")
        #expect(!page.contains(ServiceHarness.adminToken), "the page holds no secret")
        await harness.stop()
    }

    @Test func anOperatorImportsTheAAMVAListThroughThePage() async throws {
        guard Fixtures.sharedVectorsAvailable else { return }
        let driver = ["/usr/bin/chromium", "/usr/bin/chromedriver"].filter { !FileManager.default.isExecutableFile(atPath: $0) }
        try #require(driver.isEmpty, "install chromium and chromium-driver (apt-get install -y chromium chromium-driver); missing: \(driver)")
        let harness = try VICALAdminTests.harness()
        defer { Task { await harness.stop() } }
        let manual = try #require(harness.service.iacaTrust.snapshot.anchors.first?.sha256)
        let screenshot = Fixtures.repositoryRoot.appendingPathComponent(".build/console.png")
        let run = try ProcessRunner.run([
            "python3", "scripts/browser/console-check.py", "--base-url", "http://127.0.0.1:\(harness.server.port)",
            "--token", ServiceHarness.adminToken, "--vical", Self.aamva.path, "--source", "aamva",
            "--at", "2025-11-18T19:00:00Z", "--expect-anchor", manual, "--expect-added", "14",
            "--screenshot", screenshot.path, "--timeout", "30",
        ])
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        for step in ["page", "connect", "token-kept", "dry-run", "import", "screenshot", "wrong-token", "browser-log"] {
            #expect(run.output.contains("\"step\": \"\(step)\", \"ok\": true"), "\(step): \(run.output)")
        }
        #expect(harness.service.iacaTrust.snapshot.anchors.filter { $0.metadata.source == "vical:aamva" }.count == 14)
        #expect(FileManager.default.fileExists(atPath: screenshot.path))
        await harness.stop()
    }
}
