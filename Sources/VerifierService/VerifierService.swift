@_exported import ServiceObservability
@_exported import VerifierConfiguration
import AppleWallet
import Foundation
import HTTPServer
import HTTPTypes
import Logging
import MDoc
import OpenID4VP
import OutboundFetch
import PostgresStore
import ServerTLS
import SessionStore
import StatusList
import TrustLists
import TrustManagement
import TrustStore
import ReaderAuthentication
import WebPresentment
import ZKMdoc

/// verifierd: the verification core, the trust store and the HTTP routes, wired from one configuration.
public final class VerifierService: Sendable {
    public let configuration: ServiceConfiguration
    public let iacaTrust: LiveTrustSet
    /// The SD-JWT VC issuer anchors (`sdJwtVc.issuerDirectory`); nil when SD-JWT VC is not configured.
    public let sdJwtVcIssuerTrust: LiveTrustSet?
    public let metrics: ServiceMetrics
    /// The one outbound HTTP client (status lists, VICALs) and its destination policy.
    public let outboundFetcher: OutboundFetcher
    /// Fetches, verifies and caches the status lists that MSOs name.
    public let statusResolver: StatusResolver
    /// The CRLs of issuer, status-list signer, list signer and registration chains, by distribution point.
    public let crlCache: CRLCache
    /// One-time sessions of the web and proximity flows, and issued Apple nonces.
    public let sessionStore: any SessionStore
    /// Where sessions and the trust set live (memory and the directory, or the database).
    public let store: ServiceStorage
    /// The HTTPS listener's certificate and key (reloadable), when `server.tls` is configured.
    public let tlsIdentity: TLSServerIdentity?
    /// Scheduled fetches of `trust.vicalSources`.
    public let vicalRefresher: VICALRefresher
    /// Scheduled fetches of `trust.loteSources` (lists of trusted entities).
    public let loteRefresher: VICALRefresher
    let logger: Logger
    /// The service clock; injectable so tests are repeatable.
    let now: @Sendable () -> Date

    /// The configured check every flow's library is handed (options, status, the trust set in force).
    let verification: ResponseVerification
    // One handler per flow, each holding only what it uses (built here, wired in ``router()``).
    let apple: AppleHandler
    let web: WebHandler
    let proximity: ProximityHandler
    let mdoc: MDocHandler
    let sdJwtVc: SDJWTVCHandler
    let oid4vp: OpenID4VPHandler
    let crossDeviceWallet: CrossDeviceWalletHandler
    let crossDeviceResults: CrossDeviceResultHandler
    /// The providers of access certificates that WRPAC lists in force name (`trust.loteSources` of kind `wrpac`).
    let accessCertificateProviders: ListedProviderAnchors?
    /// The integrators' registration certificates (`registration`), reloaded on SIGHUP.
    let registrations: RegistrationCertificates?
    let presentations: PresentationHandler
    /// Results pushed to integrators (`webhooks`); its delivery loop is ``runWebhookDeliveries()``.
    let webhooks: IntegratorWebhooks?
    let readerTokens: ReaderTokenHandler
    /// The demo page's routes, with a `demo` section only.
    let demo: DemoHandler?
    let trustAdmin: TrustAdminHandler
    /// The same administration for the SD-JWT VC issuer trust set, when configured.
    let sdJwtVcIssuerAdmin: TrustAdminHandler?
    let vicalAdmin: VICALAdminHandler
    let loteAdmin: LoTEAdminHandler
    let statusAdmin: StatusAdminHandler
    let crlAdmin: CRLAdminHandler
    let tlsAdmin: TLSAdminHandler
    let health: HealthHandler
    /// The accepted zero-knowledge systems loaded at start, and those left out for a missing circuit file.
    let zkSystems: [ZKSystem]
    let zkMissing: [String]
    /// Where zero-knowledge proofs run (`zk.maxConcurrent`, `zk.maxQueued`); nil without a `zk` section.
    let zkPool: ZKProofPool?
    let integratorAuthentication: IntegratorAuthentication
    let adminAuthorization: AdminAuthorization

