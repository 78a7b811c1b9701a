import Foundation

/// UTC timestamps in RFC 3339 form (`2026-11-23T09:30:00Z`, or with milliseconds `2026-11-23T09:30:00.123Z`),
/// written straight into a byte buffer with integer arithmetic. The text is what Foundation's ISO 8601 format
/// style writes for the same instant (seconds and milliseconds truncated); instants before 1583 (where Foundation's
/// calendar is Julian) or after 9999 are left to Foundation.
public enum RFC3339Timestamp {
    /// Appends the timestamp of `date` to `out`, with three fractional digits when `milliseconds` is true.
    public static func append(_ date: Date, milliseconds: Bool = false, into out: inout [UInt8]) {
        let interval = date.timeIntervalSince1970
        // 1583-01-01 ... 9999-12-31T23:59:59.
        guard interval.isFinite, interval >= -12_212_553_600, interval < 253_402_300_800 else {
            let style = Date.ISO8601FormatStyle(includingFractionalSeconds: milliseconds)
            out.append(contentsOf: date.formatted(style).utf8)
            return
        }
        let wholeSeconds = interval.rounded(.down)
        let seconds = Int64(wholeSeconds)
        let millis = min(999, Int((interval - wholeSeconds) * 1000))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(daysSinceEpoch: days)
        digits(year, 4, into: &out)
        out.append(UInt8(ascii: "-"))
        digits(month, 2, into: &out)
        out.append(UInt8(ascii: "-"))
        digits(day, 2, into: &out)
        out.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2, into: &out)
        out.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2, into: &out)
        out.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2, into: &out)
        if milliseconds {
            out.append(UInt8(ascii: "."))
            digits(millis, 3, into: &out)
        }
        out.append(UInt8(ascii: "Z"))
    }

    /// The timestamp as a string.
    public static func string(_ date: Date, milliseconds: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        append(date, milliseconds: milliseconds, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (the inverse of ``civil(daysSinceEpoch:)``); the caller
    /// has checked that the month and day exist.
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Year, month and day of the proleptic Gregorian calendar for a count of days since 1970-01-01 (the
    /// era-based conversion: 400-year eras of 146,097 days, years starting in March).
    static func civil(daysSinceEpoch: Int64) -> (year: Int, month: Int, day: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    private static func digits(_ value: Int, _ count: Int, into out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
