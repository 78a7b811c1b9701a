import CertificateRevocation
import Webhooks
import DigitalCredentials
import Foundation
import SDJWTVC
import Logging
import TrustLists
import TrustManagement
import OutboundFetch
import MDoc
import OpenID4VP
import ReaderAuthentication
import ServerTLS
import WebPresentment

/// verifierd's configuration, after the file, environment overrides and secret files have been merged and every
/// path resolved against the configuration file's folder.
public struct ServiceConfiguration: Sendable {
    public struct Server: Sendable {
        public var host = "127.0.0.1"
        public var port = 8080
        /// Whether the file or the environment set `server.port`; `serve` needs it (or `--port`), never a silent 8080.
        public var portIsConfigured = false
        public var maxBodyBytes = 1_048_576
        public var maxConnections = 1024
        public var shutdownGraceSeconds = 10
        /// With TLS the main listener speaks only HTTPS.
        public var tls: TLS?
        /// A second, plain-HTTP listener answering only the health probes and metrics (with TLS on the main one).
        public var plainHealthPort: Int?
    }

    /// `server.tls`: the certificate, key and policy of the HTTPS listener.
    public struct TLS: Sendable {
        public var settings: TLSSettings
        /// Path prefixes that need a client certificate chaining to `settings.clientCA` (besides any token).
        public var requireClientCertificateFor: [String]
    }

    public struct Apple: Sendable {
        public var merchantId: String
        public var teamId: String
        public var encryptionKeys: [URL]
        /// Merchant IDs a request may name besides `merchantId` (several merchants on one service).
        public var allowedMerchantIds: [String] = []
        /// Team IDs a request may name besides `teamId`.
        public var allowedTeamIds: [String] = []
        /// Whether `/v1/apple/verify` accepts only nonces issued by `POST /v1/apple/nonces`, each once.
        public var requireIssuedNonce = false
        /// How long an issued nonce may be used.
        public var nonceTTLSeconds = 300

        /// Whether a request may ask for this merchant ID.
        public func allows(merchantId: String) -> Bool {
            merchantId == self.merchantId || allowedMerchantIds.contains(merchantId)
        }

        /// Whether a request may ask for this team ID.
        public func allows(teamId: String) -> Bool {
            teamId == self.teamId || allowedTeamIds.contains(teamId)
        }
    }

    public struct Trust: Sendable {
        public var iacaDirectory: URL
        /// Anchors copied into `iacaDirectory` when it does not exist yet (the demo's committed anchors), so the
        /// directory the service writes is never a committed one.
        public var seedDirectory: URL?
        public var profileChecks: ProfileCheckMode = .warn
        /// Per-anchor profile mode, by the anchor's lowercase hex SHA-256; overrides `profileChecks`.
        public var profileChecksByAnchor: [String: ProfileCheckMode] = [:]
        /// How often the directory is checked for changes made by hand; 0 turns polling off.
        public var pollSeconds = 30
        /// Anchors expiring within this many days are listed as `expiring`.
        public var expiringWindowDays = 30
        /// The certificate each VICAL source's signer must chain to, by source name.
        public var vicalSigners: [String: URL] = [:]
        /// VICALs fetched on a schedule.
        public var vicalSources: [VICALSource] = []
        /// Lists of trusted entities (ETSI TS 119 602) fetched on a schedule.
        public var loteSources: [LoTESourceSettings] = []
        /// The first retry after a failed scheduled refresh; each further failure doubles it, up to the source's
        /// interval.
        public var vicalRetrySeconds = 60
        /// What requests built from `documents` name as trusted authorities (OpenID4VP `trusted_authorities` `aki`,
        /// ISO 18013-5 `issuerIdentifiers`).
        public var requestTrustedAuthorities = RequestedAuthorities.none

        /// The trusted authorities a request built from `documents` names.
        public enum RequestedAuthorities: String, Sendable, CaseIterable {
            /// None (the default): a wallet filtering on them would not offer a credential whose document signer
            /// certificate lacks an AuthorityKeyIdentifier, although its issuer is trusted.
            case none
            /// The subject key identifiers of the IACAs in force that may vouch for each docType (at most 16).
            case anchors
        }
    }

    /// A VICAL fetched on a schedule (`trust.vicalSources`).
    public typealias VICALSource = TrustManagement.VICALSource

