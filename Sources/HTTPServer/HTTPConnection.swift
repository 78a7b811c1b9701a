#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import HTTPTypes
import ServerTLS

/// One accepted TCP connection: reads and parses requests, runs handlers, writes responses in order.
///
/// All mutable state is touched only on `queue` (a serial queue): socket readiness (``SocketReadiness``) and the
/// timer hop there, and so do handler results. That confinement is what makes the `@unchecked Sendable` sound; the
/// compiler cannot check it because Dispatch source handlers are not Sendable-checked on Linux.
final class HTTPConnection: @unchecked Sendable {
    enum Mode { case serve, reject }

    private enum Phase {
        case readingHead
        case readingBody
        case handling
        case writing
        case lingering
        case closed
    }

    private enum TimerKind { case none, header, body, idle, linger, write }

    let fd: Int32
    let queue: DispatchQueue
    /// The socket peer, and its text form (both made once, at accept).
    let peer: PeerAddress
    let remoteAddress: String
    private let context: ServerContext
    private let mode: Mode
    /// The mode, for the server's connection accounting (immutable).
    var modeForAccounting: Mode { mode }
    private var parser: HTTPRequestParser

    /// The socket in the server's readiness set (nil until set up, and once closed).
    private var registration: SocketReadiness.Registration?
    /// What the connection waits for: more bytes (reading a request, lingering) and room to write.
    private var wantsRead = false
    private var wantsWrite = false
    /// What the socket is armed for in the readiness set (one-shot: a report disarms it).
    private var armed: SocketReadiness.Events = []
    private var timer: (any DispatchSourceTimer)?
    private var timerKind: TimerKind = .none
    private var timerDeadline = DispatchTime.distantFuture
    /// When the one-shot Dispatch timer is set to fire. Re-arming to a later deadline leaves it alone: it fires
    /// early, sees the deadline moved and reschedules once, which saves a timer syscall on nearly every request.
    private var timerFiresAt = DispatchTime.distantFuture

    private var phase: Phase = .readingHead
    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    /// Set when the bytes being flushed end a response (as opposed to a `100 Continue`).
    private var responseInFlight = false
    private var closeAfterResponse = false
    private var draining = false
    private var requestsServed = 0
    private var lingerDiscarded = 0

    /// The TLS layer when the listener speaks TLS (set up on `queue`, used only there).
    private var tls: TLSStream?
    /// TLS: a read (handshake) needs the socket writable before it can go on.
    private var readWaitsForWritable = false
    /// TLS: a write needs the socket readable before it can go on.
    private var writeWaitsForReadable = false

    private var currentHead: ParsedRequestHead?
    private var headReceivedAt = ContinuousClock.now

    init(fd: Int32, peer: PeerAddress, context: ServerContext, mode: Mode, targetQueue: DispatchQueue) {
        self.fd = fd
        self.peer = peer
        self.remoteAddress = peer.description
        self.context = context
        self.mode = mode
        self.parser = HTTPRequestParser(limits: context.limits)
        self.queue = DispatchQueue(label: "http.connection", target: targetQueue)
    }

    // MARK: Lifecycle

    /// Sets up the sources and starts serving (or rejecting).
    func start() {
        queue.async { self.setUp() }
    }

    private func setUp() {
        guard phase != .closed else { return }  // closed (server shutdown) before it was set up
        if let identity = context.configuration.tls {
            // Over the connection limit a TLS client is closed without a handshake: no 503 is worth the CPU of one.
            guard mode == .serve, let stream = TLSStream(context: identity.context, fileDescriptor: fd) else {
                close()
                return
            }
            tls = stream
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
            armTimer(.header, context.configuration.headerReadTimeout)
        case .reject:
            let response = context.problemResponse(.serviceUnavailable, "the server is at its connection limit; retry later")
            closeAfterResponse = true
            phase = .writing
            responseInFlight = true
            suspendReading()
            enqueue(ResponseSerializer.serialize(response, requestID: RequestID.generate(), isHead: false, close: true))
        }
    }

