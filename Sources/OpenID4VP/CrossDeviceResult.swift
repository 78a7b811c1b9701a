import CBOR
import Encodings

/// A cross-device session's result as it is kept until the caller fetches it: whether it verified, the response
/// code the wallet's redirect carried (when the caller gave a redirect URI), and the report exactly as the caller
/// receives it. Stored as a versioned CBOR map with named members (`{"v": 1, "verified", "responseCode", "report"}`).
public struct CrossDeviceResult: Sendable, Equatable {
    public static let version: Int64 = 1
    /// How long a result (and the room reserved for it when its session is opened) outlives its session: the time
    /// the caller has to fetch it.
    public static let keptAfterSession: Double = 300

    public let verified: Bool
    /// Nil without a redirect URI: the result is then released to the caller without a code.
    public let responseCode: String?
    /// The report's JSON.
    public let report: [UInt8]

    public init(verified: Bool, responseCode: String?, report: [UInt8]) {
        self.verified = verified
        self.responseCode = responseCode
        self.report = report
    }

    /// The stored form.
    public var encoded: [UInt8] {
        CBOREncoder().encode(.map([
            .init("v", .unsigned(UInt64(Self.version))), .init("verified", .bool(verified)),
            .init("responseCode", responseCode.map { .text($0) } ?? .null), .init("report", .bytes(report)),
        ]))
    }

    /// Reads a stored result; nil when it is not one this version wrote.
    public init?(encoded bytes: [UInt8]) {
        guard let item = try? CBORDecoder().decode(bytes), let map = item.mapValue, map.count == 4,
              item["v"]?.intValue == Self.version, let verified = item["verified"]?.boolValue,
              let code = item["responseCode"], let report = item["report"]?.bytesValue
        else { return nil }
        guard code.isNull || code.textValue != nil else { return nil }
        self.init(verified: verified, responseCode: code.textValue, report: Array(report))
    }

    /// Whether `presented` releases the result: any caller when there is no response code, else only the one
    /// presenting it (compared in constant time).
    public func isReleased(to presented: String?) -> Bool {
        guard let responseCode else { return true }
        guard let presented else { return false }
        return ConstantTime.equals(presented, responseCode)
    }
}
