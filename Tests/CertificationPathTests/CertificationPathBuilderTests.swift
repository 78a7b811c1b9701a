import CertificationPath
import Crypto
import Foundation
import Testing
import TestSupport
import X509

/// The one path builder and each rule, positive and negative, on the generated test PKI (TestVectors/pki, made
/// with Python `cryptography`).
struct CertificationPathBuilderTests {
    static func certificate(_ name: String) throws -> Certificate {
        let text = try String(contentsOf: Fixtures.testVectors.appendingPathComponent("pki/\(name).pem"), encoding: .utf8)
        return try Certificate(pemEncoded: text)
    }

    static let inside = ISO8601DateFormatter().date(from: "2030-01-01T00:00:00Z")!
    static let outside = ISO8601DateFormatter().date(from: "2080-01-01T00:00:00Z")!

    func build(_ leaf: String, through others: [String] = [], anchors: [String], rules: [any PathRule])
        throws -> Result<CertificationPath<Certificate>, PathProblem>
    {
        let builder = CertificationPathBuilder(anchors: PinnedAnchors(try anchors.map(Self.certificate), name: "test anchor"),
                                               rules: rules)
        return builder.build(leaf: try Self.certificate(leaf), others: try others.map(Self.certificate))
    }

    func problem(_ result: Result<CertificationPath<Certificate>, PathProblem>) -> PathProblem? {
        if case .failure(let problem) = result { return problem }
        return nil
    }

    @Test func aLeafDirectlyUnderItsAnchorBuilds() throws {
        let built = try build("ds-p256", anchors: ["iaca-p256"], rules: []).get()
        #expect(built.path == [try Self.certificate("ds-p256")])
        #expect(built.anchor == (try Self.certificate("iaca-p256")))
    }

    @Test func aPinnedLeafIsItsOwnAnchorWithAnEmptyPath() throws {
        let built = try build("ds-p256", anchors: ["ds-p256"], rules: []).get()
        #expect(built.path.isEmpty)
    }

    @Test func anIntermediateIsFoundByNameInAnyOrder() throws {
        let built = try build("ds-under-ica", through: ["ds-other", "ica-p256"], anchors: ["iaca-p256"], rules: []).get()
        #expect(built.path.map(\.subject) == [try Self.certificate("ds-under-ica").subject, try Self.certificate("ica-p256").subject])
    }

    @Test func noPathToAnAnchorIsUntrusted() throws {
        let found = problem(try build("ds-p256", anchors: ["iaca-other"], rules: []))
        #expect(found?.kind == .untrusted)
        #expect(found?.detail.contains("no test anchor issued") == true)
        // The intermediate is missing: the walk stops at the DS.
        #expect(problem(try build("ds-under-ica", anchors: ["iaca-p256"], rules: []))?.kind == .untrusted)
    }