    /// Server shutdown: close now if idle, otherwise finish the request in flight and close.
    func beginDrain() {
        queue.async {
            guard self.phase != .closed else { return }
            self.draining = true
            switch self.phase {
            case .readingHead:
                // Not in flight: idle, or a request head not complete yet.
                self.close()
            case .readingBody, .handling, .writing, .lingering, .closed:
                break
            }
        }
    }

    /// Closes the connection at once (shutdown deadline passed).
    func forceClose() {
        queue.async { self.close() }
    }

    /// Closes at once: out of the readiness set, then the descriptor. A report already on its way finds the
    /// connection closed and is dropped.
    private func close() {
        guard phase != .closed else { return }
        phase = .closed
        timer?.cancel()
        timer = nil
        if let registration {
            context.readiness.remove(registration)
            self.registration = nil
        }
        tls = nil
        outbound = []
        Socket.closeDescriptor(fd)
        context.connectionClosed(ObjectIdentifier(self))
    }

    // MARK: Timers

    private func armTimer(_ kind: TimerKind, _ after: Duration) {
        timerKind = kind
        timerDeadline = .now() + after.dispatchInterval
        if timerDeadline < timerFiresAt {
            timerFiresAt = timerDeadline
            timer?.schedule(deadline: timerDeadline)
        }
    }

    /// Disarming only forgets the deadline; a pending fire finds nothing to do.
    private func disarmTimer() {
        timerKind = .none
        timerDeadline = .distantFuture
    }

    private func onTimer() {
        timerFiresAt = .distantFuture  // one-shot: it has fired
        guard phase != .closed, timerKind != .none else { return }
        guard DispatchTime.now() >= timerDeadline else {
            // Early: the deadline moved later since the timer was set. Schedule it again.
            timerFiresAt = timerDeadline
            timer?.schedule(deadline: timerDeadline)
            return
        }
        let kind = timerKind
        disarmTimer()
        switch kind {
        case .header:
            if parser.isIdle {
                close()  // nothing received: just close
            } else {
                sendError(.requestTimeout, "request header not received within \(context.configuration.headerReadTimeout)")
            }
        case .body:
            sendError(.requestTimeout, "request body not received within \(context.configuration.bodyReadTimeout)")
        case .idle, .linger, .write:
            close()
        case .none:
            break
        }
    }

    // MARK: Reading

    /// A readiness report (on `queue`). The socket is disarmed now (one-shot); it is armed again for whatever the
    /// connection still waits for once the report is handled.
    private func onReady(_ events: SocketReadiness.Events) {
        armed = []
        guard phase != .closed else { return }
        if events.contains(.writable) && wantsWrite {
            onWritable()
        }
        if events.contains(.readable) && wantsRead && phase != .closed {
            onReadable()
        }
        updateInterest()
    }

    /// Arms the socket for what the connection waits for, unless it already is. Waiting for nothing leaves an
    /// earlier arming in place: a report then finds nothing wanted, which costs less than a system call per request.
    private func updateInterest() {
        guard phase != .closed, let registration else { return }
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
        guard phase != .closed, !wantsRead else { return }
        wantsRead = true
        updateInterest()
        readBufferedTLSInput()
    }

    /// Bytes TLS already decrypted raise no readiness report of their own: read them on a later turn. Not while
    /// lingering: the socket is then read as it is, so TLS's buffer never drains and this would repeat forever.
    private func readBufferedTLSInput() {
        guard tls?.hasBufferedInput == true, phase != .closed, phase != .lingering, wantsRead else { return }
        queue.async { self.onReadable() }
    }

    private enum ReadResult {
        case data(Int)
        case later
        case end
        case broken
    }

