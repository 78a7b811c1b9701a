import Foundation
import SDJWTVC
import Testing

/// The generated JWT VC Issuer Metadata vectors (`TestVectors/sdjwt-metadata`, made by
/// `TestVectors/generator/jwt_vc_issuer_metadata.py`): SD-JWT VCs whose issuer key comes from metadata served on
/// loopback by ``StatusListServer/jwtLists()``, the issuers an operator lists, and the verdicts. The cases share the
/// shape (and the anchor, clock, nonce and audience) of ``SDJWTVCVectors``.
public enum SDJWTVCMetadataVectors {
    public static let folder = Fixtures.testVectors.appendingPathComponent("sdjwt-metadata")
    public static let manifest = try? JSONValue.load(folder.appendingPathComponent("manifest.json"))
    public static let cases: [SDJWTVCVectors.Case] = (manifest?["cases"]?.array ?? []).map(SDJWTVCVectors.Case.init(metadata:))

    /// What an operator lists (`sdJwtVc.metadataIssuers`).
    public static let listed: [SDJWTVCMetadataIssuer] = (manifest?["metadataIssuers"]?.array ?? []).compactMap { entry in
        entry["iss"]?.string.map { SDJWTVCMetadataIssuer(iss: $0, vcts: entry["vcts"]?.array.compactMap(\.string) ?? []) }
    }

    public struct ServedFile: Sendable {
        public let path: String
        public let contentType: String
        public let bytes: [UInt8]
        /// The HTTP status it is answered with (an error status with a body that would otherwise be a document).
        public let status: Int
    }

    public static func servedFiles() throws -> [ServedFile] {
        try (manifest?["served"]?.array ?? []).map { entry in
            ServedFile(path: entry["path"]?.string ?? "", contentType: entry["contentType"]?.string ?? "application/json",
                       bytes: try Fixtures.bytes(folder.appendingPathComponent(entry["file"]?.string ?? "")),
                       status: entry["status"].flatMap { Int(SDJWTVCVectors.number($0) ?? 200) } ?? 200)
        }
    }
}

extension SDJWTVCMetadataVectors {
    /// Whether `result` is the case's verdict: verified or not, and for a refusal the first failing check and its code;
    /// a verified case (but the x5c control) was verified by the metadata key `k1`. Returns the report for further checks.
    @discardableResult
    public static func expectVerdict(_ result: SDJWTVCResult, _ testCase: SDJWTVCVectors.Case,
                                     sourceLocation: SourceLocation = #_sourceLocation) -> SDJWTVCReport? {
        guard case .report(let report) = result else {
            Issue.record("\(testCase.name) failed as a whole", sourceLocation: sourceLocation)
            return nil
        }
        #expect(report.verified == (testCase.expect["verified"]?.bool ?? false), "\(testCase.name): \(report.checks)",
                sourceLocation: sourceLocation)
        if let check = testCase.expect["check"]?.string {
            let failing = report.checks.first { $0.status == .failed }
            #expect(failing?.id.rawValue == check, "\(testCase.name): \(report.checks)", sourceLocation: sourceLocation)
            #expect(failing?.code?.rawValue == testCase.expect["code"]?.string, "\(testCase.name): \(failing?.detail ?? "")",
                    sourceLocation: sourceLocation)
        } else if testCase.name != "md-x5c-control" {
            #expect(report.issuer.keyID == "k1", sourceLocation: sourceLocation)
        }
        return report
    }
}