    /// Loads every key and the trust set; any problem is a ``ConfigurationError`` naming the key.
    public init(configuration: ServiceConfiguration, logger: Logger, metrics: ServiceMetrics = ServiceMetrics(),
                now: @escaping @Sendable () -> Date = { Date() },
                statusFetcher: (any StatusListFetching)? = nil,
                sessionStore: (any SessionStore)? = nil, store: ServiceStorage? = nil,
                keyMaterial: ServiceKeyMaterial? = nil) throws(ConfigurationError) {
        let logger = configuration.logging.applied(to: logger)
        // Every key, chain and signer first: a start that fails on one has written nothing (no seeded trust
        // directory).
        let material: ServiceKeyMaterial
        if let keyMaterial { material = keyMaterial } else { material = try ServiceKeyMaterial.load(configuration) }
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
        self.now = now
        let status = configuration.status
        let outbound = OutboundFetcher(policy: DestinationPolicy(
            allowed: configuration.outbound.allowedDestinations, maximumRedirects: configuration.outbound.maxRedirects,
            allowsPublicDestinations: configuration.outbound.publicDestinations),
            maximumTransfers: configuration.outbound.maxConcurrentFetches,
            maximumPerDestination: configuration.outbound.maxConcurrentFetchesPerHost)
        outbound.policy.refuse(listeningPorts: [configuration.server.port] + [configuration.server.plainHealthPort].compactMap { $0 })
        outboundFetcher = outbound
        let fetcher = statusFetcher ?? StatusListFetcher(limits: StatusFetchLimits(
            timeout: TimeInterval(status.fetchTimeoutSeconds), maximumBytes: status.maxListBytes,
            allowedSchemes: Set(status.allowedSchemes)), fetcher: outbound, connectTimeout: configuration.outbound.connectTimeoutSeconds,
            idleTimeout: configuration.outbound.idleTimeoutSeconds)
        if store == nil, case .postgres = configuration.store {
            throw ConfigurationError(key: "store.kind", "the PostgreSQL store is opened with VerifierService.open")
        }
        let opened: ServiceStorage
        if let store {
            opened = store
        } else {
            opened = try ServiceStorage.memory(configuration, logger: logger, sessions: sessionStore)
        }
        self.store = opened
        let store = opened
        let crl = configuration.crl
        let crlCache = CRLCache(
            fetcher: CRLFetcher(fetcher: outbound, maximumBytes: crl.maxBytes, timeout: TimeInterval(crl.fetchTimeoutSeconds),
                                connectTimeout: configuration.outbound.connectTimeoutSeconds,
                                idleTimeout: configuration.outbound.idleTimeoutSeconds, allowedSchemes: Set(crl.allowedSchemes)),
            cacheSeconds: TimeInterval(crl.cacheSeconds), staleGraceSeconds: TimeInterval(crl.staleGraceSeconds),
            maximumBytes: crl.cacheMaxBytes,
            onEvent: { [logger, metrics] event in
                metrics.crl(event)
                if case .fetched(let host, let outcome) = event {
                    logger.info("CRL fetched", metadata: ["host": "\(host)", "outcome": "\(outcome)"])
                }
            })
        self.crlCache = crlCache
        let statusCache = StatusListCache(
            fetcher: fetcher, verifier: StatusListTokenVerifier(clockSkew: TimeInterval(configuration.verification.clockSkewSeconds)),
            cacheSeconds: TimeInterval(status.cacheSeconds),
            staleGraceSeconds: TimeInterval(status.staleGraceSeconds),
            maximumBytes: status.cacheMaxBytes,
            // Replicas on PostgreSQL share their fetches: one fetch per list and refresh, verified by each.
            shared: store.database.map { PostgresStatusLists(database: $0, maximumBytes: status.maxListBytes) },
            claimSeconds: TimeInterval(status.fetchTimeoutSeconds + 5),
            onEvent: { [logger, metrics] event in
                metrics.statusList(event)
                if case .fetched(let host, let outcome) = event {
                    logger.info("status list fetched", metadata: ["host": "\(host)", "outcome": "\(outcome)"])
                }
            })
        statusResolver = StatusResolver(cache: statusCache, crls: crl.mode == .off ? nil : crlCache, crlPolicy: crl.policy, now: now)
        iacaTrust = store.trust
        let vicalSigners = material.vicalSigners
        let vicalVerifier = VICALVerifier(clockSkew: TimeInterval(configuration.verification.clockSkewSeconds))
        vicalRefresher = VICALRefresher(
            sources: configuration.trust.vicalSources,
            fetcher: VICALFetcher(fetcher: outbound, limits: FetchLimits(
                totalTimeout: 20, connectTimeout: TimeInterval(configuration.outbound.connectTimeoutSeconds),
                idleTimeout: TimeInterval(configuration.outbound.idleTimeoutSeconds), maximumBodyBytes: VICALLimits.default.maximumBytes)),
            retrySeconds: TimeInterval(configuration.trust.vicalRetrySeconds), trust: store.trust, signers: vicalSigners,
            verifier: vicalVerifier, now: now, logger: logger,
            // Replicas on PostgreSQL take turns: one refreshes a source when it is due, the others adopt the result.
            ledger: store.database.map { PostgresVICALRefreshLedger(database: $0) },
            onOutcome: { [metrics] source, outcome in metrics.vicalRefresh(source: source, outcome: outcome) })
        // WRPRC and WRPAC providers lists anchor registration certificates and the service's own access certificate;
        // each process keeps them in memory.
        let providerAnchors = Set(material.loteSources.compactMap(\.scope.providers)).map(ListedProviderAnchors.init(role:))
        let registrationProviders = providerAnchors.first { $0.role == .registrationCertificates }
        let accessProviders = providerAnchors.first { $0.role == .accessCertificates }
        accessCertificateProviders = accessProviders
        let loteImporter = LoTEImporter(sources: material.loteSources, iaca: store.trust, sdJwtVcIssuers: store.sdJwtVcIssuers,
                                        providerAnchors: providerAnchors,
                                        verifier: LoTEVerifier(clockSkew: TimeInterval(configuration.verification.clockSkewSeconds)),
                                        crls: crl.mode == .off ? nil : crlCache, crlPolicy: crl.policy)
        loteRefresher = VICALRefresher(
            sources: material.loteSources.map(\.scheduled),
            fetcher: VICALFetcher(fetcher: outbound, limits: FetchLimits(
                totalTimeout: 20, connectTimeout: TimeInterval(configuration.outbound.connectTimeoutSeconds),
                idleTimeout: TimeInterval(configuration.outbound.idleTimeoutSeconds), maximumBodyBytes: LoTELimits.default.maximumBytes)),
            retrySeconds: TimeInterval(configuration.trust.vicalRetrySeconds), importer: loteImporter, now: now, logger: logger,
            // The same ledger as VICALs: list sources are keyed `lote:<name>`, never a VICAL source name.
            ledger: store.database.map { PostgresVICALRefreshLedger(database: $0) },
            onOutcome: { [metrics] source, outcome in
                // The refresher names sources `lote:<name>`; the metrics, as the configuration, `<name>`.
                let prefix = TrustAnchorMetadata.loteSourcePrefix
                metrics.loteRefresh(source: source.hasPrefix(prefix) ? String(source.dropFirst(prefix.count)) : source, outcome: outcome)
            })
        let readerTokenService = material.readerTokens
        let merchantKeys = material.merchantKeys
        let readerAuthKey = material.readerAuth
        let requestBuilder = DeviceRequestBuilder(readerAuth: readerAuthKey, mode: configuration.readerAuth?.mode ?? .readerAuth)
        tlsIdentity = material.tlsIdentity
        self.sessionStore = store.sessions
        integratorAuthentication = IntegratorAuthentication(configuration.integrators)
        adminAuthorization = AdminAuthorization(token: configuration.admin.token)
        let admission = SessionAdmission(configuration: configuration, integratorCount: integratorAuthentication.integratorCount)

        let sessions = SessionGate(store: store.sessions, quota: admission.quota, metrics: metrics, now: now)
        let registrations = try configuration.registration.map { (section) throws(ConfigurationError) in
            try RegistrationCertificates(section, now: now(), providerLists: registrationProviders, crls: crlCache,
                                         revocationPolicy: crl.policy, logger: logger, clock: now)
        }
        self.registrations = registrations
        // The SD-JWT VC issuer trust set: kept like the IACAs (its directory, or its table of versions on PostgreSQL).
        sdJwtVcIssuerTrust = store.sdJwtVcIssuers
        zkSystems = material.zkSystems
        zkMissing = material.zkMissing
        let integratorCount = integratorAuthentication.integratorCount
        let zeroKnowledge = configuration.zeroKnowledge.map { section in
            ZkDocumentVerifier(systems: material.zkSystems, clockSkew: TimeInterval(configuration.verification.clockSkewSeconds),
                               maximumAge: TimeInterval(section.maxAgeSeconds),
                               pool: ZKProofPool(maximumRunning: section.maxConcurrent, maximumWaiting: section.maxQueued,
                                                 maximumPerCaller: section.perIntegratorShare(
                                                     integratorCount: integratorCount)))
        }
        zkPool = zeroKnowledge?.pool
        let verification = ResponseVerification(configuration: configuration, trust: store.trust,
                                                statusResolver: statusResolver, now: now, sdJwtVcIssuers: sdJwtVcIssuerTrust,
                                                outbound: outboundFetcher, zeroKnowledge: zeroKnowledge)
        self.verification = verification
        let clock = RequestClock(allowOverride: configuration.verification.allowVerificationTimeOverride, now: now)
        apple = AppleHandler(apple: configuration.apple,
                             merchantKeys: MerchantKeyRing(files: configuration.apple?.encryptionKeys ?? [], keys: merchantKeys),
                             metrics: metrics,
                             nonces: AppleNonces(sessions: sessions, lifetime: TimeInterval(configuration.apple?.nonceTTLSeconds ?? 0)),
                             verification: verification, clock: clock)
        web = WebHandler(registrations: registrations, web: configuration.web, requestBuilder: requestBuilder, sessions: sessions,
                         verification: verification, clock: clock)
        proximity = ProximityHandler(proximity: configuration.proximity, requestBuilder: requestBuilder, sessions: sessions,
                                     verification: verification, clock: clock)
        mdoc = MDocHandler(verification: verification, clock: clock)
        sdJwtVc = SDJWTVCHandler(verification: verification, clock: clock)
        if let section = configuration.webhooks {
            webhooks = try IntegratorWebhooks(section, store: store, fetcher: outboundFetcher, outbound: configuration.outbound,
                                              metrics: metrics, logger: logger, now: now)
        } else {
            webhooks = nil
        }
        let waiters = ResultWaiters()
        oid4vp = OpenID4VPHandler(oid4vp: configuration.oid4vp, signer: material.requestObjectSigner, registrations: registrations,
                                  sessions: sessions, verification: verification, clock: clock)
        crossDeviceResults = CrossDeviceResultHandler(oid4vp: configuration.oid4vp, sessions: sessions, waiters: waiters,
                                                      sharedStore: store.database != nil)
        crossDeviceWallet = CrossDeviceWalletHandler(oid4vp: configuration.oid4vp, signer: material.requestObjectSigner,
                                                     sessions: sessions, verification: verification, clock: clock,
                                                     waiters: waiters, webhooks: webhooks)
        readerTokens = ReaderTokenHandler(readerTokens: readerTokenService, metrics: metrics, now: now)
        presentations = PresentationHandler(presentations: configuration.presentations, web: configuration.web,
                                            oid4vp: configuration.oid4vp, requestBuilder: requestBuilder,
                                            signer: material.requestObjectSigner, registrations: registrations, sessions: sessions,
                                            verification: verification, clock: clock)
        if let section = configuration.demo, let webConfiguration = configuration.web {
            demo = DemoHandler(integrator: Integrator(name: section.integrator), presentations: presentations,
                               webConfiguration: webConfiguration,
                               tls: configuration.server.tls != nil)
        } else {
            demo = nil
        }
        trustAdmin = TrustAdminHandler(trust: store.trust, expiringWindowDays: configuration.trust.expiringWindowDays, now: now)
        sdJwtVcIssuerAdmin = sdJwtVcIssuerTrust.map {
            TrustAdminHandler(trust: $0, expiringWindowDays: configuration.trust.expiringWindowDays, now: now)
        }
        vicalAdmin = VICALAdminHandler(trust: store.trust, signers: vicalSigners, verifier: vicalVerifier,
                                       scheduled: configuration.trust.vicalSources, refresher: vicalRefresher, clock: clock)
        loteAdmin = LoTEAdminHandler(sources: material.loteSources, importer: loteImporter, refresher: loteRefresher, clock: clock)
        statusAdmin = StatusAdminHandler(statusResolver: statusResolver, now: now)
        crlAdmin = CRLAdminHandler(cache: crlCache, now: now)
        tlsAdmin = TLSAdminHandler(identity: tlsIdentity, logger: logger, metrics: metrics)
        let accessListing: AccessCertificateListing? = if let readerAuth = material.readerAuth, let accessProviders {
            AccessCertificateListing(chain: readerAuth.chain, providers: accessProviders)
        } else { nil }
        health = HealthHandler(trust: store.trust, store: store, appleConfigured: configuration.apple != nil,
                               merchantKeyCount: merchantKeys.count, scheduledSources: configuration.trust.vicalSources.map(\.name),
                               refresher: vicalRefresher, lotes: loteAdmin, tlsIdentity: tlsIdentity, registrations: registrations,
                               accessCertificate: accessListing,
                               metrics: metrics, now: now)
    }

