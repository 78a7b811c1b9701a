import Testing
@testable import HTTPServer

/// The connection's decisions, fed event by event without a socket.
struct ConnectionStateTests {
    @Test func aKeptAliveRequestGoesRoundAndWaitsIdle() {
        var state = ConnectionState(maximumRequests: 100)
        state.arm(.header)
        state.headReceived()
        #expect(state.phase == .readingBody && state.timer == .body)
        state.requestComplete()
        #expect(state.phase == .handling && state.timer == .none)
        let keep = state.responseReady(clientWantsClose: false)
        #expect(keep == false)
        let next = state.responseWritten(bufferedInput: false)
        #expect(next == .readNext(.idle))
        #expect(state.phase == .readingHead && state.requestsServed == 1)
        // The next request's first bytes turn the idle deadline into the header deadline, once.
        let first = state.bytesArrivedForRequest(), second = state.bytesArrivedForRequest()
        #expect(first == .header && second == nil)
        // A pipelined request already buffered waits under the header deadline.
        state.headReceived()
        state.requestComplete()
        _ = state.responseReady(clientWantsClose: false)
        let pipelined = state.responseWritten(bufferedInput: true)
        #expect(pipelined == .readNext(.header))
    }

    @Test func closeAfterTheResponseWhenAskedOrAtTheLimit() {
        var asked = ConnectionState(maximumRequests: 100)
        asked.requestComplete()
        let closes = asked.responseReady(clientWantsClose: true)
        #expect(closes == true)
        let after = asked.responseWritten(bufferedInput: false)
        #expect(after == .linger)
        asked.lingering()
        #expect(asked.phase == .lingering && asked.timer == .linger)
        let within = asked.discardedWhileLingering(ConnectionState.maximumLingerBytes), over = asked.discardedWhileLingering(1)
        #expect(!within && over, "more than 16 MiB while lingering closes")

        var limited = ConnectionState(maximumRequests: 1)
        limited.requestComplete()
        let atLimit = limited.responseReady(clientWantsClose: false)
        #expect(atLimit == true)
    }

    @Test func thePeerGoingAwayOrADrainFinishesTheRequestInFlight() {
        var idle = ConnectionState(maximumRequests: 10)
        let idleCloses = idle.drain()
        #expect(idleCloses, "an idle connection closes at once")
        var busy = ConnectionState(maximumRequests: 10)
        busy.requestComplete()
        let busyCloses = busy.drain()
        #expect(!busyCloses)
        let drained = busy.responseReady(clientWantsClose: false)
        #expect(drained == true, "draining: close after this response")
        var gone = ConnectionState(maximumRequests: 10)
        gone.requestComplete()
        let goneCloses = gone.peerClosed()
        #expect(!goneCloses, "finish the response first")
        let goneAfter = gone.responseReady(clientWantsClose: false)
        #expect(goneAfter == true)
        var early = ConnectionState(maximumRequests: 10)
        let earlyCloses = early.peerClosed()
        #expect(earlyCloses, "nothing in flight: close now")
    }

    @Test func deadlinesAndRefusals() {
        var state = ConnectionState(maximumRequests: 10)
        state.arm(.header)
        let header = state.expired()
        #expect(header == .refuse(.header) && state.timer == .none)
        state.arm(.idle)
        let idleExpiry = state.expired()
        #expect(idleExpiry == .close)
        let none = state.expired()
        #expect(none == .nothing, "a disarmed deadline does nothing")
        let refused = state.refusing()
        #expect(refused && state.phase == .writing && state.closeAfterResponse)
        let again = state.refusing()
        #expect(!again, "no request is being read any more")
        state.close()
        let late = state.responseReady(clientWantsClose: false)
        #expect(state.isClosed && late == nil)
        let lateWritten = state.responseWritten(bufferedInput: false)
        #expect(lateWritten == nil)
    }
}