    /// A list of trusted entities as configured (`trust.loteSources`): the signer anchors are files, read with the
    /// other key material.
    public struct LoTESourceSettings: Sendable {
        public var name: String
        public var url: URL
        public var kind: LoTEKind
        public var signerAnchors: [URL]
        public var refreshHours: Double
        public var scope: LoTESource.Scope
        public var staleGraceSeconds: TimeInterval
        public var onStale: LoTESource.StalePolicy
    }

    public struct Verification: Sendable {
        public var clockSkewSeconds = 300
        public var allowVerificationTimeOverride = false
    }

    public struct ReaderTokens: Sendable {
        public var brandId: String
        public var keyId: String
        public var signingKey: URL
        public var lifetimeSeconds = 300
        public var clientTokens: [String]
    }

    /// Who may call the routes an integrator's backend or reader calls (create and verify): bearer tokens, each with
    /// a name that appears in logs and metrics, and each integrator's share of the session capacity.
    public struct Integrators: Sendable {
        /// Token by integrator name.
        public var tokens: [String: String] = [:]
        /// On by default: a request without a known token is 401. Off only for a service behind something that
        /// authenticates its callers (requests without a token then count as the integrator `anonymous`).
        public var requireToken = true
        /// Live sessions of one kind one integrator may hold; by default the kind's share divided among the
        /// integrators.
        public var maxSessionsPerIntegrator: Int?

        public init() {}

        /// The name a request without a token counts as when ``requireToken`` is off.
        public static let anonymous = "anonymous"

        /// A name is 1 to 64 characters of lowercase letters, digits, `.`, `_` or `-` (it is a metrics label).
        public static func isValidName(_ name: String) -> Bool {
            (1...64).contains(name.utf8.count)
                && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
        }
    }

    public struct Admin: Sendable {
        /// Without a token the admin routes answer 404.
        public var token: String?
    }

    /// Revocation: how MSO status references are fetched and applied.
    public struct Status: Sendable {
        public var mode: StatusPolicy.Mode = .enforce
        public var unknown: StatusPolicy.Unknown = .fail
        public var fetchTimeoutSeconds = 5
        public var maxListBytes = 10_485_760
        public var allowedSchemes: [String] = ["https"]
        public var cacheSeconds = 300
        /// How long after going stale a cached list may still answer when its issuer is unreachable.
        public var staleGraceSeconds = 3600
        /// Most bytes the cached lists hold (inflated), stale ones included.
        public var cacheMaxBytes = 64 << 20
    }

    /// CRL checking of every certificate chain verifierd builds (`crl`).
    public struct CRL: Sendable {
        /// `warn` by default: a revoked certificate always fails; an undetermined status (a distribution point that is
        /// unreachable, outside `outbound.allowedDestinations`, or answers with an unusable CRL) is a warning, so that
        /// an issuer whose distribution point this deployment cannot reach still verifies. `enforce` fails it too.
        public var mode: CertificateRevocationPolicy.Mode = .warn
        public var fetchTimeoutSeconds = 5
        /// Largest CRL read; a larger one is `CRL_TOO_LARGE`.
        public var maxBytes = 1 << 20
        public var allowedSchemes: [String] = ["http", "https"]
        /// A CRL is fetched again after this long even before its nextUpdate (an issuer may publish early).
        public var cacheSeconds = 3600
        /// How long past its nextUpdate a kept CRL may still answer when a refetch fails (0: never).
        public var staleGraceSeconds = 0
        /// Most bytes the kept CRLs hold together (DER).
        public var cacheMaxBytes = 32 << 20

        public var policy: CertificateRevocationPolicy { CertificateRevocationPolicy(mode: mode) }
    }

    /// How verifierd reaches other servers (status lists, VICALs): one fetcher, one destination policy.
    public struct Outbound: Sendable {
        /// `host:port` destinations opened although their address is loopback, private or link-local (and over plain
        /// http); everything else such stays refused.
        public var allowedDestinations: [AllowedDestination] = []
        /// False: nothing but `allowedDestinations` is ever contacted (no public name is resolved): a locked-down
        /// network, and the test suite.
        public var publicDestinations = true
        /// Redirects followed per fetch (at most 3), each hop checked again.
        public var maxRedirects = 3
        public var connectTimeoutSeconds = 5
        /// A transfer that receives nothing for this long is abandoned.
        public var idleTimeoutSeconds = 10
        /// Transfers at once, all destinations together; more wait (within their own deadline).
        public var maxConcurrentFetches = 32
        /// Transfers at once to one `host:port`.
        public var maxConcurrentFetchesPerHost = 4
    }

