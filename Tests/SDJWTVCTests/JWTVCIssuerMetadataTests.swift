import Foundation
import SDJWTVC
import StrictJSON
import Synchronization
import TestSupport
import Testing

/// JWT VC Issuer Metadata (SD-JWT VC section 4) as a library, without I/O: the well-known URL, the document and key
/// set rules, the resolver's single flight and caching over an injected fetch that answers with the generated
/// vectors' files (`TestVectors/sdjwt-metadata`), and every non-status case's verdict. StatusListTests runs the same
/// cases through the real outbound fetcher over loopback.
@Suite struct JWTVCIssuerMetadataTests {
    // MARK: The well-known URL

    @Test(arguments: [
        ("https://issuer.example", "https://issuer.example/.well-known/jwt-vc-issuer"),
        ("https://issuer.example/", "https://issuer.example/.well-known/jwt-vc-issuer"),
        ("https://issuer.example/tenant/1234", "https://issuer.example/.well-known/jwt-vc-issuer/tenant/1234"),
        ("https://issuer.example:8443/t/", "https://issuer.example:8443/.well-known/jwt-vc-issuer/t"),
        ("http://127.0.0.1:18614/issuers/pid", "http://127.0.0.1:18614/.well-known/jwt-vc-issuer/issuers/pid"),
    ])
    func wellKnownURLInsertsThePathAfterTheHost(_ pair: (String, String)) {
        #expect(JWTVCIssuerMetadata.url(for: pair.0) == pair.1)
    }

    @Test(arguments: ["issuer.example", "ftp://issuer.example", "https://", "https://issuer.example?x=1",
                      "https://issuer.example#f", "https://user@issuer.example/", "urn:example:issuer"])
    func noURLForAnIssuerThatIsNotAnHTTPURL(_ iss: String) {
        #expect(JWTVCIssuerMetadata.url(for: iss) == nil)
    }

    // MARK: The document and key set rules

    static let iss = "https://issuer.example"
    static let key = #"{"kty":"EC","crv":"P-256","kid":"k1","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}"#

    static func document(_ text: String) -> Result<JWTVCIssuerMetadata.KeySource, JWTVCIssuerMetadata.Invalid> {
        Result { () throws(JWTVCIssuerMetadata.Invalid) in try JWTVCIssuerMetadata.document(Array(text.utf8), iss: iss, source: "test") }
    }

    @Test func aDocumentWithInlineKeysGivesThem() throws {
        guard case .success(.jwks(let keys)) = Self.document(#"{"issuer":"https://issuer.example","jwks":{"keys":[\#(Self.key)]}}"#) else {
            Issue.record("refused")
            return
        }
        #expect(keys.issuer == Self.iss)
        #expect(keys.keys.map(\.id) == ["k1"])
        #expect((try? keys.key(for: "k1").get()) != nil)
        #expect((try? keys.key(for: nil).get()) != nil, "the only key is meant when the JWS names none")
        #expect((try? keys.key(for: "k2").get()) == nil)
    }

    @Test func aDocumentWithJWKSURINamesIt() {
        guard case .success(.jwksURI(let uri)) = Self.document(#"{"issuer":"https://issuer.example","jwks_uri":"https://issuer.example/jwks"}"#) else {
            Issue.record("refused")
            return
        }
        #expect(uri == "https://issuer.example/jwks")
    }

