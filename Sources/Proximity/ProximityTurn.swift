import MDoc

/// The reader's side of the mdoc's message, decided here rather than by whoever relays it: what there is to
/// verify (or why there is nothing), and the SessionData to send back. The reader ends the session with status 20
/// (ISO 18013-5 9.1.1.4), unless the mdoc already ended it, which is then the outcome (`SESSION_ENDED_BY_DEVICE`).
public struct ProximityTurn: Sendable {
    public enum Outcome: Sendable {
        /// A DeviceResponse to verify with the session's transcript and requested items.
        case verify(DeviceResponse)
        /// Nothing to verify, and why.
        case failed(ResponseFailure)
    }

    public let outcome: Outcome
    /// The SessionData the reader sends back, or nil when the mdoc already ended the session.
    public let reply: [UInt8]?

    /// Reads the mdoc's SessionData for `session`.
    public init(_ sessionData: [UInt8], session: ProximitySession) {
        do throws(ResponseFailure) {
            switch try ProximityReader.receive(sessionData, session: session) {
            case .ended(let status):
                outcome = .failed(ResponseFailure(.sessionEndedByDevice,
                                                  "the mdoc ended the session with status \(status) (\(SessionData.knownStatuses[status] ?? "unknown"))"))
                reply = nil
            case .response(let response, _):
                outcome = .verify(response)
                reply = SessionData.termination
            }
        } catch {
            outcome = .failed(error)
            reply = SessionData.termination
        }
    }
}