    /// The reader key and certificate chain that sign web requests (`readerAuth` / `readerAuthAll`).
    public struct ReaderAuth: Sendable {
        public var signingKey: URL
        public var certificateChain: URL
        public var mode: ReaderAuthMode = .readerAuth
    }

    /// Web presentment (ISO 18013-7 Annex C over the Digital Credentials API).
    public struct Web: Sendable {
        /// The only origins a request may be made for (serialized: `https://host[:port]`, no trailing slash).
        public var allowedOrigins: [SerializedOrigin]
        public var sessionTTLSeconds = 300
        /// Whether `/v1/web/verify` accepts a caller-held key and encryptionInfo instead of a session.
        public var allowStatelessVerify = false
        /// Most live sessions held in memory (web and proximity together); past it, 503 `SESSION_STORE_FULL`.
        public var maxSessions = defaultMaxSessions
        public static let defaultMaxSessions = 100_000
        /// Most payload bytes all live sessions hold together (every kind), shared like `maxSessions`; with the
        /// fixed cost per session, the ceiling of the session store's memory.
        public var maxSessionBytes = defaultMaxSessionBytes
        public static let defaultMaxSessionBytes = 256 << 20
    }

    /// OpenID4VP 1.0 for mdocs: over the Digital Credentials API and cross-device (`oid4vp`).
    public struct OpenID4VP: Sendable {
        /// The only origins a DC API request may be made for: serialized web origins, or a native Android caller's
        /// `android:apk-key-hash:<base64url SHA-256 of its signing certificate>`.
        public var allowedOrigins: [String]
        public var sessionTTLSeconds = 300
        /// Whether a caller may ask for `dc_api` (answers in the clear); HAIP allows only `dc_api.jwt`.
        public var allowUnencryptedResponses = false
        /// The public base URL wallets reach this service at (`https://verifier.example`), for the cross-device
        /// request and response URIs; without it, cross-device requests are refused.
        public var publicBaseURL: String?
        /// The Client Identifier Prefix of every signed request (`x509_hash`, HAIP's; or `x509_san_dns`).
        public var clientIdPrefix = RequestObjectSigner.ClientIdPrefix.x509Hash
        /// With `x509_san_dns`: the reader certificate's dNSName to use (default its first).
        public var clientIdDnsName: String?
        /// Where a cross-device authorization request sends the wallet: `openid4vp://` (the default), a custom scheme
        /// (`haip-vp://`), or the https URL of a web wallet's authorization endpoint (the conformance suite's).
        public var walletAuthorizationEndpoint = WalletAuthorizationEndpoint.openID4VP
        /// How cross-device wallets fetch the request object unless a request says otherwise (`get` or `post`).
        public var requestURIMethod = RequestURIMethod.get
        /// The transaction data types integrators may send (`transactionDataTypes`); none by default.
        public var transactionData = TransactionDataPolicy.none

        public init(allowedOrigins: [String], sessionTTLSeconds: Int = 300, allowUnencryptedResponses: Bool = false,
                    publicBaseURL: String? = nil) {
            self.allowedOrigins = allowedOrigins
            self.sessionTTLSeconds = sessionTTLSeconds
            self.allowUnencryptedResponses = allowUnencryptedResponses
            self.publicBaseURL = publicBaseURL
        }
    }

    /// `registration`: relying-party registration certificates (ETSI TS 119 475), per integrator, and the registrar
    /// anchors they must chain to.
    public struct Registration: Sendable {
        /// PEM files of the certificates a registration certificate's provider must chain to.
        public var registrarAnchors: [URL]
        /// The registration certificate file (the compact JWT) of each integrator that has one.
        public var certificates: [String: URL]

        public init(registrarAnchors: [URL], certificates: [String: URL]) {
            self.registrarAnchors = registrarAnchors
            self.certificates = certificates
        }
    }