    /// Delivers the outbox's webhooks until cancelled (nothing without a `webhooks` section).
    public func runWebhookDeliveries() async {
        await webhooks?.dispatcher.run()
    }

    /// Tells the outbound policy the ports this process listens on once they are known (a configured port 0 is
    /// chosen at start): no fetch may reach them, even through `outbound.allowedDestinations`.
    public func listening(on ports: [Int]) {
        outboundFetcher.policy.refuse(listeningPorts: ports)
    }

    /// A service on the configured store: with PostgreSQL, connects, migrates and reads the shared trust set
    /// first (``ServiceStorage/open(_:logger:migrate:)``).
    public static func open(configuration: ServiceConfiguration, logger: Logger, metrics: ServiceMetrics = ServiceMetrics(),
                            now: @escaping @Sendable () -> Date = { Date() }) async throws(ConfigurationError) -> VerifierService {
        let material = try ServiceKeyMaterial.load(configuration)
        let store = try await ServiceStorage.open(configuration, logger: logger)
        return try VerifierService(configuration: configuration, logger: logger, metrics: metrics, now: now, store: store,
                                   keyMaterial: material)
    }

    /// Every route of the service, in one table: group (who may call), method, path, handler.
    public func router() -> Router {
        var routes = RouteTable(metrics: metrics)
        let integrator = RouteGroup.integrators(integratorAuthentication, metrics: metrics)
        let admin = RouteGroup.admin(adminAuthorization)

        routes.add(integrator, .post, "/v1/apple/nonces", apple.issueNonce(_:for:))
        routes.add(integrator, .post, "/v1/apple/verify", metered: "apple", apple.verify(_:for:))
        routes.add(integrator, .post, "/v1/apple/session-transcript", now: apple.sessionTranscript(_:for:))
        routes.add(integrator, .post, "/v1/web/requests", web.createRequest(_:for:))
        routes.add(integrator, .post, "/v1/web/verify", metered: "web", web.verify(_:for:))
        routes.add(integrator, .post, "/v1/proximity/sessions", proximity.createSession(_:for:))
        routes.add(integrator, .post, "/v1/proximity/sessions/:id/messages", metered: "proximity", proximity.message(_:for:))
        routes.add(integrator, .post, "/v1/mdoc/verify", metered: "mdoc", mdoc.verify(_:for:))
        routes.add(integrator, .post, "/v1/sd-jwt-vc/verify", metered: "sd-jwt-vc", sdJwtVc.verify(_:for:))
        routes.add(integrator, .post, "/v1/presentations/requests", presentations.createRequest(_:for:))
        routes.add(integrator, .post, "/v1/presentations/verify", metered: "presentations", presentations.verify(_:for:))
        routes.add(integrator, .post, "/v1/oid4vp/requests", oid4vp.createRequest(_:for:))
        routes.add(integrator, .post, "/v1/oid4vp/verify", metered: "oid4vp", oid4vp.verify(_:for:))
        // The two GETs that take a one-time record: HEAD is 405 there (it would take the record without answering it).
        routes.add(integrator, .get, "/v1/oid4vp/sessions/:id/result", takesRecord: true, crossDeviceResults.result(_:for:))
        // The only routes a wallet calls: no integrator token, one use each, no verification outcome revealed.
        routes.add(.open, .get, "/v1/oid4vp/request-objects/:id", takesRecord: true, crossDeviceWallet.requestObject(_:_:))
        routes.add(.open, .post, "/v1/oid4vp/request-objects/:id", crossDeviceWallet.requestObject(_:_:))
        routes.add(.open, .post, "/v1/oid4vp/responses/:id", metered: "oid4vp-cross-device", crossDeviceWallet.walletResponse(_:_:))

        routes.add(admin, .get, "/v1/admin/iaca", now: trustAdmin.listAnchors(_:by:))
        routes.add(admin, .post, "/v1/admin/iaca", trustAdmin.addAnchors(_:by:))
        routes.add(admin, .put, "/v1/admin/iaca", trustAdmin.replaceAnchors(_:by:))
        routes.add(admin, .delete, "/v1/admin/iaca/:sha256", trustAdmin.removeAnchor(_:by:))
        routes.add(admin, .post, "/v1/admin/iaca/reload", trustAdmin.reloadAnchors(_:by:))
        routes.add(admin, .get, "/v1/admin/trust/changes", trustAdmin.trustChanges(_:by:))
        // The SD-JWT VC issuer anchors, administered exactly like the IACAs (no VICALs: those list IACAs).
        if let issuers = sdJwtVcIssuerAdmin {
            routes.add(admin, .get, "/v1/admin/sd-jwt-vc-issuers", now: issuers.listAnchors(_:by:))
            routes.add(admin, .post, "/v1/admin/sd-jwt-vc-issuers", issuers.addAnchors(_:by:))
            routes.add(admin, .put, "/v1/admin/sd-jwt-vc-issuers", issuers.replaceAnchors(_:by:))
            routes.add(admin, .delete, "/v1/admin/sd-jwt-vc-issuers/:sha256", issuers.removeAnchor(_:by:))
            routes.add(admin, .post, "/v1/admin/sd-jwt-vc-issuers/reload", issuers.reloadAnchors(_:by:))
            routes.add(admin, .get, "/v1/admin/sd-jwt-vc-issuers/changes", issuers.trustChanges(_:by:))
        }
        routes.add(admin, .get, "/v1/admin/vicals", vicalAdmin.listSources(_:by:))
        routes.add(admin, .post, "/v1/admin/vicals/:source", vicalAdmin.importVICAL(_:by:))
        routes.add(admin, .get, "/v1/admin/lotes", loteAdmin.listSources(_:by:))
        routes.add(admin, .post, "/v1/admin/lotes/:source", loteAdmin.importList(_:by:))
        routes.add(admin, .get, "/v1/admin/status-cache", statusAdmin.statusCache(_:by:))
        routes.add(admin, .get, "/v1/admin/crl-cache", crlAdmin.crlCache(_:by:))
        routes.add(admin, .post, "/v1/admin/tls/reload", tlsAdmin.reload(_:by:))

        // Reader tokens check their own client tokens (readerTokens.clientTokens), after saying whether they are on.
        routes.add(.open, .post, "/v1/reader-tokens", now: readerTokens.mint(_:for:))
        routes.add(.open, .get, "/admin", now: ConsoleHandler.page)
        routes.add(.open, .get, "/admin/console.js", now: ConsoleHandler.script)
        routes.add(.open, .get, "/admin/console.css", now: ConsoleHandler.style)
        routes.add(.open, .get, "/openapi.json") { _, _ in .json(Array(EmbeddedAssets.openAPIDocument.utf8)) }
        // The demo page (a `demo` section only): no token, its sessions are the configured integrator's.
        if let demo {
            let page = RouteGroup.demo(demo.integrator, metrics: metrics)
            routes.add(.open, .get, "/demo", now: DemoHandler.page)
            routes.add(.open, .get, "/demo/demo.js", now: DemoHandler.script)
            routes.add(.open, .get, "/demo/demo.css", now: DemoHandler.style)
            routes.add(page, .post, "/demo/requests", demo.createRequest(_:for:))
            routes.add(page, .post, "/demo/verify", metered: "presentations", demo.verify(_:for:))
        }
        // Health and metrics answer on the connection's queue, so they stay fast while verifications fill the pool.
        HealthHandler.add(health, to: &routes)
        return routes.router
    }

