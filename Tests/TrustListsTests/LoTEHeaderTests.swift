import Foundation
import Testing
import TestSupport
@testable import TrustLists

/// The protected header of a list (JAdES baseline B as TS 119 602 profiles it), on lists signed here with the
/// vectors' TEST-ONLY signer: what `crit` may name, the claimed signing time, the members that are ignored.
struct LoTEHeaderTests {
    static func code(header: String) throws -> LoTEError.Code? {
        let bytes = try LoTETestLists.resigned("mdl-valid", header: header)
        return LoTETestLists.code { try LoTETestLists.verify(bytes, kind: .mdl) }
    }

    @Test func theVectorsHeaderSignedHereVerifies() throws {
        #expect(try Self.code(header: try LoTETestLists.header()) == nil)
    }

    @Test func critMayNameOnlySigTAndSigTMustThenBePresent() throws {
        let sigT = "\"sigT\":\"2029-12-01T00:00:00Z\""
        #expect(try Self.code(header: try LoTETestLists.header("\"crit\":[\"sigT\"],\(sigT)")) == nil)
        #expect(try Self.code(header: try LoTETestLists.header("\"crit\":[\"sigT\"],\"iat\":1890777600")) == .headerInvalid,
                "sigT listed in crit but absent")
        #expect(try Self.code(header: try LoTETestLists.header("\"crit\":[\"iat\"],\"iat\":1890777600")) == .headerInvalid,
                "iat is not a parameter crit may name here")
        #expect(try Self.code(header: try LoTETestLists.header("\"crit\":[],\"iat\":1890777600")) == .headerInvalid)
        #expect(try Self.code(header: try LoTETestLists.header("\"crit\":\"sigT\",\(sigT)")) == .headerInvalid)
        #expect(try Self.code(header: try LoTETestLists.header("\"crit\":[\"sigT\",\"sigT\"],\(sigT)")) == .headerInvalid)
        #expect(try Self.code(header: try LoTETestLists.header("\"crit\":[\"sigT\",\"x\"],\"x\":1,\(sigT)")) == .headerInvalid)
    }

    @Test func aClaimedSigningTimeIsRequiredAndOnlyInformational() throws {
        #expect(try Self.code(header: try LoTETestLists.header("")) == .headerInvalid, "neither iat nor sigT")
        #expect(try Self.code(header: try LoTETestLists.header("\"iat\":\"1890777600\"")) == .headerInvalid, "iat as a string")
        #expect(try Self.code(header: try LoTETestLists.header("\"iat\":1890777600.5")) == .headerInvalid, "iat with a fraction")
        #expect(try Self.code(header: try LoTETestLists.header("\"sigT\":\"yesterday\"")) == .headerInvalid)
        // sigT without crit, with a fraction and an offset; an iat far from the list's dates.
        #expect(try Self.code(header: try LoTETestLists.header("\"sigT\":\"2029-12-01T01:00:00.25+01:00\"")) == nil)
        #expect(try Self.code(header: try LoTETestLists.header("\"iat\":0")) == nil)
    }

    @Test func otherMembersAreIgnoredButB64IsRefused() throws {
        let ignored = "\"typ\":\"jose\",\"cty\":\"json\",\"kid\":\"k\",\"x5t#o\":{\"digAlg\":\"S512\",\"digVal\":\"AA\"},\"iat\":1890777600"
        #expect(try Self.code(header: try LoTETestLists.header(ignored)) == nil)
        #expect(try Self.code(header: try LoTETestLists.header("\"b64\":true,\"iat\":1890777600")) == .headerInvalid)
        #expect(try Self.code(header: try LoTETestLists.header("\"b64\":false,\"crit\":[\"b64\"],\"iat\":1890777600")) == .headerInvalid)
        // A member twice in the header.
        #expect(try Self.code(header: try LoTETestLists.header("\"iat\":1890777600,\"iat\":1890777601")) == .headerInvalid)
    }

    @Test func algorithmsAndX5C() throws {
        let x5c = try LoTETestLists.operatorSignerX5C()
        // An RSA or P-384 algorithm over the P-256 signer: the signature cannot verify.
        #expect(try Self.code(header: "{\"alg\":\"RS256\",\"x5c\":[\"\(x5c)\"],\"iat\":1}") == .signatureInvalid)
        #expect(try Self.code(header: "{\"alg\":\"ES384\",\"x5c\":[\"\(x5c)\"],\"iat\":1}") == .signatureInvalid)
        for alg in ["none", "HS256", "EdDSA", "es256", ""] {
            #expect(try Self.code(header: "{\"alg\":\"\(alg)\",\"x5c\":[\"\(x5c)\"],\"iat\":1}") == .headerInvalid, "\(alg)")
        }
        #expect(try Self.code(header: "{\"x5c\":[\"\(x5c)\"],\"iat\":1}") == .headerInvalid, "no alg")
        #expect(try Self.code(header: "{\"alg\":\"ES256\",\"x5c\":[],\"iat\":1}") == .headerInvalid)
        #expect(try Self.code(header: "{\"alg\":\"ES256\",\"x5c\":\"\(x5c)\",\"iat\":1}") == .headerInvalid)
        let urlSafe = x5c.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        if urlSafe != x5c {
            #expect(try Self.code(header: "{\"alg\":\"ES256\",\"x5c\":[\"\(urlSafe)\"],\"iat\":1}") == .headerInvalid,
                    "x5c is standard base64")
        }
        #expect(try Self.code(header: "{\"alg\":\"ES256\",\"x5c\":[\"AAAA\"],\"iat\":1}") == .headerInvalid, "not DER")
        #expect(try Self.code(header: "[\"ES256\"]") == .headerInvalid)
        // More certificates than the limit.
        let five = Array(repeating: "\"\(x5c)\"", count: 5).joined(separator: ",")
        #expect(try Self.code(header: "{\"alg\":\"ES256\",\"x5c\":[\(five)],\"iat\":1}") == .headerInvalid)
        // x5c entries after the signer must each certify the one before.
        #expect(try Self.code(header: "{\"alg\":\"ES256\",\"x5c\":[\"\(x5c)\",\"\(x5c)\"],\"iat\":1}") == .signerUntrusted)
    }

    @Test func onlyCompactSerialization() throws {
        let valid = String(decoding: try LoTETestLists.list("mdl-valid"), as: UTF8.self)
        let parts = valid.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        func code(_ text: String) -> LoTEError.Code? {
            LoTETestLists.code { try LoTETestLists.verify(Array(text.utf8), kind: .mdl) }
        }
        #expect(code(valid) == nil)
        #expect(code(valid + "\n") == nil, "a final line end is not part of the token")
        #expect(code(parts[0] + "." + parts[1]) == .headerInvalid)
        #expect(code(valid + ".") == .headerInvalid)
        #expect(code(parts[0] + "=." + parts[1] + "." + parts[2]) == .headerInvalid, "padding")
        #expect(code(parts[0] + "." + parts[1] + "." + parts[2] + "A") == .signatureInvalid, "65 bytes are no ES256 signature")
        #expect(code(parts[0] + "." + parts[1] + "." + parts[2] + "AAA") == .headerInvalid, "4n+1 characters are no base64url")
        #expect(code("{\"payload\":\"\(parts[1])\",\"protected\":\"\(parts[0])\",\"signature\":\"\(parts[2])\"}") == .headerInvalid,
                "flattened JSON serialization")
        // Any truncation is refused, never a crash.
        let bytes = Array(valid.utf8)
        for length in [0, 1, 10, bytes.count / 2, bytes.count - 1] {
            #expect(LoTETestLists.code { try LoTETestLists.verify(Array(bytes.prefix(length)), kind: .mdl) } != nil, "\(length)")
        }
    }
}
