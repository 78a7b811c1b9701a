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
    private let transport: ConnectionTransport
    private let dispatcher: RequestDispatcher
    private var state: ConnectionState
    private var parser: HTTPRequestParser

    /// The socket in the server's readiness set (nil until set up, and once closed).
    private var registration: SocketReadiness.Registration?
    /// What the connection waits for: more bytes (reading a request, lingering) and room to write.
    private var wantsRead = false
    private var wantsWrite = false
    /// What the socket is armed for in the readiness set (one-shot: a report disarms it).
    private var armed: SocketReadiness.Events = []
    /// TLS: a read (handshake) needs the socket writable before it can go on.
    private var readWaitsForWritable = false
    /// TLS: a write needs the socket readable before it can go on.
    private var writeWaitsForReadable = false

    private var timer: (any DispatchSourceTimer)?
    private var timerDeadline = DispatchTime.distantFuture
    /// When the one-shot Dispatch timer is set to fire. Re-arming to a later deadline leaves it alone: it fires
    /// early, sees the deadline moved and reschedules once, which saves a timer syscall on nearly every request.
    private var timerFiresAt = DispatchTime.distantFuture

    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    /// Set when the bytes being flushed end a response (as opposed to a `100 Continue`).
    private var responseInFlight = false

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
        wantsRead = mode == .serve
        let interest: SocketReadiness.Events = wantsRead ? .readable : []
        guard let registration = context.readiness.register(fd, interest: interest, handler: { [self] events in
            self.queue.async { self.onReady(events) }
        }) else {
            close()
            return
        }
        self.registration = registration
        armed = interest

        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [self] in self.onTimer() }
        timer.schedule(deadline: .distantFuture)
        self.timer = timer
        timer.resume()

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
    private func close() {
        guard !state.isClosed else { return }
        state.close()
        timer?.cancel()
        timer = nil
        if let registration {
            context.readiness.remove(registration)
            self.registration = nil
        }
        outbound = []
        transport.close()
        context.connectionClosed(ObjectIdentifier(self))
    }

    // MARK: Timers

    /// Starts (or restarts) `kind`'s deadline.
    private func armTimer(_ kind: ConnectionState.Timer) {
        state.arm(kind)
        timerDeadline = .now() + duration(of: kind).dispatchInterval
        if timerDeadline < timerFiresAt {
            timerFiresAt = timerDeadline
            timer?.schedule(deadline: timerDeadline)
        }
    }

    private func duration(of kind: ConnectionState.Timer) -> Duration {
        let configuration = context.configuration
        switch kind {
        case .header: return configuration.headerReadTimeout
        case .body: return configuration.bodyReadTimeout
        case .idle: return configuration.idleTimeout
        case .linger: return configuration.lingerTimeout
        case .write: return configuration.writeTimeout
        case .none: return .zero
        }
    }

    /// Disarming only forgets the deadline; a pending fire finds nothing to do.
    private func disarmTimer() {
        state.disarm()
        timerDeadline = .distantFuture
    }

    private func onTimer() {
        timerFiresAt = .distantFuture  // one-shot: it has fired
        guard !state.isClosed, state.timer != .none else { return }
        guard DispatchTime.now() >= timerDeadline else {
            // Early: the deadline moved later since the timer was set. Schedule it again.
            timerFiresAt = timerDeadline
            timer?.schedule(deadline: timerDeadline)
            return
        }
        timerDeadline = .distantFuture
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
        armed = []
        guard !state.isClosed else { return }
        if events.contains(.writable) && wantsWrite {
            onWritable()
        }
        if events.contains(.readable) && wantsRead && !state.isClosed {
            onReadable()
        }
        updateInterest()
    }

    /// Arms the socket for what the connection waits for, unless it already is. Waiting for nothing leaves an
    /// earlier arming in place: a report then finds nothing wanted, which costs less than a system call per request.
    private func updateInterest() {
        guard !state.isClosed, let registration else { return }
        var wanted: SocketReadiness.Events = []
        if wantsRead { wanted.insert(.readable) }
        if wantsWrite { wanted.insert(.writable) }
        guard !wanted.isEmpty, wanted != armed else { return }
        guard context.readiness.arm(registration, for: wanted) else {
            close()
            return
        }
        armed = wanted
    }

    private func suspendReading() {
        wantsRead = false
    }

    private func resumeReading() {
        guard !state.isClosed, !wantsRead else { return }
        wantsRead = true
        updateInterest()
        readBufferedTLSInput()
    }

    /// Bytes TLS already decrypted raise no readiness report of their own: read them on a later turn. Not while
    /// lingering: the socket is then read as it is, so TLS's buffer never drains and this would repeat forever.
    private func readBufferedTLSInput() {
        guard transport.hasBufferedInput, !state.isClosed, state.phase != .lingering, wantsRead else { return }
        queue.async { self.onReadable() }
    }

    private func onReadable() {
        guard !state.isClosed else { return }
        if writeWaitsForReadable {
            writeWaitsForReadable = false
            flush()
            guard !state.isClosed else { return }
        }
        let chunk = 16 * 1024
        withUnsafeTemporaryAllocation(byteCount: chunk, alignment: 16) { buf in
            guard let base = buf.baseAddress else { return }
            var rounds = 0
            while rounds < 4 && !state.isClosed && wantsRead {
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
                    readWaitsForWritable = true
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
                timerDeadline = .distantFuture
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
        timerDeadline = .distantFuture
        let exchange = dispatcher.refusal(kind, detail, head: currentHead, parser: parser,
                                          started: currentHead == nil ? .now : headReceivedAt)
        responseInFlight = true
        // Stop reading the rest of the request: the connection will be half-closed and drained.
        suspendReading()
        dispatcher.log(exchange)
        enqueue(ResponseSerializer.serialize(exchange.response, requestID: exchange.requestID, isHead: exchange.isHead, close: true))
    }

    /// Called when a whole response has been handed to the kernel.
    private func responseWritten() {
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

    // MARK: Writing

    private func enqueue(_ bytes: [UInt8]) {
        guard !state.isClosed else { return }
        if outboundOffset == outbound.count {
            outbound = bytes
            outboundOffset = 0
        } else {
            outbound.append(contentsOf: bytes)
        }
        flush()
    }

    private func flush() {
        guard !state.isClosed else { return }
        var progressed = false
        while outboundOffset < outbound.count {
            let result = outbound.withUnsafeBytes { p -> ConnectionTransport.WriteResult in
                guard let base = p.baseAddress else { return .broken }
                return transport.write(base + outboundOffset, count: outbound.count - outboundOffset)
            }
            switch result {
            case .wrote(let n):
                outboundOffset += n
                progressed = true
            case .wouldBlock:
                waitWritable(progressed: progressed)
                return
            case .needsReadable:
                // TLS: the write goes on once the socket is readable. Room to write is no longer what it waits for
                // (a writable socket would report at once, again and again), and the write timeout still runs.
                writeWaitsForReadable = true
                wantsWrite = readWaitsForWritable
                restartWriteTimeout(progressed: progressed)
                resumeReading()
                updateInterest()
                return
            case .broken:
                close()
                return
            }
        }
        outbound.removeAll(keepingCapacity: outbound.capacity <= 64 * 1024)
        outboundOffset = 0
        if !readWaitsForWritable {
            wantsWrite = false
            updateInterest()
            guard !state.isClosed else { return }  // the set refused the socket
        }
        if responseInFlight {
            responseInFlight = false
            responseWritten()
        }
    }

    /// Waits for the socket to drain, under the write timeout.
    private func waitWritable(progressed: Bool) {
        restartWriteTimeout(progressed: progressed)
        watchWritable()
    }

    /// A response that cannot go on yet gets the write timeout, started again whenever the client took some bytes.
    private func restartWriteTimeout(progressed: Bool) {
        if state.phase == .writing && (progressed || state.timer != .write) {
            armTimer(.write)
        }
    }

    /// Waits for room to write (or, for TLS, for the write a read needs).
    private func watchWritable() {
        guard !state.isClosed else { return }
        wantsWrite = true
        updateInterest()
    }

    /// Room to write: first the read that waited for it (TLS), then the bytes waiting to go.
    private func onWritable() {
        if readWaitsForWritable {
            readWaitsForWritable = false
            onReadable()
            guard !state.isClosed else { return }
        }
        flush()
    }
}

extension HTTPField.Name {
    /// `X-Request-Id`.
    public static var xRequestID: HTTPField.Name { requestIDFieldName }
}

private let requestIDFieldName: HTTPField.Name = {
    guard let name = HTTPField.Name("X-Request-Id") else { preconditionFailure("valid literal field name") }
    return name
}()
