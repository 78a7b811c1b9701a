import Foundation

/// Fixed instants used by tests; never the wall clock.
public enum TestClock {
    /// Parses `YYYY-MM-DDTHH:MM:SSZ`.
    public static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { fatalError("bad test date \(text)") }
        return date
    }
}
