/// Bytes from the system's cryptographically secure generator, for nonces, session identifiers and key ids: the one
/// place verifierd makes them.
public enum RandomBytes {
    public static func make(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
