/// Bounds every decode so that no input can exhaust the stack, the heap or the CPU.
public struct CBORDecodingLimits: Sendable, Equatable {
    /// Deepest nesting of arrays, maps and tags.
    public var maxDepth: Int
    /// Most data items in one input (every item counts, including map keys and string chunks).
    public var maxItems: Int
    /// Largest input accepted at all.
    public var maxInputBytes: Int
    /// Whether indefinite-length strings, arrays and maps are accepted.
    public var allowIndefiniteLength: Bool

    public init(maxDepth: Int = 64, maxItems: Int = 100_000, maxInputBytes: Int = 16 << 20,
                allowIndefiniteLength: Bool = true) {
        self.maxDepth = maxDepth
        self.maxItems = maxItems
        self.maxInputBytes = maxInputBytes
        self.allowIndefiniteLength = allowIndefiniteLength
    }

    /// Safe defaults for untrusted input.
    public static let `default` = CBORDecodingLimits()
}