    /// The routes of the plain-HTTP health listener (`server.plainHealthPort`): probes and metrics, nothing else.
    public func healthRouter() -> Router {
        var routes = RouteTable(metrics: metrics)
        HealthHandler.add(health, to: &routes)
        return routes.router
    }

    /// Reads the certificate and key files again; new handshakes use the new pair, open connections keep theirs.
    /// A pair that does not load is refused with a log line and the one in force stays (SIGHUP).
    @discardableResult
    public func reloadTLS(actor: String) -> TLSReloadOutcome {
        tlsAdmin.reload(actor: actor)
    }

    /// Re-reads the merchant encryption key files (SIGHUP). On success the new keys are in force and their pkRHash
    /// values logged; on any problem the keys in force stay and the error is logged. Returns whether it reloaded.
    @discardableResult
    public func reloadMerchantKeys(actor: String) -> Bool {
        guard configuration.apple != nil else { return false }
        do throws(ConfigurationError) {
            let keys = try apple.merchantKeys.reload()
            logger.notice("merchant encryption keys reloaded", metadata: [
                "actor": "\(actor)", "keyCount": .stringConvertible(keys.count),
                "pkRHashes": .array(keys.map { .string($0.pkRHash.hexString) })])
            return true
        } catch {
            logger.error("merchant encryption keys not reloaded; the keys in force stay", metadata: [
                "actor": "\(actor)", "reason": "\(error.key): \(error.reason)"])
            return false
        }
    }

