#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import HTTPTypes

/// One accepted TCP connection: moves bytes between the ``ConnectionTransport`` and the parser, lets
/// ``ConnectionState`` decide each step, has the ``RequestDispatcher`` answer each request, and writes the answers in
/// order.
///
/// All mutable state is touched only on `queue` (a serial queue): socket readiness (``SocketReadiness``) and the
/// timer hop there, and so do handler results. That confinement is what makes the `@unchecked Sendable` sound; the
/// compiler cannot check it because Dispatch source handlers are not Sendable-checked on Linux.
final class HTTPConnection: @unchecked Sendable {
    enum Mode { case serve, reject }

    let fd: Int32
    let queue: DispatchQueue
    /// The socket peer, and its text form (both made once, at accept).
    let peer: PeerAddress
    let remoteAddress: String
    private let context: ServerContext
    private let mode: Mode
    /// The mode, for the server's connection accounting (immutable).
    var modeForAccounting: Mode { mode }
    let transport: ConnectionTransport
    private let dispatcher: RequestDispatcher
    var state: ConnectionState
    private var parser: HTTPRequestParser

    /// The socket in the server's readiness set (nil until set up, and once closed).
    private var registration: SocketReadiness.Registration?
    /// What the connection waits for from the socket, and what the socket is armed for.
    var interest = ReadinessInterest()

    /// The deadline of ``ConnectionState/timer`` (nil until set up, and once closed).
    private var timer: DeadlineTimer?
    var outbound = OutboundBytes()
    /// Set when the bytes being flushed end a response (as opposed to a `100 Continue`).
    var responseInFlight = false

    private var currentHead: ParsedRequestHead?
    private var headReceivedAt = ContinuousClock.now

    init(fd: Int32, peer: PeerAddress, context: ServerContext, mode: Mode, targetQueue: DispatchQueue) {
        self.fd = fd
        self.peer = peer
        self.remoteAddress = peer.description
        self.context = context
        self.mode = mode
        self.transport = ConnectionTransport(fd: fd)
        self.dispatcher = RequestDispatcher(context: context, peer: peer, remoteAddress: peer.description)
        self.state = ConnectionState(maximumRequests: context.configuration.maxRequestsPerConnection)
        self.parser = HTTPRequestParser(limits: context.limits)
        self.queue = DispatchQueue(label: "http.connection", target: targetQueue)
    }

    // MARK: Lifecycle

    /// Sets up the sources and starts serving (or rejecting).
    func start() {
        queue.async { self.setUp() }
    }

    private func setUp() {
        guard !state.isClosed else { return }  // closed (server shutdown) before it was set up
        if let identity = context.configuration.tls {
            // Over the connection limit a TLS client is closed without a handshake: no 503 is worth the CPU of one.
            guard mode == .serve, transport.startTLS(identity) else {
                close()
                return
            }
        }
        interest.wantsRead = mode == .serve
        let initial = interest.wanted
        guard let registration = context.readiness.register(fd, interest: initial, handler: { [self] events in
            self.queue.async { self.onReady(events) }
        }) else {
            close()
            return
        }
        self.registration = registration
        interest.didArm(initial)

        timer = DeadlineTimer(queue: queue) { [self] in self.onTimer() }

        switch mode {
        case .serve:
            armTimer(.header)
        case .reject:
            let response = context.problemResponse(.serviceUnavailable, "the server is at its connection limit; retry later")
            state.rejecting()
            responseInFlight = true
            suspendReading()
            enqueue(ResponseSerializer.serialize(response, requestID: RequestID.generate(), isHead: false, close: true))
        }
    }

    /// Server shutdown: close now if idle, otherwise finish the request in flight and close.
    func beginDrain() {
        queue.async {
            if self.state.drain() { self.close() }
        }
    }

    /// Closes the connection at once (shutdown deadline passed).
    func forceClose() {
        queue.async { self.close() }
    }

    /// Closes at once: out of the readiness set, then the descriptor. A report already on its way finds the
    /// connection closed and is dropped.
    func close() {
        guard !state.isClosed else { return }
        state.close()
        timer?.cancel()
        timer = nil
        if let registration {
            context.readiness.remove(registration)
            self.registration = nil
        }
        outbound = OutboundBytes()
        transport.close()
        context.connectionClosed(ObjectIdentifier(self))
    }

    // MARK: Timers

    /// Starts (or restarts) `kind`'s deadline.
    func armTimer(_ kind: ConnectionState.Timer) {
        state.arm(kind)
        timer?.set(after: context.configuration.timeout(for: kind))
    }

    /// Disarming only forgets the deadline; a pending fire finds nothing to do.
    private func disarmTimer() {
        state.disarm()
        timer?.clear()
    }

    private func onTimer() {
        guard let timer, timer.deadlinePassed(), !state.isClosed, state.timer != .none else { return }
        switch state.expired() {
        case .refuse(.header) where parser.isIdle:
            close()  // nothing received: just close
        case .refuse(.header):
            sendError(.requestTimeout, "request header not received within \(context.configuration.headerReadTimeout)")
        case .refuse:
            sendError(.requestTimeout, "request body not received within \(context.configuration.bodyReadTimeout)")
        case .close:
            close()
        case .nothing:
            break
        }
    }

    // MARK: Reading

    /// A readiness report (on `queue`). The socket is disarmed now (one-shot); it is armed again for whatever the
    /// connection still waits for once the report is handled.
    private func onReady(_ events: SocketReadiness.Events) {
        interest.reported()
        guard !state.isClosed else { return }
        if events.contains(.writable) && interest.wantsWrite {
            onWritable()
        }
        if events.contains(.readable) && interest.wantsRead && !state.isClosed {
            onReadable()
        }
        updateInterest()
    }

