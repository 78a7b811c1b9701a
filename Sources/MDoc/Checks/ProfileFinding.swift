/// One departure from the ISO 18013-5 Annex B certificate profile (or the data-element rules tied to it).
public struct ProfileFinding: Sendable, Hashable {
    /// Whether ISO 18013-5 states the rule with "shall" (mandatory) or only recommends it.
    public enum Strength: String, Sendable {
        case mandatory
        case recommended
    }

    public let strength: Strength
    public let detail: String

    public init(_ strength: Strength, _ detail: String) {
        self.strength = strength
        self.detail = detail
    }
}
