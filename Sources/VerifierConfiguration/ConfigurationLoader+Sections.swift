import Webhooks
import DigitalCredentials
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MDoc
import OpenID4VP
import OutboundFetch
import ReaderAuthentication
import SDJWTVC
import ServerTLS
import StrictJSON
import TrustManagement
import TrustStore
import WebPresentment

/// The readers of the configuration's sections, each checking its keys and naming the one at fault.
extension ConfigurationLoader.Values {
    /// `integrators`: tokens by name (in the file, `VERIFIERD_INTEGRATORS_TOKENS` as `name=token,…`, or a
    /// `tokensFile` of `name=token` lines), whether a token is required, and the per-integrator session share.
    func integrators() throws(ConfigurationError) -> ServiceConfiguration.Integrators {
        typealias Integrators = ServiceConfiguration.Integrators
        var integrators = Integrators()
        var entries = try stringMap("integrators", "tokens").sorted { $0.key < $1.key }.map { (key: "integrators.tokens.\($0.key)", name: $0.key, token: $0.value) }
        for (index, line) in (try secretFile("integrators", "tokens") ?? []).enumerated() {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else {
                throw ConfigurationError(key: "integrators.tokensFile", "line \(index + 1) is not name=token")
            }
            entries.append((key: "integrators.tokensFile (line \(index + 1))", name: parts[0], token: parts[1]))
        }
        for entry in entries {
            guard Integrators.isValidName(entry.name), entry.name != Integrators.anonymous else {
                throw ConfigurationError(key: entry.key,
                    "an integrator name is 1 to 64 lowercase letters, digits, '.', '_' or '-' (and not \"anonymous\")")
            }
            guard integrators.tokens[entry.name] == nil else {
                throw ConfigurationError(key: entry.key, "integrator \"\(entry.name)\" is named twice")
            }
            guard entry.token.utf8.count >= 16 else {
                throw ConfigurationError(key: entry.key, "a token must be at least 16 characters")
            }
            guard !integrators.tokens.values.contains(entry.token) else {
                throw ConfigurationError(key: entry.key, "two integrators share a token; give each its own")
            }
            integrators.tokens[entry.name] = entry.token
        }
        integrators.requireToken = try bool("integrators", "requireToken", default: true)
        if raw("integrators", "maxSessionsPerIntegrator") != nil {
            integrators.maxSessionsPerIntegrator = try int("integrators", "maxSessionsPerIntegrator", default: 1,
                                                           range: 1...10_000_000)
        }
        return integrators
    }

    func outbound() throws(ConfigurationError) -> ServiceConfiguration.Outbound {
        var outbound = ServiceConfiguration.Outbound()
        for (index, entry) in (try stringList("outbound", "allowedDestinations") ?? []).enumerated() {
            guard let destination = AllowedDestination(entry) else {
                throw ConfigurationError(key: "outbound.allowedDestinations[\(index)]",
                    "\"\(entry)\" is not host:port (an IPv4 address, [IPv6 address] or host name, and a port 1-65535)")
            }
            outbound.allowedDestinations.append(destination)
        }
        outbound.publicDestinations = try bool("outbound", "publicDestinations", default: true)
        outbound.maxRedirects = try int("outbound", "maxRedirects", default: 3, range: 0...3)
        outbound.connectTimeoutSeconds = try int("outbound", "connectTimeoutSeconds", default: 5, range: 1...60)
        outbound.idleTimeoutSeconds = try int("outbound", "idleTimeoutSeconds", default: 10, range: 1...300)
        outbound.maxConcurrentFetches = try int("outbound", "maxConcurrentFetches", default: 32, range: 1...1024)
        outbound.maxConcurrentFetchesPerHost = try int("outbound", "maxConcurrentFetchesPerHost", default: 4, range: 1...64)
        return outbound
    }

