import CBOR
import Crypto
import MDoc
import Testing
@testable import AppleWallet

/// Every malformed and unsupported envelope variant.
struct EnvelopeParsingTests {
    static let point = Array(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)

    static func envelope(algorithm: CBOR? = "APPLE-HPKE-v1", mode: CBOR? = 0, pkEm: CBOR? = .bytes(point),
                         pkRHash: CBOR? = .bytes(Array(repeating: 1, count: 32)),
                         infoHash: CBOR? = .bytes(Array(repeating: 2, count: 32)),
                         data: CBOR? = .bytes(Array(repeating: 3, count: 40)), extra: CBOR.Pair? = nil,
                         paramsExtra: CBOR.Pair? = nil) -> [UInt8] {
        var params: [CBOR.Pair] = []
        if let mode { params.append(.init("mode", mode)) }
        if let pkEm { params.append(.init("pkEm", pkEm)) }
        if let pkRHash { params.append(.init("pkRHash", pkRHash)) }
        if let infoHash { params.append(.init("infoHash", infoHash)) }
        if let paramsExtra { params.append(paramsExtra) }
        var top: [CBOR.Pair] = []
        if let data { top.append(.init("data", data)) }  // keys in any order
        top.append(.init("params", .map(params)))
        if let algorithm { top.append(.init("algorithm", algorithm)) }
        if let extra { top.append(extra) }
        return CBOREncoder().encode(.map(top))
    }

    func code(_ bytes: [UInt8]) -> FailureCode? {
        do {
            _ = try AppleHPKEEnvelope(bytes: bytes)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func wellFormedEnvelopeParsesInAnyKeyOrder() throws {
        let envelope = try AppleHPKEEnvelope(bytes: Self.envelope())
        #expect(envelope.pkEm == Self.point)
        #expect(envelope.data.count == 40)
    }

    @Test func unsupportedVariants() {
        #expect(code(Self.envelope(algorithm: "APPLE-HPKE-v2")) == .envelopeUnsupported)
        #expect(code(Self.envelope(mode: 1)) == .envelopeUnsupported)
    }

    @Test func malformedVariants() {
        var offCurve = Self.point
        offCurve[64] ^= 1
        var compressedPrefix = Self.point
        compressedPrefix[0] = 0x02
        let variants: [[UInt8]] = [
            Self.envelope(algorithm: nil), Self.envelope(algorithm: 1), Self.envelope(mode: nil), Self.envelope(mode: "0"),
            Self.envelope(mode: -1), Self.envelope(pkEm: nil), Self.envelope(pkEm: .bytes(Array(Self.point.dropLast()))),
            Self.envelope(pkEm: .bytes(offCurve)), Self.envelope(pkEm: .bytes(compressedPrefix)), Self.envelope(pkEm: "x"),
            Self.envelope(pkRHash: nil), Self.envelope(pkRHash: .bytes([1, 2])), Self.envelope(infoHash: nil),
            Self.envelope(infoHash: .bytes(Array(repeating: 0, count: 33))), Self.envelope(data: nil),
            Self.envelope(data: .bytes(Array(repeating: 0, count: 15))), Self.envelope(data: "ciphertext"),
            Self.envelope(extra: .init("extra", 1)), Self.envelope(paramsExtra: .init("aad", .bytes([]))),
            Self.envelope() + [0x00], Array(Self.envelope().dropLast()), [0x80], [], [0xff],
            CBOREncoder().encode(.map([.init("algorithm", "APPLE-HPKE-v1"), .init("params", []), .init("data", .bytes([]))])),
        ]
        for (index, variant) in variants.enumerated() {
            #expect(code(variant) == .envelopeMalformed, "variant \(index)")
        }
    }

    @Test func hugeOrDeepEnvelopesFailFast() {
        #expect(code([UInt8](repeating: 0x81, count: 100_000)) == .envelopeMalformed)
        #expect(code([0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]) == .envelopeMalformed)
    }
}
