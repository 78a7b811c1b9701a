import CertificateRevocation
import Encodings
import Foundation
import Testing
import TestSupport
import X509

/// The CRL cases of TestVectors/crl (made by Python `cryptography` and `openssl ca -gencrl`, with the failures of
/// eudi-lib-android-iso18013-data-transfer #102) and C2SP/x509-limbo's CRL cases, judged by the library alone: each
/// case's files stand in for its distribution points.
@Suite struct CRLVectorTests {
    static let folder = Fixtures.testVectors.appendingPathComponent("crl")
    nonisolated(unsafe) static let manifest: [String: Any] = {
        let data = try! Data(contentsOf: folder.appendingPathComponent("manifest.json"))
        return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
    }()
    static var cases: [[String: Any]] { manifest["cases"] as! [[String: Any]] }
    static var caseNames: [String] { cases.map { $0["name"] as! String } }
    static let time = Date(timeIntervalSince1970: 1_893_456_000)

    static func certificate(_ path: String) throws -> Certificate {
        let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
        return try Certificate(derEncoded: try #require(try PEM.blocks(in: text).first).bytes)
    }

    /// The case's `serve` map as a CRL source: a path it serves is read (1 MiB at most, as the service's default), any
    /// other is unavailable.
    struct Files: CRLSource {
        let serve: [String: URL]
        func crl(at url: String, issuer: Certificate, now: Date) async -> CRLLookup {
            guard let path = URLComponents(string: url)?.path, let file = serve[path], let bytes = try? Data(contentsOf: file) else {
                return .failed(.unavailable, "404")
            }
            guard bytes.count <= 1 << 20 else { return .failed(.tooLarge, "\(bytes.count) bytes") }
            do {
                return .crl(try CertificateRevocationList(derEncoded: Array(bytes)), issuerProblem: nil, staleGrace: 0)
            } catch {
                return .failed(.malformed, error.detail)
            }
        }
    }

    @Test(arguments: caseNames)
    func eachCaseReachesItsConclusion(_ name: String) async throws {
        let entry = try #require(Self.cases.first { $0["name"] as? String == name })
        let chain = try (entry["chain"] as! [String]).map(Self.certificate)
        let serve = (entry["serve"] as! [String: String]).mapValues { Self.folder.appendingPathComponent($0) }
        let links = ChainRevocationChecker.links(path: Array(chain.dropLast()), anchor: chain.last!)
        let outcome = CertificateRevocationOutcome.combined(await ChainRevocationChecker.outcomes(links, source: Files(serve: serve), at: Self.time))
        switch entry["expect"] as! String {
        case "good":
            #expect(outcome == .good, "\(outcome)")
        case "revoked":
            guard case .revoked(let reason, let date, let subject) = outcome else { Issue.record("\(name): \(outcome)"); return }
            #expect(reason.name == entry["reason"] as? String)
            if let deciding = entry["decidingCertificate"] as? String {
                #expect(subject == (try Self.certificate(deciding)).subject.description)
            }
            if let expected = entry["revocationDate"] as? String {
                #expect(date == ISO8601DateFormatter().date(from: expected))
            }
        default:
            guard case .undetermined(let problem, let detail) = outcome else { Issue.record("\(name): \(outcome)"); return }
            #expect(problem.rawValue == entry["code"] as? String, "\(detail)")
        }
    }

    /// The defects of eudi-lib-android-iso18013-data-transfer #102 each have a case here, and none passes.
    @Test func everyDefectOfIssue102IsCovered() {
        let defects = Set(Self.cases.compactMap { $0["eudi102"] as? String })
        #expect(defects == ["A", "B", "C", "D"])
        #expect(Self.cases.filter { $0["eudi102"] is String }.allSatisfy { ($0["expect"] as? String) != "good" })
    }

    // MARK: C2SP/x509-limbo

    nonisolated(unsafe) static let limbo: [[String: Any]] = {
        let data = try! Data(contentsOf: folder.appendingPathComponent("limbo/limbo-crl-subset.json"))
        return (try! JSONSerialization.jsonObject(with: data) as! [String: Any])["testcases"] as! [[String: Any]]
    }()
    nonisolated(unsafe) static let limboExpectations: [String: [String: Any]] = {
        let data = try! Data(contentsOf: folder.appendingPathComponent("limbo/manifest.json"))
        let cases = (try! JSONSerialization.jsonObject(with: data) as! [String: Any])["cases"] as! [[String: Any]]
        return Dictionary(uniqueKeysWithValues: cases.map { ($0["id"] as! String, $0["leaf"] as! [String: Any]) })
    }()

    static func pem(_ text: String, label: String) throws -> [[UInt8]] {
        try PEM.blocks(in: text).filter { $0.label == label }.map(\.bytes)
    }

    /// Limbo's certificates carry no distribution point: each case's own CRLs are the ones of its issuer that apply
    /// (RFC 5280 §6.3.3 (b)(1): a CRL of another issuer never does).
    @Test(arguments: limbo.map { $0["id"] as! String })
    func limboCase(_ id: String) throws {
        let entry = try #require(Self.limbo.first { $0["id"] as? String == id })
        let expected = try #require(Self.limboExpectations[id])
        let leaf = try Certificate(derEncoded: try #require(try Self.pem(entry["peer_certificate"] as! String, label: "CERTIFICATE").first))
        let trusted = try (entry["trusted_certs"] as! [String]).flatMap { try Self.pem($0, label: "CERTIFICATE") }.map { try Certificate(derEncoded: $0) }
        let issuer = try #require(trusted.first { $0.subject == leaf.issuer })
        let crls = try (entry["crls"] as! [String]).flatMap { try Self.pem($0, label: "X509 CRL") }
        let time = try #require(ISO8601DateFormatter().date(from: (entry["validation_time"] as! String).replacingOccurrences(of: "+00:00", with: "Z")))
        var outcomes: [CertificateRevocationOutcome] = []
        for bytes in crls {
            do {
                let crl = try CertificateRevocationList(derEncoded: bytes)
                guard crl.issuer == leaf.issuer else { continue }
                outcomes.append(CRLJudge.outcome(crl, for: leaf, issuer: issuer, fetchedFrom: "", at: time))
            } catch {
                outcomes.append(.undetermined(.malformed, detail: error.detail))
            }
        }
        let outcome = CertificateRevocationOutcome.combined(outcomes)
        switch expected["expect"] as! String {
        case "good": #expect(outcome == .good, "\(outcome)")
        case "revoked":
            guard case .revoked(let reason, _, _) = outcome else { Issue.record("\(id): \(outcome)"); return }
            #expect(reason.name == expected["reason"] as? String)
        default:
            guard case .undetermined(let problem, _) = outcome else { Issue.record("\(id): \(outcome)"); return }
            #expect(problem.rawValue == expected["code"] as? String)
        }
    }
}
