import Foundation
import MDoc
import OutboundFetch
import SDJWTVC
import StatusList
import TestSupport
import Testing
import TrustStore

/// SD-JWT VC revocation end to end: the generated credentials name JWT status lists (`TestVectors/sdjwt/lists`)
/// served over loopback by our own server; each is fetched through the outbound fetcher, verified against the SD-JWT
/// VC issuer trust set and judged by `sdjwt.status`. Unknown is never revoked.
@Suite(.serialized) struct SDJWTVCStatusTests {
    static let cases = SDJWTVCVectors.cases.filter { $0.expect["check"]?.string == "sdjwt.status" || $0.name == "valid-status" }

    static func verifier(timeout: TimeInterval = 1) -> StatusAwareSDJWTVCVerifier {
        let outbound = OutboundFetcher(policy: DestinationPolicy(allowed: [AllowedDestination("127.0.0.1:\(StatusListServer.jwtPort)")!]))
        let fetcher = StatusListFetcher(limits: StatusFetchLimits(timeout: timeout, maximumBytes: 64 << 10, allowedSchemes: ["http"]),
                                        fetcher: outbound)
        return StatusAwareSDJWTVCVerifier(resolver: StatusResolver(cache: StatusListCache(fetcher: fetcher)),
                                          now: { SDJWTVCVectors.time })
    }

    @Test func everyListCaseIsHere() {
        #expect(Self.cases.count >= 10)
    }

    @Test(arguments: cases)
    func statusAsTheManifestSays(_ testCase: SDJWTVCVectors.Case) async throws {
        let server = try StatusListServer.jwtLists()
        let result = await Self.verifier().verify(try testCase.presentation, options: try SDJWTVCVectors.options(testCase),
                                                  issuerTrust: try SDJWTVCVectors.trust())
        await server.stop()
        guard case .report(let report) = result else { Issue.record("\(testCase.name) failed as a whole"); return }
        let status = try #require(report.check(.status))
        #expect(report.verified == (testCase.expect["verified"]?.bool ?? false), "\(testCase.name): \(status)")
        if let code = testCase.expect["code"]?.string {
            #expect(status.status == .failed)
            #expect(status.code?.rawValue == code, "\(testCase.name): \(status.detail ?? "")")
        } else {
            #expect(status.status == .passed, "\(testCase.name): \(status.detail ?? "")")
        }
    }

    /// A list that cannot be fetched is unknown, never revoked; under `status.unknown: warn` the credential verifies
    /// with a warning.
    @Test func anUnreachableListIsUnknownNeverRevoked() async throws {
        let testCase = try #require(SDJWTVCVectors.cases.first { $0.name == "status-revoked" })
        // No server runs: the fetch fails.
        var options = try SDJWTVCVectors.options(testCase)
        let result = await Self.verifier(timeout: 0.5).verify(try testCase.presentation, options: options, issuerTrust: try SDJWTVCVectors.trust())
        guard case .report(let report) = result else { Issue.record("no report"); return }
        #expect(report.check(.status)?.code?.rawValue == "STATUS_UNKNOWN")
        #expect(report.check(.status)?.status == .failed)
        options.statusPolicy = StatusPolicy(mode: .enforce, unknown: .warn)
        let lenient = await Self.verifier(timeout: 0.5).verify(try testCase.presentation, options: options, issuerTrust: try SDJWTVCVectors.trust())
        guard case .report(let warned) = lenient else { Issue.record("no report"); return }
        #expect(warned.check(.status)?.status == .warning)
        #expect(warned.verified)
    }
}
