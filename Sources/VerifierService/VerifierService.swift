import AppleWallet
import Foundation
import HTTPServer
import HTTPTypes
import Logging
import MDoc
import OutboundFetch
import ServerTLS
import SessionStore
import StatusList
import TrustLists
import TrustStore
import ReaderAuthentication
import WebPresentment

/// verifierd: the verification core, the trust store and the HTTP routes, wired from one configuration.
public final class VerifierService: Sendable {
    public let configuration: ServiceConfiguration
    public let trustStore: TrustStoreManager
    public let metrics: ServiceMetrics
    let merchantKeys: [MerchantEncryptionKey]
    let readerTokens: ReaderTokenService?
    /// The one outbound HTTP client (status lists, VICALs) and its destination policy.
    public let outboundFetcher: OutboundFetcher
    /// Fetches, verifies and caches the status lists that MSOs name.
    public let statusResolver: StatusResolver
    /// Builds (and signs, with the configured reader key and mode) the DeviceRequests of web and proximity sessions.
    let deviceRequestBuilder: DeviceRequestBuilder
    /// One-time sessions of the web and proximity flows, and issued Apple nonces.
    public let sessionStore: any SessionStore
    /// Who may call the create and verify routes.
    let integratorAuthentication: IntegratorAuthentication
    /// Each kind's and each integrator's share of the session capacity.
    let sessionAdmission: SessionAdmission
    /// Where sessions and the trust set live (memory and the directory, or the database).
    public let store: ServiceStore
    /// The HTTPS listener's certificate and key (reloadable), when `server.tls` is configured.
    public let tlsIdentity: TLSServerIdentity?
    /// The certificate each VICAL source's signer must chain to, by source name.
    let vicalSigners: [String: VICALSignerAnchor]
    let vicalVerifier: VICALVerifier
    /// Scheduled fetches of `trust.vicalSources`.
    public let vicalRefresher: VICALRefresher
    let logger: Logger
    /// The service clock; injectable so tests are repeatable.
    let now: @Sendable () -> Date

