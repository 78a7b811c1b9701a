import Foundation
import Synchronization

/// The certificate and key a TLS listener serves, replaceable while it runs.
///
/// ``reload()`` reads the files again: new handshakes use the new pair, open connections finish on the one they
/// started with, and a pair that does not load is refused while the one in force stays. The session-ticket key is a
/// random key of each context; after ``TLSSettings/ticketKeyLifetime`` a fresh context is made from the same PEM
/// bytes, so the key rotates without the certificate changing behind an operator's back.
public final class TLSServerIdentity: Sendable {
    private struct State {
        var context: TLSContext
        var chainPEM: [UInt8]
        var keyPEM: [UInt8]
    }

    /// The settings the files came from.
    public let settings: TLSSettings
    private let state: Mutex<State>

    /// Reads and checks the files. Throws naming the setting at fault.
    public init(settings: TLSSettings) throws(TLSSetupError) {
        self.settings = settings
        let (chain, key) = try Self.read(settings)
        let context = try TLSContext(settings: settings, chainPEM: chain, keyPEM: key)
        state = Mutex(State(context: context, chainPEM: chain, keyPEM: key))
    }

    /// The context for a new handshake (a fresh ticket key once the current one has served its lifetime).
    public var context: TLSContext {
        let (current, chain, key) = state.withLock { ($0.context, $0.chainPEM, $0.keyPEM) }
        guard ContinuousClock.now - current.createdAt >= settings.ticketKeyLifetime else { return current }
        guard let fresh = try? TLSContext(settings: settings, chainPEM: chain, keyPEM: key) else { return current }
        return state.withLock { s in
            // Another thread may have rotated, or an operator reloaded, meanwhile: keep the newer one.
            if s.context.createdAt > current.createdAt { return s.context }
            s.context = fresh
            return fresh
        }
    }

    /// Reads the files again and, if they make a valid pair, serves it to new handshakes. On error nothing changes.
    @discardableResult
    public func reload() throws(TLSSetupError) -> TLSContext {
        let (chain, key) = try Self.read(settings)
        let context = try TLSContext(settings: settings, chainPEM: chain, keyPEM: key)
        state.withLock { $0 = State(context: context, chainPEM: chain, keyPEM: key) }
        return context
    }

    private static func read(_ settings: TLSSettings) throws(TLSSetupError) -> ([UInt8], [UInt8]) {
        let chain = try readFile(settings.certificateChain, .certificateChain)
        let key = try readFile(settings.privateKey, .privateKey)
        if let ca = settings.clientCA { _ = try readFile(ca, .clientCA) }
        return (chain, key)
    }

    /// Reads a small PEM file, with messages an operator can act on.
    private static func readFile(_ url: URL, _ setting: TLSSetupError.Setting) throws(TLSSetupError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw TLSSetupError(setting, "cannot read \(url.path): no such file")
        }
        guard !isDirectory.boolValue else { throw TLSSetupError(setting, "\(url.path) is a directory, not a PEM file") }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw TLSSetupError(setting, "cannot read \(url.path): permission denied")
        }
        defer { try? handle.close() }
        let limit = 1 << 20
        guard let data = try? handle.read(upToCount: limit + 1) else {
            throw TLSSetupError(setting, "cannot read \(url.path)")
        }
        guard data.count <= limit else { throw TLSSetupError(setting, "\(url.path) is larger than 1 MiB") }
        return Array(data)
    }
}
