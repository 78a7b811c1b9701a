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

/// JWT VC Issuer Metadata end to end: every case of `TestVectors/sdjwt-metadata` through the library entry point, the
/// issuer metadata, key sets and status lists fetched through the real outbound fetcher from our loopback server.
/// A listed issuer's status list must be signed by a key of its metadata; an unlisted issuer is never fetched.
@Suite(.serialized) struct SDJWTVCIssuerMetadataLoopbackTests {
    /// The library entry point over the real outbound fetcher: the vectors' listing (none when `listed` is false), and
    /// the loopback server opened by the allowlist unless `allowLoopback` is false.
    static func verifier(listed: Bool = true, allowLoopback: Bool = true) -> StatusAwareSDJWTVCVerifier {
        let allowed = allowLoopback ? [AllowedDestination("127.0.0.1:\(StatusListServer.jwtPort)")!] : []
        let outbound = OutboundFetcher(policy: DestinationPolicy(allowed: allowed))
        let fetcher = StatusListFetcher(limits: StatusFetchLimits(timeout: 1, maximumBytes: 64 << 10, allowedSchemes: ["http"]),
                                        fetcher: outbound)
        return StatusAwareSDJWTVCVerifier(resolver: StatusResolver(cache: StatusListCache(fetcher: fetcher)),
                                          issuerKeys: listed ? JWTVCIssuerMetadataResolver.fetching(
                                              through: outbound, listed: SDJWTVCMetadataVectors.listed, timeout: 1) : nil,
                                          now: { SDJWTVCVectors.time })
    }

    @Test(arguments: SDJWTVCMetadataVectors.cases)
    func verdictAsTheManifestSays(_ testCase: SDJWTVCVectors.Case) async throws {
        let server = try StatusListServer.jwtLists()
        let result = await Self.verifier().verify(try testCase.presentation, options: try SDJWTVCVectors.options(testCase),
                                                  issuerTrust: try SDJWTVCVectors.trust())
        let unlistedFetches = server.fetches("/.well-known/jwt-vc-issuer/issuers/unlisted")
        await server.stop()
        guard let report = SDJWTVCMetadataVectors.expectVerdict(result, testCase) else { return }
        if testCase.name == "md-status-valid" {
            #expect(report.check(.status)?.status == .passed, "\(report.check(.status)?.detail ?? "")")
        }
        #expect(unlistedFetches == 0, "an unlisted issuer's metadata is never fetched")
    }

    /// Without a listing nothing is fetched: a credential with no `x5c` is refused, never resolved by its `iss`.
    @Test func withoutAListingMetadataIsNeverAFallback() async throws {
        let server = try StatusListServer.jwtLists()
        let testCase = try #require(SDJWTVCMetadataVectors.cases.first { $0.name == "md-valid" })
        let result = await Self.verifier(listed: false).verify(try testCase.presentation, options: try SDJWTVCVectors.options(testCase),
                                           issuerTrust: try SDJWTVCVectors.trust())
        let fetches = server.fetches("/.well-known/jwt-vc-issuer/issuers/pid")
        await server.stop()
        guard case .report(let report) = result else { Issue.record("no report"); return }
        #expect(report.check(.issuerSignature)?.code?.rawValue == "SDJWT_X5C_MISSING")
        #expect(fetches == 0)
    }

    /// The destination policy holds for metadata too: an issuer on loopback that the allowlist does not open is refused.
    @Test func theDestinationPolicyGuardsMetadataFetches() async throws {
        let server = try StatusListServer.jwtLists()
        let testCase = try #require(SDJWTVCMetadataVectors.cases.first { $0.name == "md-valid" })
        let result = await Self.verifier(allowLoopback: false).verify(try testCase.presentation, options: try SDJWTVCVectors.options(testCase),
                                           issuerTrust: try SDJWTVCVectors.trust())
        let fetches = server.fetches("/.well-known/jwt-vc-issuer/issuers/pid")
        await server.stop()
        guard case .report(let report) = result else { Issue.record("no report"); return }
        let signature = try #require(report.check(.issuerSignature))
        #expect(signature.code?.rawValue == "SDJWT_ISSUER_METADATA_UNAVAILABLE")
        #expect(signature.detail?.contains("http is refused") == true, "\(signature.detail ?? "")")
        #expect(fetches == 0)
    }
}