    @Test func maximumIntermediateCAs() throws {
        #expect(problem(try build("ds-under-ica", through: ["ica-p256"], anchors: ["iaca-p256"],
                                  rules: [MaximumIntermediateCAs(1, profile: "the test profile")])) == nil)
        let found = problem(try build("ds-under-ica", through: ["ica-p256"], anchors: ["iaca-p256"],
                                      rules: [MaximumIntermediateCAs(0, profile: "the test profile")]))
        #expect(found?.kind == .invalid)
        #expect(found?.detail.contains("intermediate CA") == true)
    }

    @Test func certificateAuthorityConstraints() throws {
        let rules: [any PathRule] = [CertificateAuthorityConstraints(keyUsageRequired: true)]
        #expect(problem(try build("ds-p256", anchors: ["iaca-p256"], rules: rules)) == nil)
        // An intermediate that is not a CA never signs.
        let notCA = problem(try build("ds-under-not-ca", through: ["ica-not-ca-p256"], anchors: ["iaca-p256"], rules: rules))
        #expect(notCA?.kind == .invalid)
        #expect(notCA?.detail.contains("not a CA certificate") == true)
        // The IACA's pathLenConstraint 0 allows no CA below it.
        let pathLength = problem(try build("ds-under-ica", through: ["ica-p256"], anchors: ["iaca-p256"], rules: rules))
        #expect(pathLength?.detail.contains("pathLenConstraint 0") == true)
        // A pinned anchor that issues something must be a CA: a DS pinned as the anchor of another DS is not.
        let helper = CertificateAuthorityConstraints(keyUsageRequired: true)
        #expect(helper.problem(try Self.certificate("ds-p256"), certificatesBelow: 0)?.contains("not a CA certificate") == true)
        #expect(helper.problem(try Self.certificate("iaca-p256"), certificatesBelow: 0) == nil)
    }

    @Test func acceptedKeysAreCheckedBeforeAnySignature() throws {
        let onlyP384 = AcceptedKeys("a P-384 key") { P384.Signing.PublicKey($0.publicKey) != nil }
        let found = problem(try build("ds-p256", anchors: ["iaca-p256"], rules: [onlyP384]))
        #expect(found?.kind == .invalid)
        #expect(found?.detail.contains("no signature was checked") == true)
        #expect(problem(try build("ds-p384", anchors: ["iaca-p384"], rules: [onlyP384])) == nil)
    }

    @Test func validAtTime() throws {
        #expect(problem(try build("ds-p256", anchors: ["iaca-p256"], rules: [ValidAtTime(Self.inside)])) == nil)
        #expect(problem(try build("ds-p256", anchors: ["iaca-p256"], rules: [ValidAtTime(Self.outside)]))?.kind == .expired)
        // The anchor counts unless told otherwise.
        let underExpired = problem(try build("ds-under-expired-iaca", anchors: ["iaca-expired"], rules: [ValidAtTime(Self.inside)]))
        #expect(underExpired?.kind == .expired)
        #expect(problem(try build("ds-under-expired-iaca", anchors: ["iaca-expired"],
                                  rules: [ValidAtTime(Self.inside, includingAnchor: false)])) == nil)
    }

    @Test func leafExtendedKeyUsage() throws {
        let documentSigner = LeafExtendedKeyUsage([1, 0, 18013, 5, 1, 2], name: "mdoc document signer")
        #expect(problem(try build("ds-p256", anchors: ["iaca-p256"], rules: [documentSigner])) == nil)
        let vical = problem(try build("ds-p256", anchors: ["iaca-p256"],
                                      rules: [LeafExtendedKeyUsage([1, 0, 18013, 5, 1, 8], name: "VICAL signer")]))
        #expect(vical?.kind == .notAuthorized)
        #expect(problem(try build("ds-p256-no-eku", anchors: ["iaca-p256"], rules: [documentSigner]))?.kind == .notAuthorized)
    }

    @Test func leafSigningKeyUsage() throws {
        #expect(problem(try build("ds-p256", anchors: ["iaca-p256"], rules: [LeafSigningKeyUsage(required: true)])) == nil)
        let found = problem(try build("ds-p256-no-digitalsignature", anchors: ["iaca-p256"], rules: [LeafSigningKeyUsage(required: true)]))
        #expect(found?.kind == .notAuthorized)
        #expect(found?.detail.contains("digitalSignature") == true)
    }

    @Test func leafIsNotCA() throws {
        #expect(problem(try build("ds-p256", anchors: ["iaca-p256"], rules: [LeafIsNotCA()])) == nil)
        // An IACA pinned as itself is a CA leaf.
        #expect(problem(try build("iaca-p256", anchors: ["iaca-p256"], rules: [LeafIsNotCA()]))?.kind == .notAuthorized)
    }

    @Test func rulesRunInTheirStagesInOrder() throws {
        // The structural refusal comes before the validity one, although both apply.
        let found = problem(try build("ds-under-ica", through: ["ica-p256"], anchors: ["iaca-p256"],
                                      rules: [ValidAtTime(Self.outside), MaximumIntermediateCAs(0, profile: "p")]))
        #expect(found?.kind == .invalid)
    }
}