    /// Re-reads the registration certificates (SIGHUP): a file that does not load keeps the certificates in force.
    @discardableResult
    public func reloadRegistrationCertificates(actor: String) -> Bool {
        guard let registrations else { return false }
        do throws(ConfigurationError) {
            try registrations.reload(now: now())
            logger.notice("registration certificates reloaded", metadata: [
                "actor": "\(actor)", "integrators": .array(registrations.all.keys.sorted().map { .string($0) })])
            Task { await checkRegistrationRevocation() }
            return true
        } catch {
            logger.error("registration certificates not reloaded; those in force stay", metadata: [
                "actor": "\(actor)", "reason": "\(error.key): \(error.reason)"])
            return false
        }
    }

    /// Checks the CRLs of every registration certificate in force (`crl.mode` on): at start and after a reload, so a
    /// revoked one is reported at once and the first request finds the CRLs cached.
    public func checkRegistrationRevocation() async {
        await registrations?.checkRevocationOfAll(now: now())
    }

    /// The routes whose answers may hold `zkDocuments`, and so take bodies up to `zk.maxBodyBytes`.
    static let zeroKnowledgeRoutes = ["/v1/mdoc/verify", "/v1/web/verify", "/v1/presentations/verify", "/demo/verify",
                                      "/v1/oid4vp/verify", "/v1/oid4vp/responses/", "/v1/proximity/sessions/"]

    /// The HTTP server settings for the main listener: address, limits, and TLS when configured.
    public func httpServerConfiguration() -> HTTPServerConfiguration {
        var http = HTTPServerConfiguration(host: configuration.server.host, port: configuration.server.port)
        http.maxBodyBytes = configuration.server.maxBodyBytes
        if let zk = configuration.zeroKnowledge {
            // Proofs are large (an ISRG v7 proof is about 837 KB, more in base64): only the routes that carry
            // DeviceResponses from wallets that send them take bodies up to zk.maxBodyBytes.
            http.largeBodyPaths = Dictionary(uniqueKeysWithValues: Self.zeroKnowledgeRoutes.map { ($0, zk.maxBodyBytes) })
        }
        http.maxConnections = configuration.server.maxConnections
        http.shutdownGracePeriod = .seconds(configuration.server.shutdownGraceSeconds)
        http.tls = tlsIdentity
        http.clientCertificateRequiredPrefixes = configuration.server.tls?.requireClientCertificateFor ?? []
        http.problemTypeBase = ServiceProblem.typeBase
        return http
    }
}