    func tls() throws(ConfigurationError) -> ServiceConfiguration.TLS? {
        let section = "server.tls"
        guard sectionPresent(section) else { return nil }
        var settings = TLSSettings(certificateChain: path(try requiredString(section, "certificateChain")),
                                   privateKey: path(try requiredString(section, "privateKey")))
        if let text = try string(section, "minimumVersion") {
            guard let version = TLSSettings.MinimumVersion(rawValue: text) else {
                throw ConfigurationError(key: "\(section).minimumVersion", "must be \"1.2\" or \"1.3\", got \"\(text)\"")
            }
            settings.minimumVersion = version
        }
        settings.clientCA = try string(section, "clientCA").map(path)
        let hours = try int(section, "ticketKeyLifetimeHours", default: 12, range: 1...168)
        settings.ticketKeyLifetime = .seconds(hours * 3600)
        var prefixes = try stringList(section, "requireClientCertificateFor")
        if prefixes != nil, settings.clientCA == nil {
            throw ConfigurationError(key: "\(section).requireClientCertificateFor", "needs \(section).clientCA")
        }
        if settings.clientCA != nil, prefixes == nil { prefixes = ["/v1/admin/"] }
        for (index, prefix) in (prefixes ?? []).enumerated() where !prefix.hasPrefix("/") {
            throw ConfigurationError(key: "\(section).requireClientCertificateFor[\(index)]", "must start with /")
        }
        return ServiceConfiguration.TLS(settings: settings, requireClientCertificateFor: prefixes ?? [])
    }

    /// `store`: `{"kind": "memory"}` (the default) or `{"kind": "postgres", "url", "sessionKeyFile", ...}`.
    func store() throws(ConfigurationError) -> ServiceConfiguration.Store {
        let kind = try string("store", "kind") ?? (sectionPresent("store") ? nil : "memory")
        switch kind {
        case "memory":
            for key in ConfigurationLoader.schema["store"] ?? [] where key != "kind" && raw("store", key) != nil {
                throw ConfigurationError(key: "store.\(key)", "only applies with \"kind\": \"postgres\"")
            }
            if sectionPresent("store.tls") {
                throw ConfigurationError(key: "store.tls", "only applies with \"kind\": \"postgres\"")
            }
            return .memory
        case "postgres":
            var postgres = ServiceConfiguration.Postgres(
                url: try requiredString("store", "url"),
                passwordFile: try string("store", "passwordFile").map(path),
                sessionKeyFile: path(try requiredString("store", "sessionKeyFile")))
            postgres.poolSize = try int("store", "poolSize", default: ServiceConfiguration.Postgres.defaultPoolSize, range: 1...256)
            postgres.operationTimeoutMs = try int("store", "operationTimeoutMs", default: 2000, range: 100...60_000)
            if let mode = try string("store.tls", "mode") {
                guard ["disable", "prefer", "require"].contains(mode) else {
                    throw ConfigurationError(key: "store.tls.mode", "must be \"disable\", \"prefer\" or \"require\", got \"\(mode)\"")
                }
                postgres.tlsMode = mode
            }
            postgres.tlsCAFile = try string("store.tls", "caFile").map(path)
            if postgres.tlsCAFile != nil && postgres.tlsMode != "require" {
                throw ConfigurationError(key: "store.tls.caFile", "only applies with store.tls.mode \"require\"")
            }
            return .postgres(postgres)
        case nil:
            throw ConfigurationError(key: "store.kind", "is required: \"memory\" or \"postgres\"")
        case let other?:
            throw ConfigurationError(key: "store.kind", "must be \"memory\" or \"postgres\", got \"\(other)\"")
        }
    }

    func readerAuth() throws(ConfigurationError) -> ServiceConfiguration.ReaderAuth? {
        guard sectionPresent("readerAuth") else { return nil }
        var section = ServiceConfiguration.ReaderAuth(
            signingKey: path(try requiredString("readerAuth", "signingKey")),
            certificateChain: path(try requiredString("readerAuth", "certificateChain")))
        if let text = try string("readerAuth", "mode") {
            guard let mode = ReaderAuthMode(rawValue: text) else {
                throw ConfigurationError(key: "readerAuth.mode",
                                         "must be \"readerAuth\", \"readerAuthAll\" or \"both\", got \"\(text)\"")
            }
            section.mode = mode
        }
        return section
    }

