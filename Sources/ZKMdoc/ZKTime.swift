import Foundation

/// The time a Longfellow proof states: exactly `YYYY-MM-DDTHH:MM:SSZ` (20 characters, UTC), proven to lie within the
/// MSO's validity. Wallets state the end of the current UTC day (Google Wallet: `…T23:59:59Z`), so freshness is a
/// window around the verifier's clock: not after the end of the verifier's UTC day (plus the clock skew), and not
/// more than `maximumAge` before now.
public enum ZKTime {
    /// Whether `text` is a UTC time in the proofs' form (digits where digits go, a real date).
    public static func isProofTime(_ text: String) -> Bool {
        date(text) != nil
    }

    /// The instant of a proof time; nil when it is not exactly that form.
    public static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A,
              bytes[19] == 0x5A
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month), (1...31).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components),
              calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: year, month: month, day: day)
        else { return nil }
        return date
    }

    /// Whether a proof time is fresh at `now`.
    public static func isFresh(_ text: String, now: Date, clockSkew: TimeInterval, maximumAge: TimeInterval) -> Bool {
        guard let time = date(text) else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let startOfDay = calendar.startOfDay(for: now)
        let endOfDay = startOfDay.addingTimeInterval(86_400 - 1)
        return time <= endOfDay.addingTimeInterval(clockSkew) && time >= now.addingTimeInterval(-maximumAge - clockSkew)
    }
}