    /// Arms the socket for what the connection waits for, unless it already is. Waiting for nothing leaves an
    /// earlier arming in place: a report then finds nothing wanted, which costs less than a system call per request.
    func updateInterest() {
        guard !state.isClosed, let registration, let events = interest.toArm else { return }
        guard context.readiness.arm(registration, for: events) else {
            close()
            return
        }
        interest.didArm(events)
    }

    private func suspendReading() {
        interest.wantsRead = false
    }

    func resumeReading() {
        guard !state.isClosed, !interest.wantsRead else { return }
        interest.wantsRead = true
        updateInterest()
        readBufferedTLSInput()
    }

    /// Bytes TLS already decrypted raise no readiness report of their own: read them on a later turn. Not while
    /// lingering: the socket is then read as it is, so TLS's buffer never drains and this would repeat forever.
    private func readBufferedTLSInput() {
        guard transport.hasBufferedInput, !state.isClosed, state.phase != .lingering, interest.wantsRead else { return }
        queue.async { self.onReadable() }
    }

    func onReadable() {
        guard !state.isClosed else { return }
        if interest.writeWaitsForReadable {
            interest.writeWaitsForReadable = false
            flush()
            guard !state.isClosed else { return }
        }
        let chunk = 16 * 1024
        withUnsafeTemporaryAllocation(byteCount: chunk, alignment: 16) { buf in
            guard let base = buf.baseAddress else { return }
            var rounds = 0
            while rounds < 4 && !state.isClosed && interest.wantsRead {
                rounds += 1
                // While lingering the bytes are discarded anyway, so they are taken from the socket as they are.
                let lingering = state.phase == .lingering
                switch transport.read(into: base, count: chunk, raw: lingering) {
                case .data(let n):
                    received(UnsafeRawBufferPointer(start: base, count: n))
                    // A short plain read emptied the socket; TLS returns one record at a time, so it reads on.
                    if n < chunk && (!transport.isTLS || state.phase == .lingering) { return }
                case .later:
                    return
                case .needsWritable:
                    interest.readWaitsForWritable = true
                    watchWritable()
                    return
                case .end:
                    peerClosed()
                    return
                case .broken:
                    close()
                    return
                }
            }
        }
        readBufferedTLSInput()
    }

    private func received(_ bytes: UnsafeRawBufferPointer) {
        switch state.phase {
        case .lingering:
            if state.discardedWhileLingering(bytes.count) { close() }
        case .readingHead, .readingBody:
            if state.bytesArrivedForRequest() != nil { armTimer(.header) }
            parser.append(bytes)
            processInput()
        case .handling, .writing:
            // Reading is suspended while a request is handled; bytes that raced in are kept for later.
            parser.append(bytes)
        case .closed:
            break
        }
    }

    private func peerClosed() {
        if state.peerClosed() {
            close()
        } else {
            // Finish the response, then close.
            suspendReading()
        }
    }

    /// Runs the parser over buffered bytes until it needs more, a request is complete, or it fails.
    private func processInput() {
        while state.isReadingRequest {
            let event: HTTPParserEvent?
            do {
                event = try parser.next()
            } catch {
                sendError(error.kind, error.detail)
                return
            }
            guard let event else {
                resumeReading()
                return
            }
            switch event {
            case .head(let head):
                currentHead = head
                headReceivedAt = .now
                state.headReceived()
                armTimer(.body)
                if head.expectContinue && parser.bufferedByteCount == 0 {
                    enqueue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                }
            case .body(let body):
                guard let head = currentHead else { return }
                state.requestComplete()
                timer?.clear()
                suspendReading()
                dispatcher.dispatch(head, body: body, clientCertificate: transport.clientCertificate, started: headReceivedAt,
                                    queue: queue) { [self] exchange in
                    self.answer(exchange, clientWantsClose: head.wantsClose)
                }
                return
            }
        }
    }

    // MARK: Answering

    /// Sends a handler's (or the dispatcher's) answer to the request being handled.
    private func answer(_ exchange: Exchange, clientWantsClose: Bool) {
        guard let close = state.responseReady(clientWantsClose: clientWantsClose) else { return }
        responseInFlight = true
        let bytes = ResponseSerializer.serialize(exchange.response, requestID: exchange.requestID, isHead: exchange.isHead,
                                                 close: close)
        dispatcher.log(exchange)
        enqueue(bytes)
    }

    /// Answers an error the server detected itself and closes the connection afterwards.
    private func sendError(_ kind: HTTPServerErrorKind, _ detail: String) {
        guard state.refusing() else { close(); return }
        timer?.clear()
        let exchange = dispatcher.refusal(kind, detail, head: currentHead, parser: parser,
                                          started: currentHead == nil ? .now : headReceivedAt)
        responseInFlight = true
        // Stop reading the rest of the request: the connection will be half-closed and drained.
        suspendReading()
        dispatcher.log(exchange)
        enqueue(ResponseSerializer.serialize(exchange.response, requestID: exchange.requestID, isHead: exchange.isHead, close: true))
    }

    /// Called when a whole response has been handed to the kernel.
    func responseWritten() {
        currentHead = nil
        switch state.responseWritten(bufferedInput: !parser.isIdle) {
        case .linger:
            startLingeringClose()
        case .readNext(let timer):
            armTimer(timer)
            processInput()
        case nil:
            break
        }
    }

    /// Half-closes, then reads and discards what the client still sends, so it sees the response and not a reset.
    private func startLingeringClose() {
        guard !state.isClosed else { return }
        state.lingering()
        transport.shutdownWrite()
        armTimer(.linger)
        resumeReading()
    }
}
