import Synchronization
import Testing
@testable import ServiceObservability

/// The metric families come from one table with their type and help, and what the service reports shows in the
/// exposition.
struct MetricsTableTests {
    @Test func everyFamilyHasATypeAndOneLineOfHelp() {
        for family in MetricFamily.allCases {
            #expect(["counter", "gauge", "histogram"].contains(family.type), "\(family.name)")
            #expect(!family.help.isEmpty && !family.help.contains("\n") && !family.help.contains("\\"), "\(family.name)")
        }
    }

    @Test func reportedFiguresShowInTheExposition() {
        let metrics = ServiceMetrics()
        metrics.statusList(.held(lists: 3, bytes: 4_096))
        metrics.sessionBytes(1_024)
        metrics.session(flow: "oid4vp-cross-device", event: "created")
        let text = String(decoding: metrics.render(), as: UTF8.self)
        #expect(text.contains("verifierd_status_list_cache_bytes 4096"), "\(text.prefix(2000))")
        #expect(text.contains("verifierd_status_list_cache_lists 3"))
        #expect(text.contains("verifierd_session_bytes 1024"))
        #expect(text.contains(#"verifierd_sessions_total{flow="oid4vp-cross-device",event="created"} 1"#))
    }

    @Test func logLinesAreOneJSONObjectEach() {
        let lines = Mutex<[String]>([])
        let output = LogOutput { line in lines.withLock { $0.append(line) } }
        output.logger(label: "test").notice("hello", metadata: ["key": "value"])
        let line = lines.withLock { $0.first } ?? ""
        #expect(line.hasPrefix("{") && line.contains(#""message":"hello""#) && line.contains(#""key":"value""#), "\(line)")
    }
}