    func oid4vp() throws(ConfigurationError) -> ServiceConfiguration.OpenID4VP? {
        guard sectionPresent("oid4vp") else { return nil }
        let origins = try stringList("oid4vp", "allowedOrigins") ?? []
        guard !origins.isEmpty else { throw ConfigurationError(key: "oid4vp.allowedOrigins", "needs at least one origin") }
        for (index, text) in origins.enumerated() where !OpenID4VPOrigin.isValid(text) {
            throw ConfigurationError(key: "oid4vp.allowedOrigins[\(index)]",
                "\"\(text)\" is neither a serialized origin (scheme://host[:port], lower case, no path or trailing slash) "
                    + "nor android:apk-key-hash:<base64url SHA-256>")
        }
        let base = try string("oid4vp", "publicBaseUrl")
        if let base {
            guard let url = URL(string: base), url.scheme == "https" || url.scheme == "http", url.host != nil,
                  url.query == nil, url.fragment == nil, !base.hasSuffix("/")
            else {
                throw ConfigurationError(key: "oid4vp.publicBaseUrl", "\"\(base)\" is not an http(s) base URL without query, fragment or trailing slash")
            }
        }
        var section = ServiceConfiguration.OpenID4VP(
            allowedOrigins: origins,
            sessionTTLSeconds: try int("oid4vp", "sessionTTLSeconds", default: 300, range: 30...3600),
            allowUnencryptedResponses: try bool("oid4vp", "allowUnencryptedResponses", default: false),
            publicBaseURL: base)
        if let text = try string("oid4vp", "clientIdPrefix") {
            guard let prefix = RequestObjectSigner.ClientIdPrefix(rawValue: text) else {
                throw ConfigurationError(key: "oid4vp.clientIdPrefix", "must be \"x509_hash\" or \"x509_san_dns\", got \"\(text.prefix(64))\"")
            }
            section.clientIdPrefix = prefix
        }
        if let name = try string("oid4vp", "clientIdDnsName") {
            guard section.clientIdPrefix == .x509SanDNS else {
                throw ConfigurationError(key: "oid4vp.clientIdDnsName", "goes with oid4vp.clientIdPrefix \"x509_san_dns\"")
            }
            section.clientIdDnsName = name
        }
        if let text = try string("oid4vp", "walletAuthorizationEndpoint") {
            guard let endpoint = WalletAuthorizationEndpoint(text) else {
                throw ConfigurationError(key: "oid4vp.walletAuthorizationEndpoint", "\"\(text.prefix(200))\" is neither a custom scheme "
                                         + "(scheme://, e.g. openid4vp:// or haip-vp://) nor an https URL without query or fragment")
            }
            section.walletAuthorizationEndpoint = endpoint
        }
        if let text = try string("oid4vp", "requestUriMethod") {
            guard let method = RequestURIMethod(rawValue: text) else {
                throw ConfigurationError(key: "oid4vp.requestUriMethod", "must be \"get\" or \"post\"")
            }
            section.requestURIMethod = method
        }
        section.transactionData = try transactionDataPolicy()
        return section
    }

    /// `demo`: on when the section is present (and `enabled` is not false); its integrator must be a configured
    /// one, and the page needs the web flow.
    func demo(integrators: ServiceConfiguration.Integrators, web: ServiceConfiguration.Web?)
        throws(ConfigurationError) -> ServiceConfiguration.Demo?
    {
        guard sectionPresent("demo"), try bool("demo", "enabled", default: true) else { return nil }
        let name = try requiredString("demo", "integrator")
        guard integrators.tokens[name] != nil else {
            throw ConfigurationError(key: "demo.integrator", "\"\(name)\" is not an integrator in integrators.tokens")
        }
        guard web != nil else {
            throw ConfigurationError(key: "demo", "needs the web section (the page's origin must be in web.allowedOrigins)")
        }
        return ServiceConfiguration.Demo(integrator: name)
    }