    /// Loads every key and the trust set; any problem is a ``ConfigurationError`` naming the key.
    public init(configuration: ServiceConfiguration, logger: Logger, metrics: ServiceMetrics = ServiceMetrics(),
                now: @escaping @Sendable () -> Date = { Date() },
                statusFetcher: (any StatusListFetching)? = nil,
                sessionStore: (any SessionStore)? = nil, store: ServiceStore? = nil) throws(ConfigurationError) {
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
        self.now = now
        let status = configuration.status
        let outbound = OutboundFetcher(policy: DestinationPolicy(
            allowed: configuration.outbound.allowedDestinations, maximumRedirects: configuration.outbound.maxRedirects))
        outbound.policy.refuse(listeningPorts: [configuration.server.port] + [configuration.server.plainHealthPort].compactMap { $0 })
        outboundFetcher = outbound
        let fetcher = statusFetcher ?? StatusListFetcher(limits: StatusFetchLimits(
            timeout: TimeInterval(status.fetchTimeoutSeconds), maximumBytes: status.maxListBytes,
            allowedSchemes: Set(status.allowedSchemes)), fetcher: outbound, connectTimeout: configuration.outbound.connectTimeoutSeconds,
            idleTimeout: configuration.outbound.idleTimeoutSeconds)
        statusResolver = StatusResolver(cache: StatusListCache(
            fetcher: fetcher, verifier: StatusListTokenVerifier(clockSkew: TimeInterval(configuration.verification.clockSkewSeconds)),
            cacheSeconds: TimeInterval(status.cacheSeconds),
            staleGraceSeconds: TimeInterval(status.staleGraceSeconds),
            onEvent: { [logger, metrics] event in
                metrics.statusList(event)
                if case .fetched(let host, let outcome) = event {
                    logger.info("status list fetched", metadata: ["host": "\(host)", "outcome": "\(outcome)"])
                }
            }))
        var keys: [MerchantEncryptionKey] = []
        for (index, url) in (configuration.apple?.encryptionKeys ?? []).enumerated() {
            let name = "apple.encryptionKeys[\(index)]"
            guard let pem = try? String(contentsOf: url, encoding: .utf8) else {
                throw ConfigurationError(key: name, "cannot read \(url.path)")
            }
            do {
                keys.append(try MerchantEncryptionKey(pem: pem, label: url.lastPathComponent))
            } catch {
                throw ConfigurationError(key: name, "\(url.path) is not a P-256 private key (PKCS#8 or SEC1 PEM)")
            }
        }
        merchantKeys = keys
        if store == nil, case .postgres = configuration.store {
            throw ConfigurationError(key: "store.kind", "the PostgreSQL store is opened with VerifierService.open")
        }
        let opened: ServiceStore
        if let store {
            opened = store
        } else {
            opened = try ServiceStore.memory(configuration, logger: logger, sessions: sessionStore)
        }
        self.store = opened
        let store = opened
        trustStore = store.trust
        vicalSigners = try Self.loadVICALSigners(configuration.trust.vicalSigners)
        vicalVerifier = VICALVerifier(clockSkew: TimeInterval(configuration.verification.clockSkewSeconds))
        vicalRefresher = VICALRefresher(sources: configuration.trust.vicalSources,
                                        fetcher: VICALFetcher(fetcher: outbound, limits: FetchLimits(
                                            totalTimeout: 20, connectTimeout: TimeInterval(configuration.outbound.connectTimeoutSeconds),
                                            idleTimeout: TimeInterval(configuration.outbound.idleTimeoutSeconds),
                                            maximumBodyBytes: VICALLimits.default.maximumBytes)),
                                        retrySeconds: TimeInterval(configuration.trust.vicalRetrySeconds))
        readerTokens = try configuration.readerTokens.map { (tokens) throws(ConfigurationError) in
            try ReaderTokenService(configuration: tokens)
        }
        let readerAuthKey = try configuration.readerAuth.map { (section) throws(ConfigurationError) in
            try Self.loadReaderAuthKey(section)
        }
        deviceRequestBuilder = DeviceRequestBuilder(readerAuth: readerAuthKey, mode: configuration.readerAuth?.mode ?? .readerAuth)
        tlsIdentity = try configuration.server.tls.map { (section) throws(ConfigurationError) in
            do throws(TLSSetupError) {
                return try TLSServerIdentity(settings: section.settings)
            } catch {
                throw ConfigurationError(key: "server.tls.\(error.setting.rawValue)", error.message)
            }
        }
        self.sessionStore = store.sessions
        integratorAuthentication = IntegratorAuthentication(configuration.integrators)
        sessionAdmission = SessionAdmission(configuration: configuration,
                                            integratorCount: integratorAuthentication.integratorCount)
    }

    /// Tells the outbound policy the ports this process listens on once they are known (a configured port 0 is
    /// chosen at start): no fetch may reach them, even through `outbound.allowedDestinations`.
    public func listening(on ports: [Int]) {
        outboundFetcher.policy.refuse(listeningPorts: ports)
    }

    /// A service on the configured store: with PostgreSQL, connects, migrates and reads the shared trust set
    /// first (``ServiceStore/open(_:logger:migrate:)``).
    public static func open(configuration: ServiceConfiguration, logger: Logger, metrics: ServiceMetrics = ServiceMetrics(),
                            now: @escaping @Sendable () -> Date = { Date() }) async throws(ConfigurationError) -> VerifierService {
        let store = try await ServiceStore.open(configuration, logger: logger)
        return try VerifierService(configuration: configuration, logger: logger, metrics: metrics, now: now, store: store)
    }

