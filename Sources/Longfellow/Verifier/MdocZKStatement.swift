import Crypto
import LongfellowAlgebra

/// What a Longfellow mdoc proof is checked against: the issuer's key (from the document signer certificate), the
/// SessionTranscript's exact bytes, the docType, the disclosed attributes in the order proven (identifier and the
/// exact CBOR bytes of each value; the namespace is not part of the statement), and the 20-character UTC time
/// (`YYYY-MM-DDTHH:MM:SSZ`) the proof says the document was valid at.
public struct MdocZKStatement: Sendable {
    public struct Attribute: Sendable, Equatable {
        public let identifier: String
        public let value: [UInt8]

        public init(identifier: String, value: [UInt8]) {
            self.identifier = identifier
            self.value = value
        }
    }

    public let issuerKeyX: Fp256
    public let issuerKeyY: Fp256
    public let sessionTranscript: [UInt8]
    public let docType: String
    public let attributes: [Attribute]
    public let timestamp: String
    /// The DeviceNameSpaces CBOR inside DeviceNameSpacesBytes: `{}` (A0) as Google's prover fixes it.
    public let deviceNameSpaces: [UInt8]

    public init(issuerKeyX: Fp256, issuerKeyY: Fp256, sessionTranscript: [UInt8], docType: String, attributes: [Attribute],
                timestamp: String, deviceNameSpaces: [UInt8] = [0xA0]) {
        self.issuerKeyX = issuerKeyX
        self.issuerKeyY = issuerKeyY
        self.sessionTranscript = sessionTranscript
        self.docType = docType
        self.attributes = attributes
        self.timestamp = timestamp
        self.deviceNameSpaces = deviceNameSpaces
    }

    static func textHeader(_ length: Int) -> [UInt8] {
        length < 24 ? [0x60 + UInt8(length)] : [0x78, UInt8(length)]
    }

    static func bytesHeader(_ length: Int) -> [UInt8] {
        if length < 24 { return [0x40 + UInt8(length)] }
        if length < 256 { return [0x58, UInt8(length)] }
        return [0x59, UInt8(length >> 8), UInt8(length & 0xFF)]
    }

    /// e2: SHA-256 of the COSE Sig_structure over DeviceAuthenticationBytes, read big-endian; nil when the statement
    /// cannot be encoded as the circuit reads it (a docType of 256 bytes or more, 64 KiB of DeviceAuthentication) or
    /// the digest is not below p.
    func deviceAuthenticationDigest() -> Fp256? {
        let docTypeBytes = Array(docType.utf8)
        guard docTypeBytes.count < 256, deviceNameSpaces.count < 256 else { return nil }
        var authentication: [UInt8] = [0x84, 0x74] + Array("DeviceAuthentication".utf8)
        authentication += sessionTranscript
        authentication += Self.textHeader(docTypeBytes.count) + docTypeBytes
        authentication += [0xD8, 0x18] + Self.bytesHeader(deviceNameSpaces.count) + deviceNameSpaces
        let l1 = authentication.count
        guard l1 < 65_000 else { return nil }
        var cose: [UInt8] = [0x84, 0x6A] + Array("Signature1".utf8) + [0x43, 0xA1, 0x01, 0x26, 0x40]
        cose += Self.bytesHeader(l1 + (l1 < 256 ? 4 : 5)) + [0xD8, 0x18] + Self.bytesHeader(l1) + authentication
        return Fp256(littleEndian: Array(SHA256.hash(data: cose)).reversed())
    }

    /// Why an attribute cannot be stated for `version`, or nil.
    func attributeProblem(version: Int) -> String? {
        for attribute in attributes {
            let id = Array(attribute.identifier.utf8)
            guard id.count <= 32, attribute.value.count <= 64, !attribute.value.isEmpty else {
                return "\(attribute.identifier): an identifier is at most 32 bytes and a value 1 to 64"
            }
            if version >= 7 {
                // The two implementations state identifiers of 24 bytes or more differently (their CBOR header is two
                // bytes): refused until they agree.
                guard id.count < 24 else { return "\(attribute.identifier): a v7 proof states identifiers of at most 23 bytes here" }
            } else {
                guard Self.textHeader(id.count).count + id.count + 13 + attribute.value.count <= 96 else {
                    return "\(attribute.identifier): identifier and value exceed the v6 circuit's 96 bytes"
                }
            }
        }
        return nil
    }

    static func bits<Field: LongfellowField>(_ bytes: [UInt8], into inputs: inout [Field]) {
        for byte in bytes {
            for bit in 0..<8 { inputs.append((byte >> UInt8(bit)) & 1 == 1 ? .one : .zero) }
        }
    }

    static func bits<Field: LongfellowField>(of element: GF2_128, into inputs: inout [Field]) {
        for bit in 0..<128 {
            let word = bit < 64 ? element.low : element.high
            inputs.append((word >> UInt64(bit % 64)) & 1 == 1 ? .one : .zero)
        }
    }

    /// The hash circuit's public inputs.
    func hashInputs(version: Int, macs: [GF2_128], macKey: GF2_128) -> [GF2_128] {
        var inputs: [GF2_128] = [.one]
        for attribute in attributes {
            let id = Array(attribute.identifier.utf8)
            var buffer = [UInt8](repeating: 0, count: 96)
            if version >= 7 {
                let named = Self.textHeader(id.count) + id
                for (index, byte) in named.prefix(32).enumerated() { buffer[index] = byte }
                for (index, byte) in attribute.value.prefix(64).enumerated() { buffer[32 + index] = byte }
                Self.bits(buffer, into: &inputs)
                Self.bits([UInt8(truncatingIfNeeded: 19 + id.count)], into: &inputs)
                Self.bits([UInt8(truncatingIfNeeded: attribute.value.count + 13)], into: &inputs)
            } else {
                let named = Self.textHeader(id.count) + id + [0x6C] + Array("elementValue".utf8) + attribute.value
                for (index, byte) in named.prefix(96).enumerated() { buffer[index] = byte }
                Self.bits(buffer, into: &inputs)
                Self.bits([UInt8(truncatingIfNeeded: min(named.count, 96))], into: &inputs)
            }
        }
        Self.bits(Array(timestamp.utf8), into: &inputs)
        inputs += macs
        inputs.append(macKey)
        return inputs
    }

    /// The signature circuit's public inputs.
    func signatureInputs(digest: Fp256, macs: [GF2_128], macKey: GF2_128) -> [Fp256] {
        var inputs: [Fp256] = [.one, issuerKeyX, issuerKeyY, digest]
        for mac in macs { Self.bits(of: mac, into: &inputs) }
        Self.bits(of: macKey, into: &inputs)
        return inputs
    }
}
