import CCurl
import Foundation
import Synchronization

/// Runs every outbound transfer of one ``OutboundFetcher`` on one libcurl multi handle, driven by one thread that
/// waits in `curl_multi_poll` (libcurl's own wait, the only loop of ours): no Dispatch worker or Swift task is held
/// while a server is slow, so a hostile issuer server slows nothing else.
///
/// At most `maximumTransfers` transfers run at once, and at most `maximumPerDestination` to one `host:port`; the rest
/// wait in order. Each transfer carries the deadline of the fetch that asked for it, counted from when it was asked:
/// one still waiting at its deadline ends then without starting, and one running gets only what is left of it. The
/// thread starts with the first transfer and ends after a while with nothing to do.
final class FetchDriver: @unchecked Sendable {
    /// One asked-for transfer. Sendable by hand: its transfer is touched only by the driver thread once submitted.
    final class Job: @unchecked Sendable {
        let transfer: CurlTransfer
        let deadline: ContinuousClock.Instant
        /// The fetch's whole time, for the error text.
        let timeout: TimeInterval
        let complete: @Sendable (Result<CurlTransfer.Answer, FetchError>) -> Void

        init(transfer: CurlTransfer, deadline: ContinuousClock.Instant, timeout: TimeInterval,
             complete: @escaping @Sendable (Result<CurlTransfer.Answer, FetchError>) -> Void) {
            self.transfer = transfer
            self.deadline = deadline
            self.timeout = timeout
            self.complete = complete
        }
    }

    struct State {
        var waiting: [Job] = []
        var threadRunning = false
    }

    let maximumTransfers: Int
    let maximumPerDestination: Int
    /// How long the thread stays with nothing to do before it ends.
    let idleSeconds: Double
    private let state = Mutex(State())
    /// The multi handle: created once, used by the driver thread (and `curl_multi_wakeup`, which is thread-safe).
    private let multi: UnsafeMutableRawPointer?
    // The driver thread's own: the running transfers by easy handle, and how many go to each destination.
    private var running: [UnsafeMutableRawPointer: Job] = [:]
    private var runningPerDestination: [String: Int] = [:]

    init(maximumTransfers: Int, maximumPerDestination: Int, idleSeconds: Double = 30) {
        self.maximumTransfers = max(1, maximumTransfers)
        self.maximumPerDestination = max(1, maximumPerDestination)
        self.idleSeconds = idleSeconds
        multi = CurlTransfer.initialized ? curl_multi_init() : nil
    }

    deinit {
        if let multi { curl_multi_cleanup(multi) }
    }

    /// Runs `transfer` within `deadline`, waiting for room first; completes exactly once.
    func submit(_ job: Job) {
        guard let multi else {
            job.complete(.failure(FetchError(.failed, "libcurl is unavailable")))
            return
        }
        let start = state.withLock { state -> Bool in
            state.waiting.append(job)
            guard !state.threadRunning else { return false }
            state.threadRunning = true
            return true
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "verifierd-fetch"
            thread.start()
        } else {
            curl_multi_wakeup(multi)
        }
    }

    private func run() {
        guard let multi else { return }
        var idleSince = ContinuousClock.now
        while true {
            let now = ContinuousClock.now
            let (start, late, stop) = admit(now: now, idleSince: idleSince)
            if stop { return }
            for job in late {
                job.complete(.failure(FetchError(.timedOut, "no complete answer within \(CurlTransfer.seconds(job.timeout)) s "
                                                 + "(still waiting for a free transfer at the deadline)")))
            }
            for job in start {
                let handle = job.transfer.handle
                guard job.transfer.startWithin(job.deadline - now), curl_multi_add_handle(multi, handle) == CURLM_OK else {
                    release(job.transfer.destination)
                    job.complete(.failure(FetchError(.failed, "libcurl refused the transfer")))
                    continue
                }
                running[handle] = job
            }
            var active: Int32 = 0
            _ = curl_multi_perform(multi, &active)
            var easy: UnsafeMutableRawPointer?
            var code = CURLE_OK
            while vd_curl_multi_next_done(multi, &easy, &code) == 1 {
                guard let easy, let job = running.removeValue(forKey: easy) else { continue }
                _ = curl_multi_remove_handle(multi, easy)
                release(job.transfer.destination)
                job.complete(job.transfer.outcome(code, timeout: job.timeout))
            }
            if !running.isEmpty || state.withLock({ !$0.waiting.isEmpty }) { idleSince = ContinuousClock.now }
            _ = curl_multi_poll(multi, nil, 0, Int32(pollMilliseconds()), nil)
        }
    }

    /// Under the lock: the waiting jobs that may start now (within both limits, in order), those whose deadline
    /// passed while waiting, and whether the thread should end (idle long enough, nothing waiting or running).
    private func admit(now: ContinuousClock.Instant, idleSince: ContinuousClock.Instant)
        -> (start: [Job], late: [Job], stop: Bool)
    {
        state.withLock { state in
            if state.waiting.isEmpty && running.isEmpty && now - idleSince >= .seconds(idleSeconds) {
                state.threadRunning = false
                return ([], [], true)
            }
            var start: [Job] = [], late: [Job] = [], kept: [Job] = []
            var total = running.count
            for job in state.waiting {
                if job.deadline <= now {
                    late.append(job)
                } else if total < maximumTransfers, runningPerDestination[job.transfer.destination, default: 0] < maximumPerDestination {
                    runningPerDestination[job.transfer.destination, default: 0] += 1
                    total += 1
                    start.append(job)
                } else {
                    kept.append(job)
                }
            }
            state.waiting = kept
            return (start, late, false)
        }
    }

    /// On the driver thread: one transfer to `destination` ended.
    private func release(_ destination: String) {
        runningPerDestination[destination] = runningPerDestination[destination].flatMap { $0 > 1 ? $0 - 1 : nil }
    }

    /// Until the next deadline of a waiting job, at most a second (libcurl shortens it for its own timers).
    private func pollMilliseconds() -> Int {
        let now = ContinuousClock.now
        let next = state.withLock { $0.waiting.map(\.deadline).min() }
        guard let next else { return 1000 }
        return max(1, min(1000, (next - now).wholeMilliseconds + 1))
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down (libcurl's timeouts and poll waits are in milliseconds).
    var wholeMilliseconds: Int {
        Int(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }
}
