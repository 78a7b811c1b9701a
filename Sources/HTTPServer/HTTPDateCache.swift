#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) for the current second, formatted once per second.
final class HTTPDateCache: Sendable {
    static let shared = HTTPDateCache()

    private let cached = Mutex<(second: Int, bytes: [UInt8])>((-1, []))

    /// The `Date` field value for now.
    func current() -> [UInt8] {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let second = Int(ts.tv_sec)
        return cached.withLock { c in
            if c.second != second {
                c = (second, HTTPDateCache.format(epochSeconds: second))
            }
            return c.bytes
        }
    }

    static func format(epochSeconds: Int) -> [UInt8] {
        var t = time_t(epochSeconds)
        var tmv = tm()
        gmtime_r(&t, &tmv)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let wday = Int(tmv.tm_wday) % 7
        let mon = Int(tmv.tm_mon) % 12
        let s = "\(days[wday]), \(two(tmv.tm_mday)) \(months[mon]) \(tmv.tm_year + 1900) \(two(tmv.tm_hour)):\(two(tmv.tm_min)):\(two(tmv.tm_sec)) GMT"
        return Array(s.utf8)
    }
}
