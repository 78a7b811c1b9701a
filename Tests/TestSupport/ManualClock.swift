import Foundation
import Synchronization

/// A clock the test moves by hand (for expiry), shared with the service under test.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date) {
        current = Mutex(start)
    }

    public var now: Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
