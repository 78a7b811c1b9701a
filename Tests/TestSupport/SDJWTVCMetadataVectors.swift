import Foundation
import SDJWTVC

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
