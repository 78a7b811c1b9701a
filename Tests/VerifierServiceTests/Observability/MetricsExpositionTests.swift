import Foundation
import Testing
import TestSupport
@testable import ServiceObservability
@testable import VerifierService

/// `/metrics` as a scraper and an operator see it: every family has its `# HELP` line right before its `# TYPE`
/// line, every sample is a number under a declared family, and every family is in README's metrics table.
@Suite(.serialized)
struct MetricsExpositionTests {
    /// Metrics on which every recording method ran once: every family the service can expose, TLS and VICALs too.
    static func everyFamily() -> ServiceMetrics {
        let metrics = ServiceMetrics()
        metrics.httpRequest(route: "/healthz", method: "GET", status: 200, duration: .milliseconds(3))
        metrics.verification(endpoint: "mdoc", outcome: "verified", duration: .milliseconds(40))
        metrics.statusList(.fetched(host: "status.example", outcome: "ok"))
        metrics.statusList(.hit(host: "status.example", ageSeconds: 12))
        metrics.statusList(.servedStale(host: "status.example", ageSeconds: 400))
        metrics.statusList(.held(lists: 3, bytes: 4_096))
        metrics.sessionBytes(1_024)
        metrics.session(flow: "web", event: "created")
        metrics.integratorRequest(integrator: "shop", status: 201)
        metrics.readerToken(outcome: "minted")
        metrics.tlsCertificate(notAfter: Date(timeIntervalSinceNow: 30 * 86_400), now: Date())
        metrics.tlsReloadFailed()
        metrics.registrationCertificate(integrator: "shop", notAfter: Date(timeIntervalSinceNow: 86_400), now: Date())
        metrics.crl(.fetched(host: "127.0.0.1", outcome: "ok"))
        metrics.crl(.hit(host: "127.0.0.1"))
        metrics.loteInForce(source: "eu-pid", sequenceNumber: 3, ageSeconds: 60, nextUpdateMarginSeconds: 3_600, anchors: 2)
        metrics.loteRefresh(source: "eu-pid", outcome: "imported")
        metrics.crl(.servedStale(host: "127.0.0.1"))
        metrics.crl(.held(crls: 1, bytes: 512))
        metrics.trustAnchors(count: 2, secondsUntilSoonestExpiry: 1_000, directoryLoads: true)
        metrics.vicalInForce(source: "aamva", ageSeconds: 3_600, nextUpdateMarginSeconds: 7_200)
        metrics.vicalRefresh(source: "aamva", outcome: "imported")
        metrics.appleEnvelopeOpened(pkRHash: [UInt8](repeating: 0xab, count: 32))
        metrics.webhook(integrator: "shop", outcome: "delivered", latencySeconds: 0.8)
        metrics.webhookOutbox(pending: 1, oldestAgeSeconds: 2)
        return metrics
    }

    static func exposition(_ metrics: ServiceMetrics) throws -> PrometheusExposition {
        try PrometheusExposition(String(decoding: metrics.render(), as: UTF8.self))
    }

    /// What is wrong with an exposition: a `# TYPE` not right after a non-empty `# HELP` of the same family, a
    /// family twice, a family or type not in ``MetricFamily``, a sample under no family or not a number.
    static func problems(_ exposition: PrometheusExposition) -> [String] {
        var problems: [String] = []
        var seen: Set<String> = []
        for family in exposition.families {
            if (family.helpBeforeType ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
                problems.append("\(family.name): no # HELP right before # TYPE")
            }
            if !seen.insert(family.name).inserted { problems.append("\(family.name): declared twice") }
            if let known = MetricFamily(rawValue: family.name) {
                if known.type != family.type { problems.append("\(family.name): type \(family.type), table \(known.type)") }
            } else {
                problems.append("\(family.name): not in MetricFamily")
            }
        }
        for sample in exposition.samples {
            if exposition.family(of: sample) == nil { problems.append("\(sample.name): sample of no declared family") }
            if Double(sample.value) == nil { problems.append("\(sample.name): value \(sample.value) is not a number") }
        }
        return problems
    }

    /// Every family of the table comes out, once, with the table's help and type; no other family does.
    @Test func everyFamilyIsMadeWithTheHelpOfTheTable() throws {
        let exposition = try Self.exposition(Self.everyFamily())
        #expect(Self.problems(exposition) == [])
        #expect(Set(exposition.families.map(\.name)) == Set(MetricFamily.allCases.map(\.name)))
        for family in exposition.families {
            #expect(family.helpBeforeType == MetricFamily(rawValue: family.name)?.help, "\(family.name)")
        }
        for family in MetricFamily.allCases {
            #expect(!family.help.isEmpty && !family.help.contains("\\") && !family.help.contains("\n"), "\(family)")
        }
    }

