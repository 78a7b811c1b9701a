/// Writing: the bytes of the answers go out in order, as the socket takes them, under the write timeout.
extension HTTPConnection {
    /// Queues `bytes` after what is still to go, and writes what the socket takes now.
    func enqueue(_ bytes: [UInt8]) {
        guard !state.isClosed else { return }
        outbound.append(bytes)
        flush()
    }

    /// Writes until everything is sent, the socket is full (then waits for room), TLS needs a read first, or the
    /// connection broke; a response whose last byte went ends in ``responseWritten()``.
    func flush() {
        guard !state.isClosed else { return }
        var progressed = false
        while outbound.hasPending {
            let result = outbound.withPending { transport.write($0, count: $1) } ?? .broken
            switch result {
            case .wrote(let n):
                outbound.sent(n)
                progressed = true
            case .wouldBlock:
                waitWritable(progressed: progressed)
                return
            case .needsReadable:
                // TLS: the write goes on once the socket is readable. Room to write is no longer what it waits for
                // (a writable socket would report at once, again and again), and the write timeout still runs.
                interest.writeWaitsForReadable = true
                interest.wantsWrite = interest.readWaitsForWritable
                restartWriteTimeout(progressed: progressed)
                resumeReading()
                updateInterest()
                return
            case .broken:
                close()
                return
            }
        }
        outbound.reset()
        if !interest.readWaitsForWritable {
            interest.wantsWrite = false
            updateInterest()
            guard !state.isClosed else { return }  // the set refused the socket
        }
        if responseInFlight {
            responseInFlight = false
            responseWritten()
        }
    }

    /// Waits for the socket to drain, under the write timeout.
    func waitWritable(progressed: Bool) {
        restartWriteTimeout(progressed: progressed)
        watchWritable()
    }

    /// A response that cannot go on yet gets the write timeout, started again whenever the client took some bytes.
    func restartWriteTimeout(progressed: Bool) {
        if state.phase == .writing && (progressed || state.timer != .write) {
            armTimer(.write)
        }
    }

    /// Waits for room to write (or, for TLS, for the write a read needs).
    func watchWritable() {
        guard !state.isClosed else { return }
        interest.wantsWrite = true
        updateInterest()
    }

    /// Room to write: first the read that waited for it (TLS), then the bytes waiting to go.
    func onWritable() {
        if interest.readWaitsForWritable {
            interest.readWaitsForWritable = false
            onReadable()
            guard !state.isClosed else { return }
        }
        flush()
    }
}
