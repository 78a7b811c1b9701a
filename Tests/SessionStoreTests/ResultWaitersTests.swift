import Foundation
import Testing
@testable import SessionStore

/// The long poll's registry: a fill wakes exactly the polls of its result, a wait ends at its time, a fill that
/// comes between a poll's store read and its registration is not lost, and nothing is left behind.
struct ResultWaitersTests {
    @Test func aFillWakesItsPollsOnly() async {
        let waiters = ResultWaiters()
        let clock = ContinuousClock()
        async let woken = { () async -> Duration in
            let start = clock.now
            _ = await waiters.wait(for: "a", timeout: .seconds(10))
            return clock.now - start
        }()
        async let other = { () async -> Duration in
            let start = clock.now
            _ = await waiters.wait(for: "b", timeout: .milliseconds(300))
            return clock.now - start
        }()
        try? await Task.sleep(for: .milliseconds(100))
        waiters.filled("a")
        let (a, b) = await (woken, other)
        #expect(a < .seconds(2), "the poll of a was woken by its fill: \(a)")
        #expect(b >= .milliseconds(290), "the poll of b waited for its own time: \(b)")
    }

    @Test func aWaitEndsAtItsTimeAndAFillWithNoPollIsRememberedForTheNext() async {
        let waiters = ResultWaiters()
        let clock = ContinuousClock()
        var start = clock.now
        #expect(await waiters.wait(for: "x", timeout: .milliseconds(50)))
        #expect(clock.now - start >= .milliseconds(45))
        // A fill with nobody registered changes nothing for later polls of another result.
        waiters.filled("x")
        start = clock.now
        _ = await waiters.wait(for: "y", timeout: .milliseconds(50))
        #expect(clock.now - start >= .milliseconds(45))
    }

    @Test func manyPollsAreWokenByOneFill() async {
        let waiters = ResultWaiters()
        let clock = ContinuousClock()
        let start = clock.now
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask { _ = await waiters.wait(for: "shared", timeout: .seconds(10)) }
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(200))
                waiters.filled("shared")
            }
        }
        #expect(clock.now - start < .seconds(3))
    }
}
