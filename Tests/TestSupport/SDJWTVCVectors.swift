import Foundation
import MDoc
import SDJWT
import SDJWTVC
import StrictJSON
import Testing
import TrustStore

/// The generated SD-JWT VC vectors (`TestVectors/sdjwt`, made by `TestVectors/generator/sd_jwt_vc.py` on Python's
/// `cryptography`, valid cases cross-checked with PyPI's `sd-jwt`): the manifest, its trust anchors, its options.
public enum SDJWTVCVectors {
    public static let folder = Fixtures.testVectors.appendingPathComponent("sdjwt")
    public static let manifest = try? JSONValue.load(folder.appendingPathComponent("manifest.json"))
    public static let cases: [Case] = (manifest?["cases"]?.array ?? []).map { Case($0) }
    public static let time = date(manifest?["verificationTime"]?.string ?? "2030-01-01T00:00:00Z")

    public struct Case: CustomTestStringConvertible, Sendable {
        public let json: JSONValue
        /// The vector folder the case's file is in.
        public let folder: URL

        public init(_ json: JSONValue) {
            self.json = json
            folder = SDJWTVCVectors.folder
        }

        /// A case of ``SDJWTVCMetadataVectors``.
        public init(metadata json: JSONValue) {
            self.json = json
            folder = SDJWTVCMetadataVectors.folder
        }

        public var name: String { json["name"]?.string ?? "?" }
        public var testDescription: String { name }
        public var expect: JSONValue { json["expect"] ?? .null }
        public var presentation: String {
            get throws { try Fixtures.text(folder.appendingPathComponent(json["file"]?.string ?? "")) }
        }
    }

    public static func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text) ?? Date(timeIntervalSince1970: 0)
    }

    public static func trust() throws -> TrustSnapshot {
        var anchors: [TrustAnchor] = []
        for path in manifest?["trustAnchors"]?.array.compactMap(\.string) ?? [] {
            for der in try CertificateParsing.derCertificates(from: try Fixtures.bytes(folder.appendingPathComponent(path))) {
                anchors.append(try TrustAnchor(derBytes: der))
            }
        }
        return TrustSnapshot(anchors: anchors)
    }

    /// The options the manifest gives a case: its clock, nonce, audience, `iat` window and query.
    public static func options(_ testCase: Case) throws -> SDJWTVCOptions {
        let window = TimeInterval(Int(manifest?["kbIatWindowSeconds"].flatMap(number) ?? 300))
        let audience = testCase.json["audience"]?.string ?? manifest?["audience"]?.string ?? ""
        let expectation = KeyBindingExpectation(nonce: manifest?["nonce"]?.string ?? "", audience: audience,
                                                notBefore: time.addingTimeInterval(-window), notAfter: time.addingTimeInterval(window))
        var query: SDJWTVCQuery?
        if let raw = testCase.json["query"] {
            query = try SDJWTVCQuery(dcql: raw)
        } else if testCase.json["requireKeyBinding"]?.bool == false {
            // No query in the manifest: one that asks for what the case discloses, without holder binding.
            let claims = (testCase.expect["disclosed"]?.array ?? []).map { path in
                SDJWTVCQuery.Claim(path: path.array.compactMap(\.string).map { .name($0) })
            }
            query = SDJWTVCQuery(vctValues: ["urn:eudi:pid:1"], claims: claims, requireHolderBinding: false)
        }
        return SDJWTVCOptions(verificationTime: time, clockSkew: TimeInterval(Int(manifest?["clockSkewSeconds"].flatMap(number) ?? 300)),
                              keyBinding: expectation, query: query)
    }

    public static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let n): return Double(n)
        case .double(let d): return d
        default: return nil
        }
    }

    /// `value` with object members sorted by name at every depth (the generator writes Python's order).
    public static func sorted(_ value: JSON) -> JSON {
        switch value {
        case .object(let members): return .object(members.sorted { $0.0 < $1.0 }.map { ($0.0, sorted($0.1)) })
        case .array(let items): return .array(items.map(sorted))
        default: return value
        }
    }

    public static func json(_ raw: JSONValue) -> JSON { sorted(JSON(raw)) }
}

extension SDJWTVCQuery {
    /// A test's reading of a DCQL credential query (the service's own parser lives in OpenID4VP).
    public init(dcql raw: JSONValue) throws {
        let claims = raw["claims"]?.array.map { claim -> Claim in
            let path = claim["path"]?.array.map { element -> PathElement in
                switch element {
                case .string(let name): return .name(name)
                case .integer(let index): return .index(Int(index))
                default: return .all
                }
            } ?? []
            let values = claim["values"]?.array.map(JSON.init)
            return Claim(id: claim["id"]?.string, path: path, values: values)
        } ?? []
        let sets = raw["claim_sets"]?.array.map { $0.array.compactMap(\.string) } ?? []
        self.init(vctValues: raw["meta"]?["vct_values"]?.array.compactMap(\.string) ?? [], claims: claims, claimSets: sets,
                  requireHolderBinding: raw["require_cryptographic_holder_binding"]?.bool ?? true)
    }
}