    /// `sdJwtVc`: SD-JWT VC (`dc+sd-jwt`) verification. Its issuers are not IACAs: they have their own trust set, a
    /// directory kept like the IACA directory (files, a manifest scoping anchors, atomic versions, change history),
    /// with anchors scoped by `vct` the way IACAs are scoped by docType.
    public struct SDJWTVC: Sendable {
        public var issuerDirectory: URL
        /// Anchors copied into `issuerDirectory` when it does not exist yet (the demo's TEST-ONLY issuer).
        public var seedDirectory: URL?
        /// How old a KB-JWT's `iat` may be when its request was made just now (the window is then
        /// [now − max(this, the session's lifetime) − clock skew, now + clock skew]).
        public var keyBindingMaxAgeSeconds = 300
        /// Issuers verified by their JWT VC Issuer Metadata (`/.well-known/jwt-vc-issuer`) instead of `x5c`: only
        /// these, never as a fallback for another `iss`.
        public var metadataIssuers: [SDJWTVCMetadataIssuer] = []
        /// How long an issuer's metadata keys are kept before they are fetched again.
        public var metadataCacheSeconds = 300

        public init(issuerDirectory: URL, seedDirectory: URL? = nil, keyBindingMaxAgeSeconds: Int = 300,
                    metadataIssuers: [SDJWTVCMetadataIssuer] = [], metadataCacheSeconds: Int = 300) {
            self.issuerDirectory = issuerDirectory
            self.seedDirectory = seedDirectory
            self.keyBindingMaxAgeSeconds = keyBindingMaxAgeSeconds
            self.metadataIssuers = metadataIssuers
            self.metadataCacheSeconds = metadataCacheSeconds
        }
    }

    /// Proximity reader sessions run by the service (ISO 18013-5 session encryption).
    public struct Proximity: Sendable {
        public var sessionTTLSeconds = 300
        /// Test hook: accept `eReaderPrivateKey` on session creation (to replay published vectors). Never in production.
        public var allowInjectedReaderKey = false
    }

    /// `demo`: the example page at `GET /demo` and its two open routes, which create and verify web sessions as one
    /// integrator without its token. For trying the service in a browser; never in production.
    public struct Demo: Sendable {
        /// The integrator the page's sessions count as (a name in `integrators.tokens`).
        public var integrator: String
    }

    /// `presentations`: one request offered over every protocol a page's browser may speak (`POST
    /// /v1/presentations/requests`); available whenever `web` or `oid4vp` is configured.
    public struct Presentations: Sendable {
        /// The protocols offered, in this order, each when its section, the origin and the request allow it.
        public var protocols: [DigitalCredentialProtocol] = DigitalCredentialProtocol.defaultPreference
        /// How long a presentation session stays usable.
        public var sessionTTLSeconds = 300

        public init() {}
    }

    /// `zk`: the zero-knowledge proof systems accepted (`zkDocuments`, Longfellow `longfellow-libzk-v1` versions 6
    /// and 7), their circuit files, and how many proofs are checked at once.
    public struct ZeroKnowledge: Sendable {
        /// One accepted system: its version and number of attributes (a row of the published systems, which gives
        /// the circuit hash the file's content must give), its circuit file, and the id documents name it by.
        public struct System: Sendable, Equatable {
            public var version: Int
            public var attributes: Int
            public var circuitFile: URL
            /// Nil: the circuit hash (what Google Wallet sends as zkSystemId).
            public var id: String?

            public init(version: Int, attributes: Int, circuitFile: URL, id: String? = nil) {
                self.version = version
                self.attributes = attributes
                self.circuitFile = circuitFile
                self.id = id
            }
        }

        /// What a listed circuit file that does not exist does to the start.
        public enum MissingCircuits: String, Sendable, CaseIterable {
            /// The start fails, naming the file (the default: production).
            case fail
            /// The system is left out with a start-up warning (the demo configuration, before the circuits are installed).
            case warn
        }

        public var systems: [System] = []
        public var missingCircuits = MissingCircuits.fail
        /// Proof checks running at once (each holds a core for about half a second).
        public var maxConcurrent = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
        /// Proof checks waiting for a turn; past them a response is answered 503 with Retry-After.
        public var maxQueued = 4
        /// Proof checks one integrator may have running and waiting at once; nil: the pool (running and waiting)
        /// divided among the integrators, at least 1, as sessions are shared.
        public var maxPerIntegrator: Int?

        /// The pool's share of one integrator among `integratorCount`.
        public func perIntegratorShare(integratorCount: Int) -> Int {
            maxPerIntegrator ?? max(1, (maxConcurrent + maxQueued) / max(1, integratorCount))
        }
        /// The largest body on the routes that may carry a proof (`server.maxBodyBytes` elsewhere).
        public var maxBodyBytes = 2 << 20
        /// How long before now a proof's stated time may lie.
        public var maxAgeSeconds = 86_400

