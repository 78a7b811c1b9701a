import ArgumentParser
import Dispatch
import Foundation
import HTTPServer
import Logging
import TrustStore
import VerifierService

#if canImport(Glibc)
import Glibc
#endif

/// `verifierd serve`: runs the HTTP service until SIGTERM or SIGINT, then drains and exits 0.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the HTTP service (the default command).")

    @OptionGroup var options: ConfigOption
    @Option(help: "Listen on this port instead of server.port (0 for any free port).") var port: Int?
    @Option(help: "Listen on this address instead of server.host (an IPv4 or IPv6 address literal).") var host: String?
    @Option(help: "Write log lines of this level and above instead of logging.level (trace, debug, info, notice, warning, error, critical).")
    var logLevel: String?

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be 0...65535") }
        if let host {
            do {
                _ = try ConfigurationLoader.checkedHost(host, key: "--host")
            } catch {
                throw ValidationError("--host \(error.reason)")
            }
        }
        if let logLevel {
            do {
                _ = try ServiceConfiguration.Logging.level(named: logLevel, key: "--log-level")
            } catch {
                throw ValidationError("--log-level \(error.reason)")
            }
        }
    }

    func run() async throws {
        var configuration = ServiceLoading.configuration(options)
        if let port {
            configuration.server.port = port
        } else if !configuration.server.portIsConfigured {
            ServiceLoading.fail(ConfigurationError(key: "server.port", "is required to serve (the port to listen on; 0 picks "
                + "a free one), or pass --port"))
        }
        if let host { configuration.server.host = host }  // checked by validate()
        if let logLevel, let level = try? ServiceConfiguration.Logging.level(named: logLevel, key: "--log-level") {
            configuration.logging.level = level  // checked by validate()
        }
        let logger = configuration.logging.applied(to: ServiceLoading.logger())
        let service = await ServiceLoading.service(configuration, logger: logger)
        for warning in service.startupWarnings() { logger.warning("\(warning)") }
        if let step = TrustWriteStep.armedCrash {
            logger.warning("\(TrustWriteStep.crashHookEnvironmentName)=\(step.rawValue) is set: the process kills itself in that step of its next trust write; test only")
        }
        let server = HTTPServer(configuration: service.httpServerConfiguration(), router: service.router(),
                                observer: service.requestObserver(output: .standardOutput))
        HTTPServerSignals.ignoreSIGPIPE()
        do {
            try server.start()
        } catch {
            ServiceLoading.fail(ConfigurationError(key: "server.port", "cannot listen on \(configuration.server.host):"
                + "\(configuration.server.port): \(error)"))
        }
        let health = Self.startPlainHealthListener(service, configuration)
        service.listening(on: [server.port] + (health.map { [$0.port] } ?? []))
        let stop = HTTPServerSignals.install { _ in
            Task {
                await server.shutdown()
                await health?.shutdown()
            }
        }
        let reload = HTTPServerSignals.install([SIGHUP]) { _ in
            service.iacaTrust.reloadIfChanged(actor: "SIGHUP")
            service.sdJwtVcIssuerTrust?.reloadIfChanged(actor: "SIGHUP")
            if service.iacaTrust.shared != nil { Task { _ = try? await service.iacaTrust.reload(actor: "SIGHUP") } }
            service.reloadTLS(actor: "SIGHUP")
            service.reloadMerchantKeys(actor: "SIGHUP")
            service.reloadRegistrationCertificates(actor: "SIGHUP")
        }
        let poll = Self.pollTrustDirectory(service, every: configuration.trust.pollSeconds)
        let refresh = Task { await service.vicalRefresher.run() }
        let refreshLists = Task { await service.loteRefresher.run() }
        let follow = Task { await service.store.followSharedTrust(logger: logger) }
        let sweep = Task { await Self.sweepSessions(service) }
        let deliveries = Task { await service.runWebhookDeliveries() }
        Task { await service.checkRegistrationRevocation() }
        var listening: Logger.Metadata = [
            "host": "\(configuration.server.host)", "port": .stringConvertible(server.port),
            "trustAnchors": .stringConvertible(service.iacaTrust.snapshot.anchors.count),
            "trustVersion": .stringConvertible(service.iacaTrust.snapshot.version),
            "store": "\(service.store.database?.configuration.redactedLocation ?? "memory")",
            "scheme": "\(service.tlsIdentity == nil ? "http" : "https")",
        ]
        if let health { listening["plainHealthPort"] = .stringConvertible(health.port) }
        if let context = service.tlsIdentity?.context { listening["tlsCertificateSerial"] = "\(context.certificateSerial)" }
        logger.notice("listening", metadata: listening)
        await server.waitUntilStopped()
        await health?.waitUntilStopped()
        poll?.cancel()
        refresh.cancel()
        refreshLists.cancel()
        follow.cancel()
        sweep.cancel()
        deliveries.cancel()
        service.store.database?.shutdown()
        // Logged here, not by the signal task: run() returning ends the process, which could beat that task.
        logger.notice("stopped")
        withExtendedLifetime((stop, reload)) {}
    }

    /// With TLS, an optional plain listener for load balancers and scrapers: `/healthz`, `/readyz`, `/metrics` only.
    static func startPlainHealthListener(_ service: VerifierService, _ configuration: ServiceConfiguration) -> HTTPServer? {
        guard let port = configuration.server.plainHealthPort else { return nil }
        var http = HTTPServerConfiguration(host: configuration.server.host, port: port)
        http.problemTypeBase = ServiceProblem.typeBase
        http.maxBodyBytes = 1024
        http.maxConnections = 64
        let server = HTTPServer(configuration: http, router: service.healthRouter(), observer: service.requestObserver(output: .standardOutput))
        do {
            try server.start()
        } catch {
            ServiceLoading.fail(ConfigurationError(key: "server.plainHealthPort", "cannot listen on "
                + "\(configuration.server.host):\(port): \(error)"))
        }
        return server
    }

    /// Drops expired sessions and old tombstones every 30 seconds (the memory store also sweeps as it goes; the
    /// database only here).
    static func sweepSessions(_ service: VerifierService) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(30))
            await service.sessionStore.sweep(now: Date())
        }
    }

    /// Picks up changes made by hand in the trust directory.
    static func pollTrustDirectory(_ service: VerifierService, every seconds: Int) -> (any DispatchSourceTimer)? {
        guard seconds > 0 else { return nil }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "verifierd.trust-poll"))
        timer.schedule(deadline: .now() + .seconds(seconds), repeating: .seconds(seconds))
        timer.setEventHandler {
            service.iacaTrust.reloadIfChanged(actor: "poll")
            service.sdJwtVcIssuerTrust?.reloadIfChanged(actor: "poll")
        }
        timer.resume()
        return timer
    }
}
