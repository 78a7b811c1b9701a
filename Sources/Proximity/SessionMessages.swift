import CBOR
import MDoc

/// `SessionEstablishment = {"eReaderKey": EReaderKeyBytes, "data": bstr}` (ISO 18013-5 9.1.1.4), keys in the
/// order the standard lists them (the order of Annex D).
public enum SessionEstablishment {
    public static func encode(eReaderKeyBytes: [UInt8], data: [UInt8]) -> [UInt8] {
        CBOREncoder().encode(.map([.init("eReaderKey", .encoded(eReaderKeyBytes)), .init("data", .bytes(data))]))
    }
}

/// `SessionData = {? "data": bstr, ? "status": uint}` (ISO 18013-5 9.1.1.4), read strictly.
public struct SessionData: Sendable {
    /// 10: error, session encryption; 11: error, CBOR decoding; 20: session termination.
    public static let knownStatuses: [UInt64: String] = [
        10: "error: session encryption", 11: "error: CBOR decoding", 20: "session termination",
    ]

    public let data: ArraySlice<UInt8>?
    public let status: UInt64?

    /// A DeviceResponse is at most 4 MiB; the envelope around it is small.
    static let limits = CBORDecodingLimits(maxDepth: 2, maxItems: 8, maxInputBytes: (4 << 20) + 64)

    public init(bytes: [UInt8]) throws(ResponseFailure) {
        let item: CBORItem
        do {
            item = try CBORDecoder(limits: Self.limits).decode(bytes)
        } catch {
            throw ResponseFailure(.sessionDataMalformed, "SessionData is not one CBOR item: \(error)")
        }
        guard let pairs = item.mapValue, !pairs.isEmpty else {
            throw ResponseFailure(.sessionDataMalformed, "SessionData is not a non-empty map")
        }
        var data: ArraySlice<UInt8>?
        var status: UInt64?
        for pair in pairs {
            switch pair.key.textValue {
            case "data":
                guard let bytes = pair.value.bytesValue else { throw ResponseFailure(.sessionDataMalformed, "data is not a bstr") }
                data = bytes
            case "status":
                guard let value = pair.value.unsignedValue else { throw ResponseFailure(.sessionDataMalformed, "status is not a uint") }
                status = value
            default:
                throw ResponseFailure(.sessionDataMalformed, "SessionData has an unexpected key at offset \(pair.key.offset)")
            }
        }
        self.data = data
        self.status = status
    }

    /// `{"status": 20}`: what the reader sends to end the session.
    public static let termination: [UInt8] = CBOREncoder().encode(.map([.init("status", 20)]))
}
