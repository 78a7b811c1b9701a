/// Where one connection is in its life, and what it decides at each event, with no I/O: ``HTTPConnection`` feeds it
/// what happened (a request head, a response ready or written, the peer gone, a timer, a drain) and carries out the
/// answer on the socket. As in swift-nio, every transition is one method a test can drive without a socket.
struct ConnectionState {
    enum Phase: Equatable {
        case readingHead
        case readingBody
        case handling
        case writing
        case lingering
        case closed
    }

    /// The deadline that runs, if any (the connection keeps its time).
    enum Timer: Equatable {
        case none, header, body, idle, linger, write
    }

    /// What a connection does once a response has gone out.
    enum AfterResponse: Equatable {
        /// Half-close and discard what the client still sends, then close.
        case linger
        /// Read the next request under `timer` (`.idle` with nothing buffered, else `.header`).
        case readNext(Timer)
    }

    /// What a timer that fired means.
    enum Expiry: Equatable {
        /// Close without a word (an idle connection, a lingering one, a client that stopped reading).
        case close
        /// Answer 408 and close: a request head or body did not arrive in time.
        case refuse(Timer)
        case nothing
    }

    private(set) var phase: Phase = .readingHead
    private(set) var timer: Timer = .none
    private(set) var closeAfterResponse = false
    private(set) var draining = false
    private(set) var requestsServed = 0
    private var lingerDiscarded = 0
    /// Requests served on one connection before it closes.
    let maximumRequests: Int
    /// Bytes discarded while lingering before the connection gives up on the client.
    static let maximumLingerBytes = 16 * 1024 * 1024

    init(maximumRequests: Int) {
        self.maximumRequests = maximumRequests
    }

    var isClosed: Bool { phase == .closed }
    var isReadingRequest: Bool { phase == .readingHead || phase == .readingBody }

    /// A deadline starts (or restarts).
    mutating func arm(_ timer: Timer) {
        self.timer = timer
    }

    /// The deadline is forgotten (a pending fire then finds nothing to do).
    mutating func disarm() {
        timer = .none
    }

    /// Over the connection limit: one 503, then close.
    mutating func rejecting() {
        closeAfterResponse = true
        phase = .writing
    }

    /// Bytes arrived while a request was being read: a connection that was idle now waits for a whole head.
    mutating func bytesArrivedForRequest() -> Timer? {
        guard phase == .readingHead, timer == .idle else { return nil }
        timer = .header
        return .header
    }

    /// Bytes arrived while lingering: true when the client sent too much and the connection closes.
    mutating func discardedWhileLingering(_ count: Int) -> Bool {
        lingerDiscarded += count
        return lingerDiscarded > Self.maximumLingerBytes
    }

    /// A request head is complete: its body is read under the body deadline.
    mutating func headReceived() {
        phase = .readingBody
        timer = .body
    }

    /// The request is complete: it is handled, with reading suspended and no deadline.
    mutating func requestComplete() {
        phase = .handling
        timer = .none
    }

    /// The handler answered: whether the connection closes after this response (nil when it is not handling, e.g.
    /// closed meanwhile).
    mutating func responseReady(clientWantsClose: Bool) -> Bool? {
        guard phase == .handling else { return nil }
        let close = closeAfterResponse || draining || clientWantsClose || requestsServed + 1 >= maximumRequests
        closeAfterResponse = close
        phase = .writing
        return close
    }

    /// The server answers an error itself (a request it could not read): false when no request is being read, and
    /// the connection closes at once instead.
    mutating func refusing() -> Bool {
        guard isReadingRequest else { return false }
        timer = .none
        closeAfterResponse = true
        phase = .writing
        return true
    }

    /// A whole response went to the kernel.
    mutating func responseWritten(bufferedInput: Bool) -> AfterResponse? {
        guard phase != .closed else { return nil }
        requestsServed += 1
        if closeAfterResponse || draining { return .linger }
        phase = .readingHead
        timer = bufferedInput ? .header : .idle
        return .readNext(timer)
    }

    /// The half-close is sent: discard what comes until the linger deadline.
    mutating func lingering() {
        guard phase != .closed else { return }
        phase = .lingering
        timer = .linger
    }

    /// The peer closed its side: true to close now, false to finish the response first (then close).
    mutating func peerClosed() -> Bool {
        switch phase {
        case .handling, .writing:
            closeAfterResponse = true
            return false
        default:
            return true
        }
    }

    /// The server stops: true to close now (idle, or a head not complete), false to finish the request in flight.
    mutating func drain() -> Bool {
        guard phase != .closed else { return false }
        draining = true
        return phase == .readingHead
    }

    /// The running deadline passed.
    mutating func expired() -> Expiry {
        let fired = timer
        timer = .none
        switch fired {
        case .header, .body: return .refuse(fired)
        case .idle, .linger, .write: return .close
        case .none: return .nothing
        }
    }

    /// The connection is closed; every later event finds it so.
    mutating func close() {
        phase = .closed
    }
}
