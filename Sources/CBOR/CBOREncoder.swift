/// Encodes ``CBOR`` values with preferred (shortest) serialization.
///
/// In ``Mode/deterministic`` mode map keys are also sorted bytewise by their encoding
/// (RFC 8949 section 4.2.1), which is what we use for structures we build and sign or hash.
public struct CBOREncoder: Sendable {
    public enum Mode: Sendable {
        /// Shortest heads and floats; map entries in the order given.
        case preferred
        /// Preferred serialization plus map keys sorted by their encoded bytes.
        case deterministic
    }

    public var mode: Mode

    public init(mode: Mode = .preferred) {
        self.mode = mode
    }

    public func encode(_ value: CBOR) -> [UInt8] {
        var out: [UInt8] = []
        write(value, into: &out)
        return out
    }

    public func write(_ value: CBOR, into out: inout [UInt8]) {
        switch value {
        case .unsigned(let n): writeHead(major: 0, argument: n, into: &out)
        case .negative(let n): writeHead(major: 1, argument: n, into: &out)
        case .bytes(let b):
            writeHead(major: 2, argument: UInt64(b.count), into: &out)
            out.append(contentsOf: b)
        case .text(let s):
            writeHead(major: 3, argument: UInt64(s.utf8.count), into: &out)
            out.append(contentsOf: s.utf8)
        case .array(let items):
            writeHead(major: 4, argument: UInt64(items.count), into: &out)
            for item in items { write(item, into: &out) }
        case .map(let pairs):
            writeHead(major: 5, argument: UInt64(pairs.count), into: &out)
            switch mode {
            case .preferred:
                for pair in pairs {
                    write(pair.key, into: &out)
                    write(pair.value, into: &out)
                }
            case .deterministic:
                let encoded = pairs.map { (key: encode($0.key), value: $0.value) }
                for entry in encoded.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                    out.append(contentsOf: entry.key)
                    write(entry.value, into: &out)
                }
            }
        case .tagged(let tag, let item):
            writeHead(major: 6, argument: tag, into: &out)
            write(item, into: &out)
        case .simple(let v):
            if v < 24 {
                out.append(0xe0 | v)
            } else {
                out.append(contentsOf: [0xf8, v])
            }
        case .bool(let b): out.append(b ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        case .undefined: out.append(0xf7)
        case .float(let d): writeFloat(d, into: &out)
        case .encoded(let bytes): out.append(contentsOf: bytes)
        }
    }

    /// Writes an initial byte and its argument in the shortest form.
    public func writeHead(major: UInt8, argument: UInt64, into out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24:
            out.append(type | UInt8(argument))
        case 24...0xff:
            out.append(contentsOf: [type | 24, UInt8(argument)])
        case 0x100...0xffff:
            out.append(type | 25)
            appendBigEndian(argument, byteCount: 2, into: &out)
        case 0x1_0000...0xffff_ffff:
            out.append(type | 26)
            appendBigEndian(argument, byteCount: 4, into: &out)
        default:
            out.append(type | 27)
            appendBigEndian(argument, byteCount: 8, into: &out)
        }
    }

    private func writeFloat(_ value: Double, into out: inout [UInt8]) {
        if value.isNaN {
            out.append(contentsOf: [0xf9, 0x7e, 0x00])
            return
        }
        let single = Float(value)
        if Double(single) == value {
            if let half = HalfFloat.bits(exactly: single) {
                out.append(0xf9)
                appendBigEndian(UInt64(half), byteCount: 2, into: &out)
            } else {
                out.append(0xfa)
                appendBigEndian(UInt64(single.bitPattern), byteCount: 4, into: &out)
            }
        } else {
            out.append(0xfb)
            appendBigEndian(value.bitPattern, byteCount: 8, into: &out)
        }
    }

    private func appendBigEndian(_ value: UInt64, byteCount: Int, into out: inout [UInt8]) {
        for shift in stride(from: (byteCount - 1) * 8, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
