import CBOR
import Foundation

/// The MSO's `validityInfo`.
public struct ValidityInfo: Sendable, Equatable {
    public let signed: Date
    public let validFrom: Date
    public let validUntil: Date
    public let expectedUpdate: Date?
    /// Departures from the ISO 18013-5 9.1.2.4 timestamp profile (readable dates that are untagged, not UTC or
    /// with fractional seconds); `mso.validity` fails with MSO_MALFORMED when any exist.
    public let profileViolations: [String]
    /// Whether every violation is fractional seconds in an otherwise well-formed UTC tdate (a deviation an anchor named
    /// `lenient` may be granted, as a warning).
    public let onlyFractionalSeconds: Bool

    init(_ item: CBORItem) throws(MDocDecodingError) {
        let reader = try StructureReader(item, "ValidityInfo")
        var violations: [String] = []
        var fractionalOnly = true
        func date(_ key: String) throws(MDocDecodingError) -> Date {
            let value = try reader.required(key)
            guard let date = TDate.date(from: value) else {
                throw MDocDecodingError("validityInfo.\(key) is not a tdate", offset: value.offset)
            }
            if let violation = TDate.profileViolation(value) {
                violations.append("\(key) \(violation)")
                fractionalOnly = fractionalOnly && TDate.hasOnlyFractionalSeconds(value)
            }
            return date
        }
        signed = try date("signed")
        validFrom = try date("validFrom")
        validUntil = try date("validUntil")
        expectedUpdate = reader.optional("expectedUpdate") == nil ? nil : try date("expectedUpdate")
        profileViolations = violations
        onlyFractionalSeconds = !violations.isEmpty && fractionalOnly
    }
}