    /// The check itself finds what it is for: a `# TYPE` without help, help of another family or empty help, an
    /// unknown family, a sample that is not a number.
    @Test func theCheckFindsAMissingHelpLine() throws {
        let bad = try PrometheusExposition("""
            # TYPE verifierd_trust_anchors gauge
            verifierd_trust_anchors 1
            # HELP verifierd_tls_reload_failures_total Reloads refused.
            # TYPE verifierd_trust_directory_loads gauge
            verifierd_trust_directory_loads 1
            # HELP process_open_fds\u{20}
            # TYPE process_open_fds gauge
            process_open_fds 12
            # HELP made_up_total Something.
            # TYPE made_up_total counter
            made_up_total many

            """)
        let problems = Self.problems(bad)
        #expect(problems.contains("verifierd_trust_anchors: no # HELP right before # TYPE"), "\(problems)")
        #expect(problems.contains("verifierd_trust_directory_loads: no # HELP right before # TYPE"), "\(problems)")
        #expect(problems.contains("process_open_fds: no # HELP right before # TYPE"), "\(problems)")
        #expect(problems.contains("made_up_total: not in MetricFamily"), "\(problems)")
        #expect(problems.contains("made_up_total: value many is not a number"), "\(problems)")
        #expect(problems.count == 5, "\(problems)")
    }

    /// A running service, after the routes that make families have been used, answers `/metrics` with every family
    /// helped and typed, the process metrics among them.
    @Test func aScrapedServiceHelpsEveryFamily() async throws {
        let harness = try ServiceHarness()
        defer { Task { await harness.stop() } }
        _ = try await Self.exerciseRoutes(harness)
        let response = try await harness.request("GET", "/metrics")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let exposition = try PrometheusExposition(response.text)
        #expect(Self.problems(exposition) == [], "\(response.text)")
        let names = Set(exposition.families.map(\.name))
        let expected: [MetricFamily] = [
            .httpRequests, .httpRequestDuration, .integratorRequests, .readerTokens, .trustAnchors,
            .trustAnchorSoonestExpiry, .trustDirectoryLoads, .processCPUSeconds, .processResidentMemory,
            .processVirtualMemory, .processOpenFDs, .processMaxFDs, .processStartTime,
        ]
        for family in expected { #expect(names.contains(family.name), "\(family.name) missing from \(names.sorted())") }
        await harness.stop()
    }

    /// Uses the routes whose metrics need no TLS, VICAL or status list: probes, an unknown path, a reader token,
    /// an integrator's (refused) verify.
    static func exerciseRoutes(_ harness: ServiceHarness) async throws -> [Int] {
        var statuses: [Int] = []
        for path in ["/healthz", "/readyz", "/nowhere"] { statuses.append(try await harness.request("GET", path).status) }
        statuses.append(try await harness.post("/v1/reader-tokens", json: ["readerInstanceIdentifier": "reader-1"],
                                               headers: ["Authorization": "Bearer \(ServiceHarness.clientToken)"]).status)
        statuses.append(try await harness.post("/v1/mdoc/verify", json: [:]).status)
        return statuses
    }

    /// The metrics table of docs/api/health-and-metrics.md: one row per family.
    static func readmeRows() throws -> [String: String] {
        let section = try Fixtures.documentation("docs/api/health-and-metrics.md")
        var rows: [String: String] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let name = line.dropFirst(3).prefix { $0 != "`" }
            rows[String(name)] = String(line)
        }
        return rows
    }

    /// Every family a scrape shows (a running service's, and one with every family made) has a README row naming
    /// its type and each of its labels; every row is a family the service has.
    @Test func everyScrapedFamilyIsDocumentedInREADME() async throws {
        let rows = try Self.readmeRows()
        let harness = try ServiceHarness()
        defer { Task { await harness.stop() } }
        _ = try await Self.exerciseRoutes(harness)
        let scraped = try PrometheusExposition(try await harness.request("GET", "/metrics").text)
        let complete = try Self.exposition(Self.everyFamily())
        for exposition in [scraped, complete] {
            for family in exposition.families {
                let row = rows[family.name] ?? ""
                #expect(row.contains("| \(family.type) |"), "README has no row with type \(family.type) for \(family.name)")
            }
            for sample in exposition.samples {
                guard let family = exposition.family(of: sample), let row = rows[family.name] else { continue }
                for label in sample.labels.keys where !(family.type == "histogram" && label == "le") {
                    #expect(row.contains("`\(label)`"), "README's row for \(family.name) does not name its label \(label)")
                }
            }
        }
        #expect(Set(rows.keys) == Set(MetricFamily.allCases.map(\.name)), "README rows \(rows.keys.sorted())")
        await harness.stop()
    }
}
