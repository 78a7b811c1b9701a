/// What a one-time record is: a flow's session, an issued nonce, a cross-device request object or result. A store
/// keeps each kind apart from every other (a take names the kind it expects), counts quotas per kind, and metrics
/// label records by it. Each flow's module declares its kinds; the value is the name stored and shown.
public struct SessionKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        rawValue = value
    }

    public var description: String { rawValue }
}
