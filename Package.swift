// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "verifierd",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CBOR", targets: ["CBOR"]),
        .library(name: "COSE", targets: ["COSE"]),
        .library(name: "TrustStore", targets: ["TrustStore"]),
        .library(name: "TrustLists", targets: ["TrustLists"]),
        .library(name: "MDoc", targets: ["MDoc"]),
        .library(name: "AppleWallet", targets: ["AppleWallet"]),
        .library(name: "StatusList", targets: ["StatusList"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "ServerTLS", targets: ["ServerTLS"]),
        .library(name: "ReaderToken", targets: ["ReaderToken"]),
        .library(name: "Encodings", targets: ["Encodings"]),
        .library(name: "StrictJSON", targets: ["StrictJSON"]),
        .library(name: "ReportEncoding", targets: ["ReportEncoding"]),
        .library(name: "OpenID4VP", targets: ["OpenID4VP"]),
        .library(name: "SDJWT", targets: ["SDJWT"]),
        .library(name: "SDJWTVC", targets: ["SDJWTVC"]),
        .library(name: "CertificationPath", targets: ["CertificationPath"]),
        .library(name: "CertificateRevocation", targets: ["CertificateRevocation"]),
        .library(name: "TrustManagement", targets: ["TrustManagement"]),
        .library(name: "SessionStore", targets: ["SessionStore"]),
        .library(name: "WebPresentment", targets: ["WebPresentment"]),
        .library(name: "DigitalCredentials", targets: ["DigitalCredentials"]),
        .library(name: "Webhooks", targets: ["Webhooks"]),
        .library(name: "ReaderAuthentication", targets: ["ReaderAuthentication"]),
        .library(name: "Proximity", targets: ["Proximity"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        .library(name: "VerifierService", targets: ["VerifierService"]),
        .executable(name: "verifierd", targets: ["verifierd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        // Strict RFC 8949 codec: no dependencies, bounded, keeps the exact bytes of every item.
        .target(name: "CBOR", swiftSettings: strict),
        // COSE_Sign1 / COSE_Mac0 / COSE_Key (RFC 9052/9053) on top of CBOR and swift-crypto.
        .target(name: "COSE", dependencies: [
            "CBOR",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // Trusted IACA roots: loading, validation, immutable snapshots.
        .target(name: "TrustStore", dependencies: [
            "Encodings",
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // VICALs (ISO/IEC 18013-5 Annex C): parse, verify against a source's signer anchor, diff, fetch. No HTTP server.
        .target(name: "TrustLists", dependencies: [
            "CBOR", "COSE", "MDoc", "TrustStore", "Encodings", "OutboundFetch", "CertificationPath", "StrictJSON",
            "CertificateRevocation",
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
        ], swiftSettings: strict),
        // X.509 revocation by CRL (RFC 5280 §5, §6.3): strict CRL reading, distribution points, the judgement of one
        // certificate against its issuer's CRL. No fetching, no HTTP.
        .target(name: "CertificateRevocation", dependencies: [
            "Encodings",
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // ISO/IEC 18013-5 data model and verification engine.
        .target(name: "MDoc", dependencies: [
            "CBOR", "COSE", "TrustStore", "Encodings", "CertificationPath", "ZKMdoc", "CertificateRevocation",
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // Apple "Verify with Wallet": APPLE-HPKE-v1 envelope and AppleHandover transcript.
        .target(name: "AppleWallet", dependencies: [
            "CBOR", "MDoc", "TrustStore", "HPKEKeys", "Encodings",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
        ], swiftSettings: strict),
        // The system zlib, for compressed status lists.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // Revocation: Token Status Lists and identifier lists, fetched, verified and cached. No HTTP server.
        .target(name: "StatusList", dependencies: [
            "CBOR", "COSE", "MDoc", "ZKMdoc", "TrustStore", "CZlib", "OutboundFetch", "CertificationPath", "SDJWT", "SDJWTVC", "StrictJSON",
            "Encodings", "CertificateRevocation",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
        ], swiftSettings: strict),
        // ISO 18013-5 proximity reader sessions run by the backend: DeviceEngagement, session keys, SessionEstablishment,
        // SessionData. No HTTP.
        .target(name: "Proximity", dependencies: [
            "CBOR", "COSE", "MDoc", "Encodings", "SessionStore", "ReaderAuthentication",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // The system OpenSSL (libssl-dev), for the server's TLS listener.
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl",
                       providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        // libcurl (libcurl4-openssl-dev), through a C shim for its variadic calls and its callbacks.
        .target(name: "CCurl", path: "Sources/CCurl", linkerSettings: [.linkedLibrary("curl")]),
        // The one outbound HTTP client: libcurl under a destination policy checked at connect time (no loopback,
        // private or link-local address unless allowlisted, https only, re-checked redirects, capped bodies). No server.
        .target(name: "OutboundFetch", dependencies: ["CCurl"], swiftSettings: strict),
        // TLS for our own listener: the fixed protocol policy, a reloadable certificate, non-blocking streams.
        .target(name: "ServerTLS", dependencies: ["COpenSSL"], swiftSettings: strict),
        // Linux epoll through plain integers, for the HTTP server's socket readiness (see SocketReadiness.swift).
        .target(name: "CEpoll", path: "Sources/CEpoll"),
        // HTTP/1.1 server on raw sockets and Dispatch; knows nothing about mdocs.
        .target(name: "HTTPServer", dependencies: [
            "ServerTLS", "Encodings", "CEpoll",
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ], swiftSettings: strict),
        // A tiny server for the HTTP tests and the benchmark script.
        .executableTarget(name: "http-echo", dependencies: [
            "HTTPServer", .product(name: "HTTPTypes", package: "swift-http-types"),
        ], swiftSettings: strict),
        // A URLSession (libcurl) client for the TLS interoperability tests.
        .executableTarget(name: "https-probe", swiftSettings: strict),
        // Longfellow verification time and memory per circuit (scripts/bench/bench-zk.sh).
        .executableTarget(name: "zk-bench", dependencies: ["Longfellow", "LongfellowAlgebra", "Encodings"], swiftSettings: strict),
        // Release-build benchmark of verification against the cost of its cryptography.
        .executableTarget(name: "verifierd-bench", dependencies: [
            "AppleWallet", "MDoc", "CBOR", "TrustStore", "Encodings", "SDJWT", "SDJWTVC", "StrictJSON", "StatusList",
            "CertificateRevocation",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
        ], swiftSettings: strict),
        // Trust management for operations: the trust set in force (LiveTrustSet: snapshots, serialized writes,
        // change records), and scheduled VICAL refreshes. Beside TrustStore (anchors) and TrustLists (VICALs). No HTTP.
        .target(name: "TrustManagement", dependencies: [
            "TrustStore", "TrustLists", "Encodings", "CertificateRevocation",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "X509", package: "swift-certificates"),
        ], swiftSettings: strict),
        // One certification-path builder with a rule set per use (document signer under an IACA, VICAL signer,
        // status-list signer, reader authentication): paths found by names, rules before signatures. No HTTP.
        .target(name: "CertificationPath", dependencies: [
            "TrustStore", "Encodings",
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ], swiftSettings: strict),
        // OpenID4VP 1.0 for mdocs and SD-JWT VCs (Digital Credentials API and cross-device): request objects (signed with
        // the reader key), DCQL, ECDH-ES JWE answers, the B.2.6 transcripts, sessions, per-format verification. No HTTP.
        .target(name: "OpenID4VP", dependencies: [
            "CBOR", "MDoc", "Encodings", "SessionStore", "ReaderAuthentication", "StrictJSON", "SDJWT", "SDJWTVC", "ZKMdoc", "Longfellow",
            "CertificationPath", "CertificateRevocation",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
        ], swiftSettings: strict),
        // SD-JWT (RFC 9901): the presentation split, disclosures with digests over the received strings, their
        // application to the payload with every refusal, key-binding JWTs, ES256 and P-256 JWKs. No HTTP.
        .target(name: "SDJWT", dependencies: [
            "Encodings", "StrictJSON",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // SD-JWT VC (`dc+sd-jwt`, HAIP 1.0) on SD-JWT: x5c to the issuer trust set (scoped by vct), the claims the
        // verifier reads, validity, holder binding, DCQL claims, the status judgement; a report per credential. No HTTP.
        .target(name: "SDJWTVC", dependencies: [
            "CertificateRevocation",
            "SDJWT", "MDoc", "CertificationPath", "TrustStore", "StrictJSON", "Encodings",
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // Strict JSON for requests and configuration: the in-place flat decoder, the known-fields rule, the syntax scan
        // (duplicate names at any depth), the writer. No HTTP.
        .target(name: "StrictJSON", dependencies: ["Encodings"], swiftSettings: strict),
        // Text encodings shared by the flows (base64url without padding, hex, PEM).
        .target(name: "Encodings", dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // HPKE recipient keys with their public key serialized once (the Apple and web flows).
        .target(name: "HPKEKeys", dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // ES256 reader tokens (JWT) for Apple's Verifier API.
        .target(name: "ReaderToken", dependencies: [
            "Encodings",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // One-time records (every flow's sessions, issued nonces, cross-device results): a store protocol with an atomic
        // take and reservations, the bounded in-memory default, kinds, and the keyed stored-payload form. No HTTP.
        .target(name: "SessionStore", dependencies: ["Encodings", "CBOR"], swiftSettings: strict),
        // The reader's side of a request: signed DeviceRequests (readerAuth, readerAuthAll) and the reader key and
        // certificate chain that sign them. Shared by the web and proximity flows. No HTTP.
        .target(name: "ReaderAuthentication", dependencies: [
            "CBOR", "MDoc", "ZKMdoc", "Encodings", "CertificationPath",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ], swiftSettings: strict),
        // ISO/IEC 18013-7 Annex C ("org-iso-mdoc" over the Digital Credentials API): EncryptionInfo, the dcapi
        // transcript, HPKE-sealed answers, web sessions. No HTTP.
        .target(name: "WebPresentment", dependencies: [
            "CBOR", "COSE", "MDoc", "Encodings", "SessionStore", "ReaderAuthentication", "HPKEKeys",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // The W3C Digital Credentials API across protocols: one request offered as Annex C and OpenID4VP (signed,
        // unsigned), one session for all of them, the answer verified by the protocol it names. No HTTP.
        .target(name: "DigitalCredentials", dependencies: [
            "MDoc", "OpenID4VP", "WebPresentment", "SessionStore", "ReaderAuthentication", "StrictJSON", "CBOR",
        ], swiftSettings: strict),
        // Results pushed to integrators: Standard Webhooks signatures, the outbox (a directory for one process; the
        // database's table is in PostgresStore), retries with back-off, the delivery loop. No HTTP server.
        .target(name: "Webhooks", dependencies: [
            "Encodings", .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // Carry-less multiplication for GF(2^128) (PCLMULQDQ behind a CPU check) and the Montgomery kernels, in C.
        .target(name: "CLongfellowCLMUL", path: "Sources/CLongfellowCLMUL"),
        // Longfellow's two fields, GF(2^128) and P-256's base field, with a portable path beside the C one. No HTTP.
        .target(name: "LongfellowAlgebra", dependencies: ["CLongfellowCLMUL"], swiftSettings: strict),
        // The system zstd (libzstd-dev), for circuit files.
        .systemLibrary(name: "CZstd", path: "Sources/CZstd", providers: [.apt(["libzstd-dev"])]),
        // Longfellow zero-knowledge proofs: the verifier's Fiat–Shamir transcript, circuit files (zstd, LFC1, ids from
        // content), the mdoc proof container, sumcheck and Ligero. No HTTP.
        .target(name: "Longfellow", dependencies: [
            "LongfellowAlgebra", "CZstd", "CLongfellowCLMUL",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
        ], swiftSettings: strict),
        // Zero-knowledge mdoc documents: ZkDocument read strictly, the accepted systems, the namespace fixed by the
        // docType, the proof time's freshness, the issuer key from the document signer certificate, the proof pool.
        // No HTTP; MDoc reports ZK documents beside ordinary ones.
        .target(name: "ZKMdoc", dependencies: [
            "Longfellow", "LongfellowAlgebra", "CBOR",
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // Several replicas on PostgreSQL: versioned migrations, the shared SessionStore (keys sealed at rest), the
        // versioned trust set with change notifications, and what replicas share of status lists and VICAL refreshes.
        // No HTTP of its own.
        .target(name: "PostgresStore", dependencies: [
            "SessionStore", "TrustStore", "Encodings", "StatusList", "TrustManagement", "Webhooks",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strict),
        // The service's configuration: its types, the loader (file and environment, every key checked and named), and
        // the key material read at start-up. No HTTP.
        .target(name: "VerifierConfiguration", dependencies: [
            "DigitalCredentials", "OpenID4VP", "Encodings", "Webhooks", "AppleWallet", "MDoc", "OutboundFetch", "ReaderAuthentication", "SDJWTVC", "ServerTLS", "StrictJSON",
            "TrustLists", "TrustManagement", "TrustStore", "WebPresentment", "ReaderToken", "ZKMdoc", "CertificateRevocation",
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strict),
        // Metrics (the table of families, process figures) and JSON log lines, for the service and its CLI.
        .target(name: "ServiceObservability", dependencies: [
            "StatusList", "StrictJSON", "Encodings",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ], swiftSettings: strict),
        // The report format every flow answers with: an mdoc VerificationReport, or an OpenID4VP verdict with its
        // SD-JWT VC documents, written as JSON in one pass (the shapes are public API).
        .target(name: "ReportEncoding", dependencies: ["Encodings", "MDoc", "OpenID4VP", "SDJWT", "SDJWTVC", "StrictJSON"],
                swiftSettings: strict),
        // The service: routes, handlers (decode, call one library entry point, answer), trust management, metrics.
        .target(name: "VerifierService", dependencies: [
            "MDoc", "AppleWallet", "TrustStore", "TrustLists", "HTTPServer", "ReaderToken", "StatusList",
            "WebPresentment", "SessionStore", "Encodings", "ReaderAuthentication", "Proximity", "ServerTLS", "PostgresStore",
            "OutboundFetch", "StrictJSON", "TrustManagement", "OpenID4VP", "VerifierConfiguration", "ServiceObservability",
            "DigitalCredentials", "Webhooks", "ZKMdoc", "ReportEncoding", "CertificateRevocation",
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Crypto", package: "swift-crypto"),
        ],
        // The static files are the source; the EmbedAssets plugin embeds them at build time (EmbeddedAssets).
        exclude: ["Assets/openapi.json", "Assets/console.html", "Assets/console.js", "Assets/console.css",
                  "Assets/demo.html", "Assets/demo.js", "Assets/demo.css"],
        swiftSettings: strict, plugins: ["EmbedAssets"]),
        // Writes the Swift file the EmbedAssets plugin compiles in (a host tool, run at build time).
        .executableTarget(name: "embed-assets", swiftSettings: strict),
        .plugin(name: "EmbedAssets", capability: .buildTool(), dependencies: ["embed-assets"]),
        .executableTarget(name: "verifierd", dependencies: [
            "VerifierService", "AppleWallet", "MDoc", "TrustStore", "TrustLists", "HTTPServer", "ReaderToken",
            "WebPresentment", "Encodings", "ReaderAuthentication", "PostgresStore", "StrictJSON", "TrustManagement", "OpenID4VP", "VerifierConfiguration",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strict),
        .testTarget(name: "CBORTests", dependencies: ["CBOR", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "EncodingsTests", dependencies: ["Encodings"], swiftSettings: strict),
        .testTarget(name: "COSETests", dependencies: ["COSE", "CBOR", "TestSupport", .product(name: "X509", package: "swift-certificates"), .product(name: "Crypto", package: "swift-crypto")], swiftSettings: strict),
        .testTarget(name: "MDocTests", dependencies: ["MDoc", "COSE", "CBOR", "TrustStore", "TestSupport", .product(name: "Crypto", package: "swift-crypto"), .product(name: "X509", package: "swift-certificates")], swiftSettings: strict),
        .testTarget(name: "AppleWalletTests", dependencies: [
            "AppleWallet", "MDoc", "CBOR", "TrustStore", "TestSupport", "HPKEKeys",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        .testTarget(name: "HTTPServerTests", dependencies: [
            "HTTPServer", "http-echo", .product(name: "HTTPTypes", package: "swift-http-types"),
        ], swiftSettings: strict),
        .testTarget(name: "ReaderTokenTests", dependencies: [
            "ReaderToken", "Encodings", .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        .testTarget(name: "ProximityTests", dependencies: [
            "Proximity", "MDoc", "CBOR", "COSE", "TrustStore", "SessionStore", "ReaderAuthentication", "TestSupport",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        .testTarget(name: "TrustListsTests", dependencies: [
            "TrustLists", "TrustStore", "MDoc", "CBOR", "COSE", "TestSupport",
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        .testTarget(name: "SessionStoreTests", dependencies: ["SessionStore", "CBOR"], swiftSettings: strict),
        .testTarget(name: "WebhooksTests", dependencies: ["Webhooks"], swiftSettings: strict),
        .testTarget(name: "ReportEncodingTests", dependencies: ["ReportEncoding", "MDoc", "OpenID4VP", "StrictJSON"],
                    swiftSettings: strict),
        .testTarget(name: "LongfellowTests", dependencies: ["Longfellow", "LongfellowAlgebra", "Encodings", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "LongfellowAlgebraTests", dependencies: ["LongfellowAlgebra", "Encodings", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "ZKMdocTests", dependencies: ["ZKMdoc", "Longfellow", "CBOR", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "CertificateRevocationTests", dependencies: [
            "CertificateRevocation", "TestSupport", "Encodings",
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ], swiftSettings: strict),
        .testTarget(name: "CertificationPathTests", dependencies: [
            "CertificationPath", "TestSupport", "Encodings",
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        .testTarget(name: "OpenID4VPTests", dependencies: [
            "OpenID4VP", "MDoc", "CBOR", "Encodings", "StrictJSON", "TestSupport", "ReaderAuthentication", "SessionStore", "SDJWTVC", "ZKMdoc", "Longfellow",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        .testTarget(name: "PostgresStoreTests", dependencies: [
            "PostgresStore", "SessionStore", "TrustStore", "TestSupport", "StatusList", "MDoc", "OutboundFetch", "TrustManagement",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ], swiftSettings: strict),
        .testTarget(name: "WebPresentmentTests", dependencies: [
            "WebPresentment", "MDoc", "CBOR", "COSE", "TrustStore", "SessionStore", "Encodings", "TestSupport",
            "ReaderAuthentication",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ], swiftSettings: strict),
        .testTarget(name: "DigitalCredentialsTests", dependencies: [
            "DigitalCredentials", "OpenID4VP", "WebPresentment", "MDoc", "CBOR", "SessionStore", "Encodings", "StrictJSON",
            "TestSupport", "ReaderAuthentication",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        .testTarget(name: "VerifierServiceTests", dependencies: [
            "VerifierService", "HTTPServer", "TestSupport", "verifierd", "https-probe", "TrustStore", "TrustLists", "MDoc", "CBOR", "StatusList",
            "WebPresentment", "SessionStore", "Encodings", "Proximity", "ServerTLS", "OutboundFetch", "StrictJSON", "TrustManagement",
            "VerifierConfiguration", "ServiceObservability", "SDJWT", "SDJWTVC",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // Locates ../shared/vectors and TestVectors/ for the test targets.
        .target(name: "TestSupport", dependencies: [
            "HTTPServer", "StrictJSON", "SDJWT", "SDJWTVC", "MDoc", "TrustStore", .product(name: "HTTPTypes", package: "swift-http-types"),
        ], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "OutboundFetchTests", dependencies: [
            "OutboundFetch", "HTTPServer", .product(name: "HTTPTypes", package: "swift-http-types"),
        ], swiftSettings: strict),
        .testTarget(name: "TrustStoreTests", dependencies: ["TrustStore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "TrustManagementTests", dependencies: [
            "TrustManagement", "TrustStore", "TrustLists", "TestSupport", .product(name: "Logging", package: "swift-log"),
            .product(name: "X509", package: "swift-certificates"),
        ], swiftSettings: strict),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"], swiftSettings: strict),
        .testTarget(name: "SDJWTTests", dependencies: [
            "SDJWT", "StrictJSON", "Encodings", "TestSupport", .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        .testTarget(name: "SDJWTVCTests", dependencies: [
            "SDJWTVC", "SDJWT", "MDoc", "TrustStore", "StrictJSON", "Encodings", "TestSupport",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        .testTarget(name: "ReaderAuthenticationTests", dependencies: [
            "ReaderAuthentication", "TestSupport",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ], swiftSettings: strict),
        .testTarget(name: "ServerTLSTests", dependencies: ["ServerTLS", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "VerifierConfigurationTests", dependencies: ["VerifierConfiguration", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "ServiceObservabilityTests", dependencies: ["ServiceObservability"], swiftSettings: strict),
        .testTarget(name: "HPKEKeysTests", dependencies: [
            "HPKEKeys", .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        .testTarget(name: "StatusListTests", dependencies: [
            "StatusList", "MDoc", "CBOR", "TrustStore", "TestSupport", "CZlib", "OutboundFetch", "SDJWTVC", "SDJWT",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
    ]
)

// Fuzzing (scripts/ci/fuzz.sh): with VERIFIERD_FUZZ=1 the manifest adds the libFuzzer harnesses in Fuzz/Sources and
// instruments this package's own modules (coverage for libFuzzer, AddressSanitizer), not the dependencies, which
// keep their ordinary flags: a fuzz build next to the release build recompiles our modules only. Never set for an
// ordinary build.
if Context.environment["VERIFIERD_FUZZ"] == "1" {
    let instrument: SwiftSetting = .unsafeFlags(["-sanitize=fuzzer,address"])
    for target in package.targets where target.type == .regular && !["CCurl", "CEpoll", "CLongfellowCLMUL"].contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [instrument]
    }
    let crypto: Target.Dependency = .product(name: "Crypto", package: "swift-crypto")
    let harnesses: [(String, [Target.Dependency])] = [
        ("FuzzCBOR", ["CBOR"]),
        ("FuzzDeviceResponse", ["MDoc", "TrustStore"]),
        ("FuzzAppleEnvelope", ["AppleWallet", "MDoc", "TrustStore", crypto]),
        ("FuzzProximity", ["Proximity", "MDoc", crypto]),
        ("FuzzWebResponse", ["WebPresentment", "MDoc", "TrustStore", crypto]),
        ("FuzzOpenID4VP", ["OpenID4VP", "MDoc", "StrictJSON", crypto]),
        ("FuzzSDJWTVC", ["SDJWTVC", "SDJWT", "MDoc", "StrictJSON", "TrustStore"]),
        ("FuzzLongfellow", ["Longfellow", "LongfellowAlgebra"]),
    ]
    package.targets.append(.target(name: "CFuzzerDriver", path: "Fuzz/Sources/CFuzzerDriver"))
    for (name, dependencies) in harnesses {
        package.targets.append(.executableTarget(
            name: name, dependencies: dependencies + ["CFuzzerDriver"], path: "Fuzz/Sources/\(name)",
            swiftSettings: strict + [.unsafeFlags(["-sanitize=fuzzer,address", "-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])]))
    }
}