    @Test(arguments: [
        (#"{"issuer":"https://issuer.example/","jwks":{"keys":[K]}}"#, "is not the credential's iss"),
        (#"{"jwks":{"keys":[K]}}"#, "no issuer"),
        (#"{"issuer":"https://issuer.example"}"#, "neither jwks nor jwks_uri"),
        (#"{"issuer":"https://issuer.example","jwks":{"keys":[K]},"jwks_uri":"https://issuer.example/j"}"#, "both"),
        (#"{"issuer":"https://issuer.example","jwks_uri":"file:///etc/passwd"}"#, "not an http(s) URL"),
        (#"{"issuer":"https://issuer.example","issuer":"https://issuer.example","jwks":{"keys":[K]}}"#, "not strict JSON"),
        (#"{"issuer":"https://issuer.example","jwks":{"keys":[]}}"#, "no EC P-256 signing key"),
        (#"{"issuer":"https://issuer.example","jwks":{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"}]}}"#, "no EC P-256 signing key"),
        (#"{"issuer":"https://issuer.example","jwks":{"keys":[K,K]}}"#, "two keys share kid"),
        (#"{"issuer":"https://issuer.example","jwks":{"keys":[{"kty":"EC","crv":"P-256","d":"AA","x":"AA","y":"AA"}]}}"#, "private member"),
        (#"{"issuer":"https://issuer.example","jwks":{"keys":[{"kty":"EC","crv":"P-256","kid":1,"x":"AA","y":"AA"}]}}"#, "kid is not a string"),
        (#"{"issuer":"https://issuer.example","jwks":{"keys":[{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}]}}"#, "malformed"),
        (#"["issuer"]"#, "not a JSON object"),
    ])
    func aDocumentBreakingARuleIsRefused(_ pair: (String, String)) {
        let text = pair.0.replacingOccurrences(of: "K", with: Self.key)
        guard case .failure(let invalid) = Self.document(text) else {
            Issue.record("accepted: \(pair.0)")
            return
        }
        #expect(invalid.detail.contains(pair.1), "\(invalid.detail)")
    }

    @Test func aKeyOfAnotherUseIsSkipped() {
        let encryption = Self.key.replacingOccurrences(of: #""kid":"k1""#, with: #""kid":"enc","use":"enc""#)
        guard case .success(.jwks(let keys)) = Self.document(#"{"issuer":"https://issuer.example","jwks":{"keys":[\#(encryption),\#(Self.key)]}}"#) else {
            Issue.record("refused")
            return
        }
        #expect(keys.keys.map(\.id) == ["k1"])
    }

    /// A key marked for another algorithm is not used for ES256.
    @Test func aKeyForAnotherAlgorithmIsSkipped() {
        let es384 = Self.key.replacingOccurrences(of: #""kid":"k1""#, with: #""kid":"k1","alg":"ES384""#)
        guard case .failure(let invalid) = Self.document(#"{"issuer":"https://issuer.example","jwks":{"keys":[\#(es384)]}}"#) else {
            Issue.record("accepted")
            return
        }
        #expect(invalid.detail.contains("no EC P-256 signing key"))
    }

    /// Section 3: metadata fetched over https may not send the key set fetch over plain http.
    @Test func anHTTPSIssuerMayNotNameAnHTTPKeySet() async {
        let iss = "https://issuer.example"
        let resolver = JWTVCIssuerMetadataResolver(listed: [SDJWTVCMetadataIssuer(iss: iss)]) { url in
            guard url == "https://issuer.example/.well-known/jwt-vc-issuer" else { return .failure(.init("unexpected fetch of \(url)")) }
            return .success(Array(#"{"issuer":"https://issuer.example","jwks_uri":"http://issuer.example/jwks"}"#.utf8))
        }
        guard case .invalid(let reason) = await resolver.keys(for: SDJWTVCMetadataIssuer(iss: iss), now: Date()) else {
            Issue.record("accepted")
            return
        }
        #expect(reason.contains("not https"))
    }

    /// Identical means byte for byte: an NFD spelling of an NFC issuer is another issuer.
    @Test func issuerEqualityIsByteForByte() {
        let nfc = "https://issu\u{00E9}r.example", nfd = "https://issue\u{0301}r.example"
        #expect(nfc == nfd, "Swift's == would take them as one")
        let text = #"{"issuer":"\#(nfd)","jwks":{"keys":[\#(Self.key)]}}"#
        #expect((try? JWTVCIssuerMetadata.document(Array(text.utf8), iss: nfc, source: "test")) == nil)
    }

    @Test func anOversizedDocumentIsRefusedUnread() {
        let padding = String(repeating: " ", count: JWTVCIssuerMetadata.maximumBytes)
        guard case .failure(let invalid) = Self.document(#"{"issuer":"https://issuer.example",\#(padding)"jwks":{"keys":[\#(Self.key)]}}"#) else {
            Issue.record("accepted")
            return
        }
        #expect(invalid.detail.contains("over"))
    }

    @Test func withoutKidSeveralKeysAreAmbiguous() {
        let second = Self.key.replacingOccurrences(of: #""kid":"k1""#, with: #""kid":"k2""#)
        guard case .success(.jwks(let keys)) = Self.document(#"{"issuer":"https://issuer.example","jwks":{"keys":[\#(Self.key),\#(second)]}}"#) else {
            Issue.record("refused")
            return
        }
        guard case .failure(let problem) = keys.key(for: nil) else { Issue.record("a key was chosen"); return }
        #expect(problem.detail.contains("no kid"))
    }

    // MARK: The resolver over the vectors' files

    /// Answers from the vectors' served files, as the loopback server does; counts fetches per URL.
    final class ServedFiles: Sendable {
        let files: [String: SDJWTVCMetadataVectors.ServedFile]
        let counts = Mutex<[String: Int]>([:])
        let failing = Mutex(false)

        init() throws {
            let base = SDJWTVCMetadataVectors.manifest?["baseURI"]?.string ?? ""
            files = Dictionary(uniqueKeysWithValues: try SDJWTVCMetadataVectors.servedFiles().map { (base + $0.path, $0) })
        }

        func fetch(_ url: String) -> Result<[UInt8], JWTVCIssuerMetadataResolver.FetchFailure> {
            counts.withLock { $0[url, default: 0] += 1 }
            if failing.withLock({ $0 }) { return .failure(.init("connection refused")) }
            guard let file = files[url] else { return .failure(.init("the server answered 404")) }
            guard file.status == 200 else { return .failure(.init("the server answered \(file.status)")) }
            return .success(file.bytes)
        }

        func count(_ url: String) -> Int { counts.withLock { $0[url] ?? 0 } }
    }

    static func resolver(_ served: ServedFiles, cacheSeconds: TimeInterval = 300) -> JWTVCIssuerMetadataResolver {
        JWTVCIssuerMetadataResolver(listed: SDJWTVCMetadataVectors.listed, cacheSeconds: cacheSeconds, failureSeconds: 10,
                                    staleGraceSeconds: 600) { served.fetch($0) }
    }

    static let cases = SDJWTVCMetadataVectors.cases.filter { $0.expect["check"]?.string != "sdjwt.status" && !$0.name.contains("status") }

    @Test func manifestHasTheCases() {
        #expect(SDJWTVCMetadataVectors.cases.count >= 16)
        #expect(Self.cases.count >= 12)
        #expect(SDJWTVCMetadataVectors.listed.count >= 8)
    }

    @Test(arguments: cases)
    func verdictAsTheManifestSays(_ testCase: SDJWTVCVectors.Case) async throws {
        let served = try ServedFiles()
        let resolver = Self.resolver(served)
        let verifier = SDJWTVCVerifier(trust: try SDJWTVCVectors.trust(), metadataIssuers: resolver.listed)
        let presentation = try testCase.presentation
        var lookup: SDJWTVCIssuerKeyLookup?
        if let listed = verifier.listedIssuer(of: presentation) {
            lookup = await resolver.keys(for: listed, now: SDJWTVCVectors.time)
        }
        let result = verifier.finish(verifier.prepare(presentation, options: try SDJWTVCVectors.options(testCase), issuerKeys: lookup),
                                     statusEvidence: nil)
        guard let report = SDJWTVCMetadataVectors.expectVerdict(result, testCase) else { return }
        if testCase.name == "md-x5c-control" {
            // The control: an unlisted iss with x5c verifies by its certificate chain.
            #expect(report.check(.issuerCertificateChain)?.status == .passed)
            #expect(report.issuer.keyID == nil && report.issuer.metadataSource == nil)
        } else if testCase.expect["verified"]?.bool == true {
            #expect(SDJWTVCVectors.sorted(try #require(report.claims)) == SDJWTVCVectors.json(try #require(testCase.expect["claims"])))
            #expect(report.issuer.metadataSource?.contains("/.well-known/jwt-vc-issuer/issuers/") == true)
            #expect(report.check(.issuerCertificateChain)?.status == .notApplicable)
        }
        if testCase.name == "md-not-listed" {
            #expect(served.counts.withLock { $0.isEmpty }, "an unlisted issuer's metadata is never fetched")
        }
    }

    /// Concurrent verifications of one issuer make one fetch; the keys are kept `cacheSeconds`, then fetched again.
    @Test func oneFetchPerIssuerWhileFresh() async throws {
        let served = try ServedFiles()
        let resolver = Self.resolver(served, cacheSeconds: 60)
        let pid = try #require(SDJWTVCMetadataVectors.listed.first { $0.iss.hasSuffix("/issuers/pid") })
        let url = try #require(JWTVCIssuerMetadata.url(for: pid.iss))
        let start = SDJWTVCVectors.time
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<16 { group.addTask { _ = await resolver.keys(for: pid, now: start) } }
        }
        #expect(served.count(url) == 1)
        _ = await resolver.keys(for: pid, now: start.addingTimeInterval(59))
        #expect(served.count(url) == 1)
        _ = await resolver.keys(for: pid, now: start.addingTimeInterval(61))
        #expect(served.count(url) == 2)
    }

    /// A failed refetch is remembered `failureSeconds`; the last good keys answer through the stale grace, no longer.
    @Test func aFailedRefetchServesTheLastGoodKeysWithinTheGrace() async throws {
        let served = try ServedFiles()
        let resolver = Self.resolver(served, cacheSeconds: 60)
        let pid = try #require(SDJWTVCMetadataVectors.listed.first { $0.iss.hasSuffix("/issuers/pid") })
        let url = try #require(JWTVCIssuerMetadata.url(for: pid.iss))
        let start = SDJWTVCVectors.time
        guard case .keys = await resolver.keys(for: pid, now: start) else { Issue.record("no keys"); return }
        served.failing.withLock { $0 = true }
        guard case .keys = await resolver.keys(for: pid, now: start.addingTimeInterval(120)) else { Issue.record("stale keys not served"); return }
        #expect(served.count(url) == 2)
        guard case .keys = await resolver.keys(for: pid, now: start.addingTimeInterval(125)) else {
            Issue.record("inside the failure window the last good keys still answer")
            return
        }
        #expect(served.count(url) == 2, "a failure is remembered failureSeconds")
        // Back up: a success replaces the remembered failure.
        served.failing.withLock { $0 = false }
        guard case .keys = await resolver.keys(for: pid, now: start.addingTimeInterval(131)) else { Issue.record("no keys"); return }
        #expect(served.count(url) == 3)
        served.failing.withLock { $0 = true }
        guard case .unavailable = await resolver.keys(for: pid, now: start.addingTimeInterval(131 + 60 + 600 + 1)) else {
            Issue.record("keys served past the stale grace")
            return
        }
    }

    /// The resolver never fetches for an issuer it was not given, whatever the caller asks.
    @Test func anUnlistedIssuerIsNeverFetched() async throws {
        let served = try ServedFiles()
        let lookup = await Self.resolver(served).keys(for: SDJWTVCMetadataIssuer(iss: "http://127.0.0.1:18614/issuers/unlisted"),
                                                      now: SDJWTVCVectors.time)
        guard case .unavailable = lookup else { Issue.record("looked up"); return }
        #expect(served.counts.withLock { $0.isEmpty })
    }
}