    /// `registration`: the registrar anchors (PEM files; at least one unless a WRPRC providers list, `providerLists`,
    /// names them) and, per configured integrator, its registration certificate file; the files themselves are read
    /// and checked when the service starts. A WRPRC providers list without this section anchors nothing and is refused.
    func registration(integrators: ServiceConfiguration.Integrators, providerLists: [String] = [])
        throws(ConfigurationError) -> ServiceConfiguration.Registration?
    {
        guard sectionPresent("registration") else {
            if let name = providerLists.first {
                throw ConfigurationError(key: "trust.loteSources", "the wrprc list \(name) anchors registration certificates, "
                                         + "but there is no registration section")
            }
            return nil
        }
        let anchors = try stringList("registration", "registrarAnchors") ?? []
        guard !anchors.isEmpty || !providerLists.isEmpty else {
            throw ConfigurationError(key: "registration.registrarAnchors", "names no registrar anchor (PEM files of the registrars' CAs), "
                                     + "and no wrprc list in trust.loteSources names providers")
        }
        guard case .file(.object(let entries))? = raw("registration", "certificates"), !entries.isEmpty else {
            throw ConfigurationError(key: "registration.certificates", "must be an object of integrator name -> registration certificate file")
        }
        var certificates: [String: URL] = [:]
        for (name, value) in entries.sorted(by: { $0.key < $1.key }) {
            guard integrators.tokens[name] != nil else {
                throw ConfigurationError(key: "registration.certificates.\(name)", "names no configured integrator")
            }
            guard case .string(let file) = value else {
                throw ConfigurationError(key: "registration.certificates.\(name)", "must be the path of the certificate file")
            }
            certificates[name] = path(file)
        }
        return ServiceConfiguration.Registration(registrarAnchors: anchors.map(path), certificates: certificates)
    }

    /// `presentations`: the protocols one multi-protocol request offers, in order, and its sessions' lifetime. A listed
    /// protocol must be one the configuration can make: `org-iso-mdoc` needs `web`, the OpenID4VP ones `oid4vp`, the
    /// signed one `readerAuth` too.
    func presentations(web: Bool, oid4vp: Bool, readerAuth: Bool) throws(ConfigurationError) -> ServiceConfiguration.Presentations {
        var presentations = ServiceConfiguration.Presentations()
        if let names = try stringList("presentations", "protocols") {
            var protocols: [DigitalCredentialProtocol] = []
            for (index, name) in names.enumerated() {
                guard let offer = DigitalCredentialProtocol(rawValue: name), !protocols.contains(offer) else {
                    throw ConfigurationError(key: "presentations.protocols[\(index)]", "\"\(name)\" is not one of "
                        + DigitalCredentialProtocol.allCases.map(\.rawValue).joined(separator: ", ") + ", or is listed twice")
                }
                let missing: String?
                switch offer {
                case .isoMdoc: missing = web ? nil : "the web section"
                case .openID4VPUnsigned: missing = oid4vp ? nil : "the oid4vp section"
                case .openID4VPSigned: missing = !oid4vp ? "the oid4vp section" : (readerAuth ? nil : "readerAuth (its signing key)")
                }
                if let missing {
                    throw ConfigurationError(key: "presentations.protocols[\(index)]",
                                             "\"\(name)\" needs \(missing), which this configuration does not have: it could never be offered")
                }
                protocols.append(offer)
            }
            guard !protocols.isEmpty else {
                throw ConfigurationError(key: "presentations.protocols", "lists no protocol; omit it for the default order")
            }
            presentations.protocols = protocols
        }
        presentations.sessionTTLSeconds = try int("presentations", "sessionTTLSeconds", default: 300, range: 30...3600)
        return presentations
    }

