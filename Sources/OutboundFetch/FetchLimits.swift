import Foundation

/// What one fetch may cost: time and bytes. Each kind of fetch (status lists, VICALs) has its own.
public struct FetchLimits: Sendable, Equatable {
    /// Deadline for the whole fetch, every redirect hop and connection included.
    public var totalTimeout: TimeInterval
    /// Deadline for each connection (name resolution and TLS included), within the total.
    public var connectTimeout: TimeInterval
    /// A transfer that receives nothing for this long is abandoned.
    public var idleTimeout: TimeInterval
    /// Largest body accepted; a longer one is cut off while it arrives (a larger declared length at once).
    public var maximumBodyBytes: Int

    public init(totalTimeout: TimeInterval, connectTimeout: TimeInterval = 5, idleTimeout: TimeInterval = 10,
                maximumBodyBytes: Int) {
        self.totalTimeout = totalTimeout
        self.connectTimeout = min(connectTimeout, totalTimeout)
        self.idleTimeout = idleTimeout
        self.maximumBodyBytes = maximumBodyBytes
    }
}