        public init() {}
    }

    /// `webhooks`: results pushed to integrators' endpoints (Standard Webhooks), at least once, from an outbox.
    public struct Webhooks: Sendable {
        /// One endpoint per integrator that has one.
        public var endpoints: [WebhookEndpoint] = []
        /// The memory store's outbox (a directory; required there). The PostgreSQL store keeps it in the database.
        public var outboxDirectory: URL?
        /// The key that seals the bodies waiting in ``outboxDirectory`` (required with it).
        public var outboxKeyFile: URL?
        public var retry = WebhookRetryPolicy()
        /// How long one replica holds a message it is delivering before another may take it.
        public var leaseSeconds = 30
        /// How often the outbox is looked at for retries and messages another replica left behind.
        public var pollMilliseconds = 1000
        /// Messages that may wait at once; past it, a result is kept for polling only (and counted).
        public var maxPending = 10_000
        /// One attempt's deadline.
        public var timeoutSeconds = 10

        public init() {}
    }

    /// `logging`: which log lines are written.
    public struct Logging: Sendable {
        /// Lines below this level are not written (service events and, above `info`, the access lines).
        public var level: Logger.Level = .info

        public init() {}

        /// The accepted level names, least severe first.
        public static let levelNames = Logger.Level.allCases.map(\.rawValue)

        /// A level by its name (`trace` ... `critical`, lower case); any other name is an error naming `key` and
        /// listing the valid ones.
        public static func level(named text: String, key: String) throws(ConfigurationError) -> Logger.Level {
            guard let level = Logger.Level(rawValue: text) else {
                throw ConfigurationError(key: key, "must be one of \(levelNames.joined(separator: ", ")), got \"\(text)\"")
            }
            return level
        }

        /// `logger` with this level.
        public func applied(to logger: Logger) -> Logger {
            var logger = logger
            logger.logLevel = level
            return logger
        }
    }

    /// Where sessions, nonces and (with PostgreSQL) the trust set live.
    public enum Store: Sendable {
        /// One process: memory and the local trust directory (the default).
        case memory
        /// Several replicas on one PostgreSQL database.
        case postgres(Postgres)
    }

    /// `store` with `"kind": "postgres"`.
    public struct Postgres: Sendable {
        /// `postgres://user@host:5432/database` (a password in it is accepted; `passwordFile` is better).
        public var url: String
        public var passwordFile: URL?
        public var poolSize = Postgres.defaultPoolSize
        /// One connection per core, at least 2 and at most 8: measured on 2 cores, 8 connections per replica doubled
        /// PostgreSQL's CPU per take and made the p99 four times longer than 2 (docs/benchmarks.md).
        public static var defaultPoolSize: Int { min(8, max(2, ProcessInfo.processInfo.activeProcessorCount)) }
        /// `disable`, `prefer` or `require`.
        public var tlsMode = "disable"
        public var tlsCAFile: URL?
        /// The AES-256 key that seals session payloads at rest (required).
        public var sessionKeyFile: URL
        /// How long one database operation may take before it fails with 503 `STORE_UNAVAILABLE`.
        public var operationTimeoutMs = 2000

        public init(url: String, passwordFile: URL? = nil, sessionKeyFile: URL) {
            self.url = url
            self.passwordFile = passwordFile
            self.sessionKeyFile = sessionKeyFile
        }
    }

    public var server = Server()
    public var store = Store.memory
    public var apple: Apple?
    public var trust: Trust
    public var verification = Verification()
    public var readerTokens: ReaderTokens?
    public var admin = Admin()
    public var integrators = Integrators()
    public var registration: Registration?
    public var presentations = Presentations()
    /// Zero-knowledge documents; nil (every ZK document fails `zk.system`) unless the section is present.
    public var zeroKnowledge: ZeroKnowledge?
    public var webhooks: Webhooks?
    public var status = Status()
    public var crl = CRL()
    public var outbound = Outbound()
    public var readerAuth: ReaderAuth?
    public var web: Web?
    public var proximity: Proximity?
    public var oid4vp: OpenID4VP?
    /// SD-JWT VC verification; nil (SD-JWT VC queries and presentations refused) unless the section is present.
    public var sdJwtVc: SDJWTVC?
    /// The demo page and its routes; nil (the routes do not exist) unless the section is present and enabled.
    public var demo: Demo?
    public var logging = Logging()
    /// The file the configuration came from.
    public var file: URL
}