    /// `zk`: the accepted zero-knowledge systems (versions 6 and 7 only: earlier circuits predate the fix of a soundness
    /// flaw), their circuit files, the proof pool and the larger body limit of the routes that may carry a proof.
    func zeroKnowledge(maxBodyBytes: Int) throws(ConfigurationError) -> ServiceConfiguration.ZeroKnowledge? {
        guard sectionPresent("zk") else { return nil }
        var zk = ServiceConfiguration.ZeroKnowledge()
        let key = "zk.systems"
        let members = ["version", "attributes", "circuitFile", "id"]
        let items = try ConfigurationLoader.array(raw("zk", "systems"), key: key, of: #"{"version", "attributes", "circuitFile"}"#)
        for (index, item) in items.enumerated() {
            let itemKey = "\(key)[\(index)]"
            guard case .object(let object) = item else { throw ConfigurationError(key: itemKey, "must be an object") }
            if let unknown = Set(object.keys).subtracting(members).sorted().first {
                throw ConfigurationError(key: "\(itemKey).\(unknown)", "unknown key (expected \(members.joined(separator: ", ")))")
            }
            guard case .integer(let versionValue)? = object["version"], let version = Int(exactly: versionValue) else {
                throw ConfigurationError(key: "\(itemKey).version", "must be 6 or 7")
            }
            guard version >= 6 else {
                throw ConfigurationError(key: "\(itemKey).version", "\(version) is refused: circuits before version 6 predate the "
                                         + "fix of a soundness flaw (ISRG-01); use 6 or 7")
            }
            guard version <= 7 else { throw ConfigurationError(key: "\(itemKey).version", "must be 6 or 7") }
            guard case .integer(let attributesValue)? = object["attributes"], let attributes = Int(exactly: attributesValue),
                  (1...4).contains(attributes) else {
                throw ConfigurationError(key: "\(itemKey).attributes", "must be 1 to 4 (the published circuits)")
            }
            guard case .string(let file)? = object["circuitFile"], !file.isEmpty else {
                throw ConfigurationError(key: "\(itemKey).circuitFile", "must name the circuit file")
            }
            var id: String?
            if let raw = object["id"] {
                guard case .string(let text) = raw, !text.isEmpty, text.utf8.count <= 256 else {
                    throw ConfigurationError(key: "\(itemKey).id", "must be a text of 1 to 256 bytes")
                }
                id = text
            }
            let system = ServiceConfiguration.ZeroKnowledge.System(version: version, attributes: attributes, circuitFile: path(file), id: id)
            guard !zk.systems.contains(where: { $0.version == version && $0.attributes == attributes }) else {
                throw ConfigurationError(key: itemKey, "version \(version) with \(attributes) attribute(s) is listed twice")
            }
            if let id, zk.systems.contains(where: { $0.id == id }) {
                throw ConfigurationError(key: "\(itemKey).id", "\"\(id)\" names another system already")
            }
            zk.systems.append(system)
        }
        if let missing = try string("zk", "missingCircuits") {
            guard let mode = ServiceConfiguration.ZeroKnowledge.MissingCircuits(rawValue: missing) else {
                throw ConfigurationError(key: "zk.missingCircuits", "must be \"fail\" or \"warn\"")
            }
            zk.missingCircuits = mode
        }
        zk.maxConcurrent = try int("zk", "maxConcurrent", default: zk.maxConcurrent, range: 1...64)
        zk.maxQueued = try int("zk", "maxQueued", default: zk.maxQueued, range: 0...1024)
        if raw("zk", "maxPerIntegrator") != nil {
            zk.maxPerIntegrator = try int("zk", "maxPerIntegrator", default: 1, range: 1...(zk.maxConcurrent + zk.maxQueued))
        }
        zk.maxBodyBytes = try int("zk", "maxBodyBytes", default: max(zk.maxBodyBytes, maxBodyBytes), range: maxBodyBytes...(16 << 20))
        zk.maxAgeSeconds = try int("zk", "maxAgeSeconds", default: zk.maxAgeSeconds, range: 60...(7 * 86_400))
        return zk
    }

    /// `webhooks`: where each integrator's results are pushed (the operator's configuration only), the signing secrets
    /// (files), the outbox and the retry policy.
    func webhooks(integrators: ServiceConfiguration.Integrators, store: ServiceConfiguration.Store,
                  allowed: [AllowedDestination]) throws(ConfigurationError) -> ServiceConfiguration.Webhooks? {
        guard sectionPresent("webhooks") else { return nil }
        var webhooks = ServiceConfiguration.Webhooks()
        let key = "webhooks.endpoints"
        let items = try ConfigurationLoader.array(raw("webhooks", "endpoints"), key: key, of: #"{"integrator", "url", "secretFile"}"#)
        guard !items.isEmpty else { throw ConfigurationError(key: key, "lists no endpoint; omit the webhooks section instead") }
        for (index, item) in items.enumerated() {
            let itemKey = "\(key)[\(index)]"
            guard case .object(let members) = item else { throw ConfigurationError(key: itemKey, "must be an object") }
            if let unknown = Set(members.keys).subtracting(["integrator", "url", "secretFile"]).sorted().first {
                throw ConfigurationError(key: "\(itemKey).\(unknown)", "unknown key (expected integrator, url, secretFile)")
            }
            guard case .string(let name)? = members["integrator"], integrators.tokens[name] != nil || (name == ServiceConfiguration.Integrators.anonymous && !integrators.requireToken) else {
                throw ConfigurationError(key: "\(itemKey).integrator", "must name an integrator in integrators.tokens")
            }
            guard !webhooks.endpoints.contains(where: { $0.integrator == name }) else {
                throw ConfigurationError(key: "\(itemKey).integrator", "\"\(name)\" has an endpoint already (one per integrator)")
            }
            guard case .string(let url)? = members["url"], let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
                  let host = parsed.host, !host.isEmpty, parsed.user == nil, parsed.fragment == nil,
                  scheme == "https" || scheme == "http"
            else {
                throw ConfigurationError(key: "\(itemKey).url", "must be an https URL with a host (no user information or fragment)")
            }
            if scheme == "http" {
                guard allowed.contains(where: { $0.names(urlHost: host, port: parsed.port ?? 80) }) else {
                    throw ConfigurationError(key: "\(itemKey).url", "http is only for a destination listed in outbound.allowedDestinations; use https")
                }
            }
            guard case .string(let secretPath)? = members["secretFile"] else {
                throw ConfigurationError(key: "\(itemKey).secretFile", "must name the file holding the whsec_ secret")
            }
            let text = try ConfiguredFile.text(path(secretPath), key: "\(itemKey).secretFile")
            guard let secret = WebhookSecret(text) else {
                throw ConfigurationError(key: "\(itemKey).secretFile",
                                         "must hold one Standard Webhooks secret: whsec_ and the base64 of 24 to 64 random bytes")
            }
            webhooks.endpoints.append(WebhookEndpoint(integrator: name, url: url, secret: secret))
        }
        if let directory = try string("webhooks", "outboxDirectory") {
            webhooks.outboxDirectory = path(directory)
            // The bodies wait on disk with the holder's claim values: never in plain text.
            guard let keyFile = try string("webhooks", "outboxKeyFile") else {
                throw ConfigurationError(key: "webhooks.outboxKeyFile",
                                         "is required with webhooks.outboxDirectory: the key (32 bytes, e.g. openssl rand -base64 32) "
                                             + "that seals each waiting result on disk")
            }
            webhooks.outboxKeyFile = path(keyFile)
        } else if case .memory = store {
            throw ConfigurationError(key: "webhooks.outboxDirectory",
                                     "is required with the memory store: deliveries wait there, on disk, across restarts")
        } else if raw("webhooks", "outboxKeyFile") != nil {
            throw ConfigurationError(key: "webhooks.outboxKeyFile",
                                     "goes with webhooks.outboxDirectory; the PostgreSQL outbox is sealed with store.sessionKeyFile")
        }
        webhooks.retry = WebhookRetryPolicy(
            baseDelay: Double(try int("webhooks", "retryBaseMilliseconds", default: 1000, range: 10...600_000)) / 1000,
            maximumDelay: Double(try int("webhooks", "retryMaxSeconds", default: 600, range: 1...86_400)),
            maximumAttempts: try int("webhooks", "maxAttempts", default: 15, range: 1...100),
            maximumAge: Double(try int("webhooks", "maxAgeSeconds", default: 86_400, range: 60...(7 * 86_400))))
        webhooks.leaseSeconds = try int("webhooks", "leaseSeconds", default: 30, range: 1...3600)
        webhooks.pollMilliseconds = try int("webhooks", "pollMilliseconds", default: 1000, range: 50...60_000)
        webhooks.maxPending = try int("webhooks", "maxPending", default: 10_000, range: 1...1_000_000)
        webhooks.timeoutSeconds = try int("webhooks", "timeoutSeconds", default: 10, range: 1...120)
        guard webhooks.timeoutSeconds < webhooks.leaseSeconds else {
            throw ConfigurationError(key: "webhooks.leaseSeconds", "must be longer than webhooks.timeoutSeconds (an attempt ends within its lease)")
        }
        return webhooks
    }

    func web() throws(ConfigurationError) -> ServiceConfiguration.Web? {
        guard sectionPresent("web") else { return nil }
        let texts = try stringList("web", "allowedOrigins") ?? []
        guard !texts.isEmpty else { throw ConfigurationError(key: "web.allowedOrigins", "needs at least one origin") }
        var origins: [SerializedOrigin] = []
        for (index, text) in texts.enumerated() {
            guard let origin = SerializedOrigin(text) else {
                throw ConfigurationError(key: "web.allowedOrigins[\(index)]",
                    "\"\(text)\" is not a serialized origin: scheme://host[:port] in lower case, no path or trailing slash")
            }
            origins.append(origin)
        }
        return ServiceConfiguration.Web(
            allowedOrigins: origins,
            sessionTTLSeconds: try int("web", "sessionTTLSeconds", default: 300, range: 30...3600),
            allowStatelessVerify: try bool("web", "allowStatelessVerify", default: false),
            maxSessions: try int("web", "maxSessions", default: 100_000, range: 1...10_000_000),
            maxSessionBytes: try int("web", "maxSessionBytes", default: ServiceConfiguration.Web.defaultMaxSessionBytes,
                                     range: (1 << 20)...(64 << 30)))
    }

    /// `sdJwtVc.metadataIssuers`: `[{"iss", "vcts"}]` (a JSON array in the environment too). `iss` is an https URL
    /// with a host and no query or fragment (http only to a destination `outbound.allowedDestinations` opens), listed
    /// once; `vcts` a list of `vct` values (absent: any).
    static func metadataIssuerList(_ raw: ConfigurationLoader.Raw?, allowed: [AllowedDestination]) throws(ConfigurationError)
        -> [SDJWTVCMetadataIssuer]
    {
        let key = "sdJwtVc.metadataIssuers"
        let items = try ConfigurationLoader.array(raw, key: key, of: #"{"iss", "vcts"}"#)
        var issuers: [SDJWTVCMetadataIssuer] = []
        for (index, item) in items.enumerated() {
            let itemKey = "\(key)[\(index)]"
            guard case .object(let members) = item else { throw ConfigurationError(key: itemKey, "must be an object") }
            if let unknown = Set(members.keys).subtracting(["iss", "vcts"]).sorted().first {
                throw ConfigurationError(key: "\(itemKey).\(unknown)", "unknown key (expected iss, vcts)")
            }
            // The rule the metadata URL is made by, so that a listed issuer can always be looked up.
            guard case .string(let iss)? = members["iss"], JWTVCIssuerMetadata.url(for: iss) != nil,
                  let url = URL(string: iss), let host = url.host, !host.isEmpty, let scheme = url.scheme
            else {
                throw ConfigurationError(key: "\(itemKey).iss", "must be an https URL with a host and no query or fragment")
            }
            if scheme == "http" {
                let port = url.port ?? 80
                guard allowed.contains(where: { $0.names(urlHost: host, port: port) }) else {
                    throw ConfigurationError(key: "\(itemKey).iss",
                                             "http is only for a destination listed in outbound.allowedDestinations; use https")
                }
            }
            guard issuers.listing(of: iss) == nil else {
                throw ConfigurationError(key: "\(itemKey).iss", "\"\(iss)\" is listed twice")
            }
            var vcts: [String] = []
            switch members["vcts"] {
            case nil: break
            case .array(let list)?:
                // An empty list would read as "any vct": omit vcts for that, never write [].
                guard !list.isEmpty else {
                    throw ConfigurationError(key: "\(itemKey).vcts", "is empty; omit vcts to trust the issuer for any vct")
                }
                for (position, element) in list.enumerated() {
                    guard case .string(let vct) = element, !vct.isEmpty, !vcts.contains(vct) else {
                        throw ConfigurationError(key: "\(itemKey).vcts[\(position)]", "must be a non-empty string, listed once")
                    }
                    vcts.append(vct)
                }
            default: throw ConfigurationError(key: "\(itemKey).vcts", "must be a list of vct strings")
            }
            issuers.append(.init(iss: iss, vcts: vcts))
        }
        return issuers
    }
}