    /// One read from the transport: TLS (which also drives the handshake) or the plain socket. While lingering
    /// the bytes are discarded anyway, so they are taken from the socket as they are.
    private func readSome(_ base: UnsafeMutableRawPointer, _ count: Int) -> ReadResult {
        if let tls, phase != .lingering {
            switch tls.read(into: base, count: count) {
            case .transferred(let n): return .data(n)
            case .wantsReadable: return .later
            case .wantsWritable:
                readWaitsForWritable = true
                watchWritable()
                return .later
            case .closed: return .end
            case .failed: return .broken
            }
        }
        while true {
            let n = recv(fd, base, count, Int32(MSG_DONTWAIT))
            if n > 0 { return .data(n) }
            if n == 0 { return .end }
            let e = errno
            if e == EINTR { continue }
            return e == EAGAIN || e == EWOULDBLOCK ? .later : .broken
        }
    }

    private func onReadable() {
        guard phase != .closed else { return }
        if writeWaitsForReadable {
            writeWaitsForReadable = false
            flush()
            guard phase != .closed else { return }
        }
        let chunk = 16 * 1024
        withUnsafeTemporaryAllocation(byteCount: chunk, alignment: 16) { buf in
            guard let base = buf.baseAddress else { return }
            var rounds = 0
            while rounds < 4 && phase != .closed && wantsRead {
                rounds += 1
                switch readSome(base, chunk) {
                case .data(let n):
                    received(UnsafeRawBufferPointer(start: base, count: n))
                    // A short plain read emptied the socket; TLS returns one record at a time, so it reads on.
                    if n < chunk && (tls == nil || phase == .lingering) { return }
                case .later:
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
        switch phase {
        case .lingering:
            lingerDiscarded += bytes.count
            if lingerDiscarded > 16 * 1024 * 1024 { close() }
        case .readingHead, .readingBody:
            if case .readingHead = phase, timerKind == .idle {
                armTimer(.header, context.configuration.headerReadTimeout)
            }
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
        switch phase {
        case .handling, .writing:
            // Finish the response, then close.
            closeAfterResponse = true
            suspendReading()
        default:
            close()
        }
    }

    /// Runs the parser over buffered bytes until it needs more, a request is complete, or it fails.
    private func processInput() {
        while phase == .readingHead || phase == .readingBody {
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
                phase = .readingBody
                armTimer(.body, context.configuration.bodyReadTimeout)
                if head.expectContinue && parser.bufferedByteCount == 0 {
                    enqueue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                }
            case .body(let body):
                guard let head = currentHead else { return }
                phase = .handling
                disarmTimer()
                suspendReading()
                dispatch(head: head, body: body)
                return
            }
        }
    }

    // MARK: Handling

    private func dispatch(head: ParsedRequestHead, body: [UInt8]) {
        let (path, query) = RequestTarget.split(head.target)
        let incomingID = head.fields[HTTPField.Name.xRequestID]
        let requestID = RequestID.validated(incomingID, maxLength: context.configuration.maxRequestIDLength) ?? RequestID.generate()
        let isHead = head.method == .head
        let started = headReceivedAt
        let clientCertificate = tls?.clientCertificate
        let match = context.router.match(method: head.method, path: path)

        if requiresClientCertificate(path: path, match: match), clientCertificate?.chainsToClientCA != true {
            let detail = clientCertificate == nil
                ? "this route needs a client certificate"
                : "the client certificate does not chain to the configured client CA"
            finish(context.problemResponse(.clientCertificateRequired, detail), head: head, requestID: requestID,
                   pattern: nil, errorCode: .clientCertificateRequired, bodyCount: body.count, started: started,
                   isHead: isHead)
            return
        }

        switch match {
        case .notFound:
            finish(context.problemResponse(.notFound, "no route for \(path)"), head: head, requestID: requestID,
                   pattern: nil, errorCode: .notFound, bodyCount: body.count, started: started, isHead: isHead)
        case .badPath:
            finish(context.problemResponse(.malformedRequest, "invalid percent-encoding in the path"), head: head,
                   requestID: requestID, pattern: nil, errorCode: .malformedRequest, bodyCount: body.count,
                   started: started, isHead: isHead)
        case .methodNotAllowed(let allowed):
            var response = context.problemResponse(.methodNotAllowed, "\(head.method.rawValue) is not allowed on \(path)")
            response.head.headerFields[.allow] = allowed.joined(separator: ", ")
            finish(response, head: head, requestID: requestID, pattern: nil, errorCode: .methodNotAllowed,
                   bodyCount: body.count, started: started, isHead: isHead)
        case .found(let handler, let pattern, let parameters):
            let request = HTTPServerRequest(
                head: HTTPRequest(method: head.method, scheme: nil, authority: head.authority, path: head.target,
                                  headerFields: head.fields),
                body: body,
                pathParameters: parameters,
                path: path,
                queryItems: RequestTarget.queryItems(query),
                requestID: requestID,
                routePattern: pattern,
                remoteAddress: remoteAddress,
                clientCertificate: clientCertificate
            )
            if case .immediate(let answer) = handler {
                finish(answer(request), head: head, requestID: requestID, pattern: pattern, errorCode: nil,
                       bodyCount: request.body.count, started: started, isHead: isHead)
                return
            }
            guard case .task(let handler) = handler else { return }
            let context = self.context
            Task {
                let response: HTTPServerResponse
                let errorCode: HTTPServerErrorKind?
                do {
                    response = try await handler(request)
                    errorCode = nil
                } catch {
                    response = context.problemResponse(.internalError, "the request handler failed")
                    errorCode = .internalError
                }
                self.queue.async {
                    self.finish(response, head: head, requestID: requestID, pattern: pattern, errorCode: errorCode,
                                bodyCount: request.body.count, started: started, isHead: isHead)
                }
            }
        }
    }

    /// Whether the path, as sent or as routed, falls under a prefix that needs a client certificate.
    private func requiresClientCertificate(path: String, match: Router.Match) -> Bool {
        let prefixes = context.configuration.clientCertificateRequiredPrefixes
        guard !prefixes.isEmpty else { return false }
        var pattern = ""
        if case .found(_, let p, _) = match { pattern = p }
        return prefixes.contains { path.hasPrefix($0) || (!pattern.isEmpty && pattern.hasPrefix($0)) }
    }

    private func finish(_ response: HTTPServerResponse, head: ParsedRequestHead, requestID: String, pattern: String?,
                        errorCode: HTTPServerErrorKind?, bodyCount: Int, started: ContinuousClock.Instant, isHead: Bool) {
        guard phase == .handling else { return }
        let close = closeAfterResponse || draining || head.wantsClose
            || requestsServed + 1 >= context.configuration.maxRequestsPerConnection
        closeAfterResponse = close
        phase = .writing
        responseInFlight = true
        let bytes = ResponseSerializer.serialize(response, requestID: requestID, isHead: isHead, close: close)
        report(method: head.method.rawValue, path: RequestTarget.split(head.target).path, pattern: pattern,
               status: response.head.status.code, errorCode: errorCode, requestID: requestID,
               bodyIn: bodyCount, bodyOut: isHead ? 0 : response.body.count, started: started,
               annotations: response.logAnnotations)
        enqueue(bytes)
    }

    /// Answers an error the server detected itself and closes the connection afterwards.
    private func sendError(_ kind: HTTPServerErrorKind, _ detail: String) {
        guard phase == .readingHead || phase == .readingBody else { close(); return }
        disarmTimer()
        let incomingID = currentHead?.fields[HTTPField.Name.xRequestID] ?? parser.currentRequestID
        let requestID = RequestID.validated(incomingID, maxLength: context.configuration.maxRequestIDLength) ?? RequestID.generate()
        let response = context.problemResponse(kind, detail)
        let isHead = currentHead?.method == .head
        closeAfterResponse = true
        phase = .writing
        responseInFlight = true
        // Stop reading the rest of the request: the connection will be half-closed and drained.
        suspendReading()
        let method = currentHead?.method.rawValue ?? parser.currentMethod ?? "-"
        let target = currentHead?.target ?? parser.currentTarget ?? "-"
        report(method: method, path: RequestTarget.split(target).path, pattern: nil, status: response.head.status.code,
               errorCode: kind, requestID: requestID, bodyIn: 0, bodyOut: response.body.count,
               started: currentHead == nil ? .now : headReceivedAt)
        enqueue(ResponseSerializer.serialize(response, requestID: requestID, isHead: isHead, close: true))
    }

    private func report(method: String, path: String, pattern: String?, status: Int, errorCode: HTTPServerErrorKind?,
                        requestID: String, bodyIn: Int, bodyOut: Int, started: ContinuousClock.Instant,
                        annotations: [String: String] = [:]) {
        guard let observer = context.observer else { return }
        observer(HTTPRequestLogRecord(
            requestID: requestID, method: method, path: path, routePattern: pattern, status: status,
            errorCode: errorCode?.rawValue, duration: ContinuousClock.now - started, requestBodyBytes: bodyIn,
            responseBodyBytes: bodyOut, remoteAddress: remoteAddress, clientAddress: peer.host, clientPort: peer.port,
            annotations: annotations))
    }

    /// Called when a whole response has been handed to the kernel.
    private func responseWritten() {
        guard phase != .closed else { return }
        requestsServed += 1
        currentHead = nil
        if closeAfterResponse || draining {
            startLingeringClose()
            return
        }
        phase = .readingHead
        if parser.isIdle {
            armTimer(.idle, context.configuration.idleTimeout)
        } else {
            armTimer(.header, context.configuration.headerReadTimeout)
        }
        processInput()
    }

    /// Half-closes, then reads and discards what the client still sends, so it sees the response and not a reset.
    private func startLingeringClose() {
        guard phase != .closed else { return }
        phase = .lingering
        tls?.sendCloseNotify()
        shutdown(fd, Int32(SHUT_WR))
        armTimer(.linger, context.configuration.lingerTimeout)
        resumeReading()
    }

    // MARK: Writing

    private func enqueue(_ bytes: [UInt8]) {
        guard phase != .closed else { return }
        if outboundOffset == outbound.count {
            outbound = bytes
            outboundOffset = 0
        } else {
            outbound.append(contentsOf: bytes)
        }
        flush()
    }

    private enum WriteResult {
        case wrote(Int)
        case wouldBlock
        case needsReadable
        case broken
    }

    /// One write to the transport: TLS or the plain socket.
    private func writeSome(_ base: UnsafeRawPointer, _ count: Int) -> WriteResult {
        if let tls {
            switch tls.write(base, count: count) {
            case .transferred(let n): return .wrote(n)
            case .wantsWritable: return .wouldBlock
            case .wantsReadable: return .needsReadable
            case .closed, .failed: return .broken
            }
        }
        while true {
            let n = Socket.sendNoSignal(fd, base, count)
            if n > 0 { return .wrote(n) }
            if n < 0 && errno == EINTR { continue }
            return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? .wouldBlock : .broken
        }
    }

    private func flush() {
        guard phase != .closed else { return }
        var progressed = false
        while outboundOffset < outbound.count {
            let result = outbound.withUnsafeBytes { p -> WriteResult in
                guard let base = p.baseAddress else { return .broken }
                return writeSome(base + outboundOffset, outbound.count - outboundOffset)
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
            guard phase != .closed else { return }  // the set refused the socket
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
        if phase == .writing && (progressed || timerKind != .write) {
            armTimer(.write, context.configuration.writeTimeout)
        }
    }

    /// Waits for room to write (or, for TLS, for the write a read needs).
    private func watchWritable() {
        guard phase != .closed else { return }
        wantsWrite = true
        updateInterest()
    }

    /// Room to write: first the read that waited for it (TLS), then the bytes waiting to go.
    private func onWritable() {
        if readWaitsForWritable {
            readWaitsForWritable = false
            onReadable()
            guard phase != .closed else { return }
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
