import CBOR
import Foundation

/// The MSO's `validityInfo`.
public struct ValidityInfo: Sendable, Equatable {
    public let signed: Date
    public let validFrom: Date
    public let validUntil: Date
    public let expectedUpdate: Date?

    init(_ item: CBORItem) throws(MDocDecodingError) {
        let reader = try StructureReader(item, "ValidityInfo")
        func date(_ key: String) throws(MDocDecodingError) -> Date {
            let value = try reader.required(key)
            guard let date = TDate.date(from: value) else {
                throw MDocDecodingError("validityInfo.\(key) is not a tdate", offset: value.offset)
            }
            return date
        }
        signed = try date("signed")
        validFrom = try date("validFrom")
        validUntil = try date("validUntil")
        expectedUpdate = reader.optional("expectedUpdate") == nil ? nil : try date("expectedUpdate")
    }
}
