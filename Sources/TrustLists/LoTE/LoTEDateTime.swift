import Encodings
import Foundation

/// Date-times as TS 119 602 6.1.3 writes them, `YYYY-MM-DDThh:mm:ssZ` (UTC, whole seconds), and the RFC 3339 form
/// of the JAdES `sigT` header parameter.
enum LoTEDateTime {
    /// `YYYY-MM-DDThh:mm:ssZ` exactly: no fraction, no offset, no lowercase `t` or `z`.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[19] == UInt8(ascii: "Z") else { return nil }
        return wholeSeconds(bytes, lowercaseT: false).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// RFC 3339 `date-time`: the above, or with a fraction of a second and a numeric offset.
    static func parseRFC3339(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 64, var seconds = wholeSeconds(bytes, lowercaseT: true) else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, digit(bytes[index]) != nil { index += 1 }
            guard index > start, let value = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self)) else {
                return nil
            }
            fraction = value
        }
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                  let hours = number(bytes, index + 1, 2), let minutes = number(bytes, index + 4, 2), hours < 24, minutes < 60
            else { return nil }
            let offset = Int64(hours * 3600 + minutes * 60)
            seconds += bytes[index] == UInt8(ascii: "+") ? -offset : offset
        default:
            return nil
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
    }

    /// Seconds since 1970 of the first 19 bytes, `YYYY-MM-DDThh:mm:ss` (`t` for `T` too when `lowercaseT`).
    private static func wholeSeconds(_ bytes: [UInt8], lowercaseT: Bool) -> Int64? {
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T") || (lowercaseT && bytes[10] == UInt8(ascii: "t")),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
              let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        return RFC3339Timestamp.daysSinceEpoch(year: year, month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for index in start..<(start + count) {
            guard let digit = digit(bytes[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
