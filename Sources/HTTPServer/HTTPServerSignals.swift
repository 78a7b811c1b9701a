#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Signal handling helpers: ignore SIGPIPE, and route SIGTERM/SIGINT to a handler through Dispatch sources.
public final class HTTPServerSignals: @unchecked Sendable {
    // The sources are created once in `install` and only cancelled in `deinit`: no mutation after init.
    private let sources: [any DispatchSourceSignal]

    private init(sources: [any DispatchSourceSignal]) {
        self.sources = sources
    }

    deinit {
        for s in sources { s.cancel() }
    }

    /// Ignores SIGPIPE so a write to a reset socket returns EPIPE instead of killing the process.
    public static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Installs Dispatch signal sources for `signals` (default SIGTERM and SIGINT) and calls `handler` with the
    /// signal number on each delivery. Keep the returned value alive for as long as the handling should last.
    public static func install(
        _ signals: [Int32] = [SIGTERM, SIGINT],
        queue: DispatchQueue = DispatchQueue(label: "http.signals"),
        handler: @escaping @Sendable (Int32) -> Void
    ) -> HTTPServerSignals {
        var sources: [any DispatchSourceSignal] = []
        // Dispatch arms a source asynchronously after resume(); until then the signal is ignored and lost. Wait
        // for every registration, so a SIGTERM sent right after start-up (the "listening" line) is not dropped.
        let armed = DispatchSemaphore(value: 0)
        for sig in signals {
            signal(sig, SIG_IGN)  // the default action would kill the process before the source sees it
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { handler(sig) }
            source.setRegistrationHandler { armed.signal() }
            source.resume()
            sources.append(source)
        }
        for _ in signals { _ = armed.wait(timeout: .now() + 2) }
        return HTTPServerSignals(sources: sources)
    }

    /// Installs SIGTERM/SIGINT handling that shuts `server` down gracefully (with `deadline`, or the configured
    /// grace period) and then calls `onStopped` (an executable typically calls `exit(0)` there).
    public static func shutdownOnSignals(
        _ server: HTTPServer,
        deadline: Duration? = nil,
        onStopped: @escaping @Sendable () -> Void = {}
    ) -> HTTPServerSignals {
        install { _ in
            Task {
                await server.shutdown(deadline: deadline)
                onStopped()
            }
        }
    }
}