    /// Reads each `trust.vicalSigners` certificate; a problem names the source's key.
    static func loadVICALSigners(_ files: [String: URL]) throws(ConfigurationError) -> [String: VICALSignerAnchor] {
        var signers: [String: VICALSignerAnchor] = [:]
        for (name, url) in files {
            let key = "trust.vicalSigners.\(name)"
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw ConfigurationError(key: key, "cannot read \(url.path)")
            }
            do {
                signers[name] = try VICALSignerAnchor(pemOrDER: Array(data), source: url.path)
            } catch {
                throw ConfigurationError(key: key, error.description)
            }
        }
        return signers
    }

    /// Reads and checks the reader key and chain; a problem names `readerAuth.signingKey` or
    /// `readerAuth.certificateChain`.
    static func loadReaderAuthKey(_ section: ServiceConfiguration.ReaderAuth) throws(ConfigurationError) -> ReaderAuthenticationKey {
        guard let keyPEM = try? String(contentsOf: section.signingKey, encoding: .utf8) else {
            throw ConfigurationError(key: "readerAuth.signingKey", "cannot read \(section.signingKey.path)")
        }
        guard let chainPEM = try? String(contentsOf: section.certificateChain, encoding: .utf8) else {
            throw ConfigurationError(key: "readerAuth.certificateChain", "cannot read \(section.certificateChain.path)")
        }
        do {
            return try ReaderAuthenticationKey(keyPEM: keyPEM, chainPEM: chainPEM)
        } catch {
            let url = error.part == .signingKey ? section.signingKey : section.certificateChain
            throw ConfigurationError(key: "readerAuth.\(error.part.rawValue)", "\(url.path): \(error.description)")
        }
    }

    /// Every route of the service.
    public func router() -> Router {
        var router = Router()
        // Verification runs as a task: its cost depends on what the sender wrote, and the connection queues must stay
        // free for health probes. Short routes whose cost does not (a transcript, a token, the admin list) answer at
        // once on the connection's queue, without the hand-off to the task pool and back.
        router.post("/v1/apple/nonces") { [self] in await respondAsIntegrator($0) { r, who throws(ServiceProblem) in try await issueAppleNonce(r, for: who) } }
        router.post("/v1/apple/verify") { [self] in await respondAsIntegrator($0) { r, who throws(ServiceProblem) in try await appleVerify(r, for: who) } }
        router.addImmediate(.post, "/v1/apple/session-transcript") { [self] in respondNowAsIntegrator($0) { r, _ throws(ServiceProblem) in try sessionTranscript(r) } }
        router.post("/v1/web/requests") { [self] in await respondAsIntegrator($0) { r, who throws(ServiceProblem) in try await createWebRequest(r, for: who) } }
        router.post("/v1/web/verify") { [self] in await respondAsIntegrator($0) { r, who throws(ServiceProblem) in try await webVerify(r, for: who) } }
        router.post("/v1/proximity/sessions") { [self] in await respondAsIntegrator($0) { r, who throws(ServiceProblem) in try await createProximitySession(r, for: who) } }
        router.post("/v1/proximity/sessions/:id/messages") { [self] in await respondAsIntegrator($0) { r, who throws(ServiceProblem) in try await proximityMessage(r, for: who) } }
        router.post("/v1/mdoc/verify") { [self] in await respondAsIntegrator($0) { r, _ throws(ServiceProblem) in try await mdocVerify(r) } }
        router.get("/v1/admin/status-cache") { [self] in await respond($0) { r throws(ServiceProblem) in try await statusCache(r) } }
        router.addImmediate(.get, "/v1/admin/iaca") { [self] in respondNow($0) { r throws(ServiceProblem) in try listAnchors(r) } }
        router.post("/v1/admin/iaca") { [self] in await respond($0) { r throws(ServiceProblem) in try await addAnchors(r) } }
        router.put("/v1/admin/iaca") { [self] in await respond($0) { r throws(ServiceProblem) in try await replaceAnchors(r) } }
        router.delete("/v1/admin/iaca/:sha256") { [self] in await respond($0) { r throws(ServiceProblem) in try await removeAnchor(r) } }
        router.post("/v1/admin/iaca/reload") { [self] in await respond($0) { r throws(ServiceProblem) in try await reloadAnchors(r) } }
        router.get("/v1/admin/trust/changes") { [self] in await respond($0) { r throws(ServiceProblem) in try trustChanges(r) } }
        router.get("/v1/admin/vicals") { [self] in await respond($0) { r throws(ServiceProblem) in try listVICALSources(r) } }
        router.post("/v1/admin/vicals/:source") { [self] in await respond($0) { r throws(ServiceProblem) in try await importVICAL(r) } }
        addConsoleRoutes(to: &router)
        router.post("/v1/admin/tls/reload") { [self] in await respond($0) { r throws(ServiceProblem) in try reloadTLS(r) } }
        router.addImmediate(.post, "/v1/reader-tokens") { [self] in respondNow($0) { r throws(ServiceProblem) in try mintReaderToken(r) } }
        // Health and metrics answer on the connection's queue, so they stay fast while verifications fill the pool.
        router.getImmediate("/healthz") { _ in .json(JSON.object([("status", .string("ok"))])) }
        router.getImmediate("/readyz") { [self] in respondNow($0) { _ throws(ServiceProblem) in try readiness() } }
        router.getImmediate("/metrics") { [self] _ in metricsResponse() }
        router.get("/openapi.json") { _ in .json(Array(EmbeddedAssets.openAPIDocument.utf8)) }
        return router
    }

    /// The routes of the plain-HTTP health listener (`server.plainHealthPort`): probes and metrics, nothing else.
    public func healthRouter() -> Router {
        var router = Router()
        router.getImmediate("/healthz") { _ in .json(JSON.object([("status", .string("ok"))])) }
        router.getImmediate("/readyz") { [self] in respondNow($0) { _ throws(ServiceProblem) in try readiness() } }
        router.getImmediate("/metrics") { [self] _ in metricsResponse() }
        return router
    }

    /// The HTTP server settings for the main listener: address, limits, and TLS when configured.
    public func httpServerConfiguration() -> HTTPServerConfiguration {
        var http = HTTPServerConfiguration(host: configuration.server.host, port: configuration.server.port)
        http.maxBodyBytes = configuration.server.maxBodyBytes
        http.maxConnections = configuration.server.maxConnections
        http.shutdownGracePeriod = .seconds(configuration.server.shutdownGraceSeconds)
        http.tls = tlsIdentity
        http.clientCertificateRequiredPrefixes = configuration.server.tls?.requireClientCertificateFor ?? []
        return http
    }

    /// A configuration section a route needs; without it the route answers 503 `<SECTION>_NOT_CONFIGURED`.
    func configured<Section>(_ section: Section?, _ name: String) throws(ServiceProblem) -> Section {
        guard let section else {
            throw ServiceProblem(.serviceUnavailable, name.uppercased() + "_NOT_CONFIGURED",
                                 "the \(name) section is not configured")
        }
        return section
    }

    /// Runs a handler at once (an immediate route), turning a ``ServiceProblem`` into its problem response.
    func respondNow(_ request: HTTPServerRequest,
                    _ handler: (HTTPServerRequest) throws(ServiceProblem) -> HTTPServerResponse) -> HTTPServerResponse
    {
        do {
            return try handler(request)
        } catch {
            return error.response
        }
    }

    /// Runs a handler, turning a ``ServiceProblem`` into its problem response.
    func respond(_ request: HTTPServerRequest,
                 _ handler: (HTTPServerRequest) async throws(ServiceProblem) -> HTTPServerResponse) async -> HTTPServerResponse
    {
        do {
            return try await handler(request)
        } catch {
            return error.response
        }
    }

    /// Reasons the service is not ready; empty when ready.
    func notReadyReasons() -> [String] {
        var reasons: [String] = []
        if trustStore.snapshot.anchors.isEmpty { reasons.append("no trusted IACA is configured") }
        if configuration.apple != nil && merchantKeys.isEmpty { reasons.append("no merchant encryption key is loaded") }
        return reasons
    }

    /// Problems that do not stop verification (the set in force stays) but need an operator.
    func degradedReasons() -> [String] {
        var reasons: [String] = []
        if let reason = store.database?.unavailableReason {
            reasons.append("the database is unavailable (sessions and nonces fail; the trust set in force stays): \(reason)")
        }
        if let problem = trustStore.directoryProblem {
            reasons.append("the trust directory does not load (the set in force stays): \(problem)")
        }
        let time = now()
        for source in configuration.trust.vicalSources {
            if let outcome = vicalRefresher.lastOutcome(source.name), outcome.failed {
                reasons.append("VICAL \(source.name): last refresh \(outcome.outcome): \(outcome.detail ?? "")")
            }
            if let next = trustStore.snapshot.lists[source.name]?.nextUpdate, next < time {
                reasons.append("VICAL \(source.name) is past its nextUpdate")
            }
        }
        return reasons
    }

    func readiness() throws(ServiceProblem) -> HTTPServerResponse {
        let reasons = notReadyReasons()
        guard reasons.isEmpty else {
            throw ServiceProblem(.serviceUnavailable, "NOT_READY", reasons.joined(separator: "; "))
        }
        let degraded = degradedReasons()
        return .json(JSON.object([
            ("status", .string(degraded.isEmpty ? "ready" : "degraded")),
            ("trustAnchors", .int(Int64(trustStore.snapshot.anchors.count))),
            ("trustVersion", .int(Int64(trustStore.snapshot.version))),
            ("merchantKeys", .int(Int64(merchantKeys.count))),
            ("store", .object([
                ("kind", .string(store.database == nil ? "memory" : "postgres")),
                ("status", .string(store.database?.unavailableReason == nil ? "ok" : "unavailable")),
            ])),
            ("degraded", degraded.isEmpty ? nil : .array(degraded.map { .string($0) })),
        ]))
    }

    func metricsResponse() -> HTTPServerResponse {
        let snapshot = trustStore.snapshot
        let time = now()
        let soonest = snapshot.anchors.map(\.notAfter).min().map { $0.timeIntervalSince(time) }
        metrics.trustAnchors(count: snapshot.anchors.count, secondsUntilSoonestExpiry: soonest,
                             directoryLoads: trustStore.directoryProblem == nil)
        for (source, list) in snapshot.lists {
            metrics.vicalInForce(source: source, ageSeconds: time.timeIntervalSince(list.date),
                                 nextUpdateMarginSeconds: list.nextUpdate.map { $0.timeIntervalSince(time) })
        }
        if let context = tlsIdentity?.context { metrics.tlsCertificate(notAfter: context.certificateNotAfter, now: now()) }
        var fields = HTTPFields()
        fields[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return HTTPServerResponse(status: .ok, headerFields: fields, body: metrics.render())
    }

    /// Options for one verification at `time`.
    func verificationOptions(at time: Date, readerKey: ReaderKey? = nil) -> VerificationOptions {
        var options = VerificationOptions(
            verificationTime: time, clockSkew: TimeInterval(configuration.verification.clockSkewSeconds),
            profileChecks: configuration.trust.profileChecks,
            profileChecksByAnchor: configuration.trust.profileChecksByAnchor, readerKey: readerKey)
        options.statusPolicy = StatusPolicy(mode: configuration.status.mode, unknown: configuration.status.unknown)
        return options
    }

    /// Verifies a parsed response after resolving the status references of its authentic MSOs (unless status
    /// checking is off). Status lists are judged at the service clock, the document at `options.verificationTime`.
    func verify(_ response: DeviceResponse, sessionTranscript: [UInt8], options: VerificationOptions,
                trust: TrustSnapshot) async -> VerificationReport {
        // One pass: prepare (chain, digests, issuer signature), resolve status, finish.
        let verifier = MDocVerifier(trust: trust)
        let prepared = verifier.prepare(response, sessionTranscript: sessionTranscript, options: options)
        var evidence = options.statusEvidence
        if configuration.status.mode != .off {
            // Only lists named by authentic MSOs are fetched: never a URI a sender merely wrote into a document.
            evidence = await statusResolver.evidence(for: prepared.statusReferences, trust: trust, now: now())
        }
        return verifier.finish(prepared, statusEvidence: evidence)
    }

    /// 200 with claims, or 422 with the checks; response-level input problems are 400.
    /// `extra` members are appended to the report object (e.g. the proximity `reply`).
    func reportResponse(_ report: VerificationReport, endpoint: String, started: ContinuousClock.Instant,
                        extra: [(String, JSON?)] = []) throws(ServiceProblem) -> HTTPServerResponse
    {
        let outcome = report.verified ? "verified" : (report.failureCode?.rawValue ?? "NOT_VERIFIED")
        metrics.verification(endpoint: endpoint, outcome: outcome, duration: ContinuousClock.now - started)
        if let code = report.failureCode, report.documents.isEmpty,
           [.envelopeMalformed, .envelopeUnsupported, .nonceInvalid, .sessionTranscriptMalformed,
            .sessionDataMalformed].contains(code)
        {
            var problem = ServiceProblem(.badRequest, code.rawValue, report.failureDetail ?? code.rawValue)
            problem.logAnnotations = ["outcome": outcome]
            throw problem
        }
        var response = HTTPServerResponse.json(ReportJSON.bytes(report, includeClaims: true, extra: extra),
                                               status: report.verified ? .ok : .unprocessableContent)
        // The outcome code goes into the request's single access-log line (never claims or details).
        response.logAnnotations = ["outcome": outcome]
        return response
    }
}
