import CBOR
import Encodings
import Foundation

/// ISO 18013-5 dates: `tdate` (RFC 3339 date-time, tag 0) and `full-date` (RFC 3339 full-date, tag 1004).
public enum TDate {
    /// A tdate item: tag 0 around an RFC 3339 string (an untagged string is tolerated), fractional seconds and
    /// offsets allowed.
    public static func date(from item: CBORItem) -> Date? {
        var text = item.textValue
        if let (tag, inner) = item.tagged, tag == CBORTag.dateTimeString { text = inner.textValue }
        return text.flatMap(parse)
    }

    /// Why `item` breaks the ISO 18013-5 9.1.2.4 profile of the MSO's timestamps (tag 0 around
    /// `YYYY-MM-DDTHH:MM:SSZ`: UTC, no fractional seconds), or nil when it keeps to it.
    public static func profileViolation(_ item: CBORItem) -> String? {
        guard let (tag, inner) = item.tagged, tag == CBORTag.dateTimeString else {
            return "is not tagged 0 (tdate)"
        }
        guard let text = inner.textValue else { return "is not a text string" }
        let b = Array(text.utf8)
        if b.count > 19, b[19] == UInt8(ascii: ".") { return "\"\(text)\" has fractional seconds" }
        guard b.count == 20, b[10] == UInt8(ascii: "T"), b[19] == UInt8(ascii: "Z") else {
            return "\"\(text)\" is not UTC in the form YYYY-MM-DDTHH:MM:SSZ"
        }
        return nil
    }

    /// Whether `item` breaks the profile only by fractional seconds: tag 0 around `YYYY-MM-DDTHH:MM:SS.f+Z` (one to
    /// nine digits), UTC. The one timestamp deviation a lenient anchor may be granted.
    public static func hasOnlyFractionalSeconds(_ item: CBORItem) -> Bool {
        guard let (tag, inner) = item.tagged, tag == CBORTag.dateTimeString, let text = inner.textValue else { return false }
        let b = Array(text.utf8)
        guard b.count >= 22, b.count <= 30, b[10] == UInt8(ascii: "T"), b[19] == UInt8(ascii: "."),
              b[b.count - 1] == UInt8(ascii: "Z"), parse(text) != nil
        else { return false }
        return b[20..<(b.count - 1)].allSatisfy { (0x30...0x39).contains($0) }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)` strictly.
    public static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 20, b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              let days = FullDate.daysSinceEpoch(b[0..<10]),
              let hour = digits(b[11..<13]), let minute = digits(b[14..<16]), let second = digits(b[17..<19]),
              hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if b[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            var scale = 0.1
            while index < b.count, let d = digit(b[index]) {
                fraction += Double(d) * scale
                scale /= 10
                index += 1
            }
            guard index > start, index - start <= 9 else { return nil }
        }
        guard index < b.count else { return nil }
        var offset = 0
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard b.count == index + 6, b[index + 3] == UInt8(ascii: ":"),
                  let oh = digits(b[(index + 1)..<(index + 3)]), let om = digits(b[(index + 4)..<(index + 6)]),
                  oh < 24, om < 60
            else { return nil }
            offset = (oh * 60 + om) * 60 * (b[index] == UInt8(ascii: "+") ? 1 : -1)
            index += 6
        default:
            return nil
        }
        guard index == b.count else { return nil }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    static func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }

    static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard let d = digit(byte) else { return nil }
            value = value * 10 + d
        }
        return value
    }
}

/// RFC 3339 `full-date` strings.
public enum FullDate {
    /// Whether `text` is a valid `YYYY-MM-DD` date.
    public static func isValid(_ text: String) -> Bool {
        daysSinceEpoch(Array(text.utf8)[...]) != nil
    }

    /// Days from 1970-01-01 to a `YYYY-MM-DD` date (civil calendar), or nil when it is not one.
    static func daysSinceEpoch(_ b: ArraySlice<UInt8>) -> Int? {
        guard b.count == 10, b[b.startIndex + 4] == UInt8(ascii: "-"), b[b.startIndex + 7] == UInt8(ascii: "-"),
              let year = TDate.digits(b[b.startIndex..<(b.startIndex + 4)]),
              let month = TDate.digits(b[(b.startIndex + 5)..<(b.startIndex + 7)]),
              let day = TDate.digits(b[(b.startIndex + 8)..<(b.startIndex + 10)]),
              (1...12).contains(month), day >= 1
        else { return nil }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= monthDays[month - 1] else { return nil }
        return Int(RFC3339Timestamp.daysSinceEpoch(year: year, month: month, day: day))
    }
}
