/// A refusal: a stable code from its module's own table and a readable detail (never personal data or a secret).
/// Each module names its own: `SDJWTFailure`, `ResponseFailure`, `ProximityError`, `VICALError`.
public struct CodedFailure<Code: RawRepresentable & Hashable & Sendable>: Error, Sendable, Hashable, CustomStringConvertible
    where Code.RawValue == String
{
    public let code: Code
    public let detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code.rawValue): \(detail)" }
}
