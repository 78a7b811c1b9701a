/// Why no statement can be made from a status list. Every case ends as `STATUS_UNKNOWN`, never as revoked.
public struct StatusListError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
