import Foundation

/// Times as the tables store them: whole milliseconds since 1970 (`bigint`), rounded down.
enum StoredTime {
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
