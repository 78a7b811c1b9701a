import ArgumentParser
import Dispatch
import Foundation
import HTTPServer
import VerifierService

#if canImport(Glibc)
import Glibc
#endif

/// `verifierd serve`: runs the HTTP service until SIGTERM or SIGINT, then drains and exits 0.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the HTTP service (the default command).")

    @OptionGroup var options: ConfigOption

    func run() async throws {
        let configuration = ServiceLoading.configuration(options)
        let logger = ServiceLoading.logger()
        let service = ServiceLoading.service(configuration, logger: logger)
        var http = HTTPServerConfiguration(host: configuration.server.host, port: configuration.server.port)
        http.maxBodyBytes = configuration.server.maxBodyBytes
        http.maxConnections = configuration.server.maxConnections
        http.shutdownGracePeriod = .seconds(configuration.server.shutdownGraceSeconds)
        let server = HTTPServer(configuration: http, router: service.router(), observer: service.requestObserver())
        HTTPServerSignals.ignoreSIGPIPE()
        do {
            try server.start()
        } catch {
            ServiceLoading.fail(ConfigurationError(key: "server.port", "cannot listen on \(configuration.server.host):"
                + "\(configuration.server.port): \(error)"))
        }
        let stop = HTTPServerSignals.shutdownOnSignals(server) {
            logger.notice("stopped")
        }
        let reload = HTTPServerSignals.install([SIGHUP]) { _ in
            service.trustStore.reloadIfChanged(actor: "SIGHUP")
        }
        let poll = Self.pollTrustDirectory(service, every: configuration.trust.pollSeconds)
        logger.notice("listening", metadata: [
            "host": "\(configuration.server.host)", "port": "\(server.port)",
            "trustAnchors": "\(service.trustStore.snapshot.anchors.count)",
        ])
        await server.waitUntilStopped()
        poll?.cancel()
        withExtendedLifetime((stop, reload)) {}
    }

    /// Picks up changes made by hand in the trust directory.
    static func pollTrustDirectory(_ service: VerifierService, every seconds: Int) -> (any DispatchSourceTimer)? {
        guard seconds > 0 else { return nil }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "verifierd.trust-poll"))
        timer.schedule(deadline: .now() + .seconds(seconds), repeating: .seconds(seconds))
        timer.setEventHandler { service.trustStore.reloadIfChanged(actor: "poll") }
        timer.resume()
        return timer
    }
}
