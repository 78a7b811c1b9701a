// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "verifierd",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "CBOR", targets: ["CBOR"]),
        .library(name: "COSE", targets: ["COSE"]),
        .library(name: "TrustStore", targets: ["TrustStore"]),
        .library(name: "MDoc", targets: ["MDoc"]),
        .library(name: "AppleWallet", targets: ["AppleWallet"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
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
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // ISO/IEC 18013-5 data model and verification engine.
        .target(name: "MDoc", dependencies: [
            "CBOR", "COSE", "TrustStore",
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // Apple "Verify with Wallet": APPLE-HPKE-v1 envelope and AppleHandover transcript.
        .target(name: "AppleWallet", dependencies: [
            "CBOR", "MDoc", "TrustStore",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ], swiftSettings: strict),
        .testTarget(name: "CBORTests", dependencies: ["CBOR"], swiftSettings: strict),
        .testTarget(name: "COSETests", dependencies: ["COSE", "CBOR", "TestSupport", .product(name: "X509", package: "swift-certificates"), .product(name: "Crypto", package: "swift-crypto")], swiftSettings: strict),
        .testTarget(name: "MDocTests", dependencies: ["MDoc", "COSE", "CBOR", "TrustStore", "TestSupport", .product(name: "Crypto", package: "swift-crypto"), .product(name: "X509", package: "swift-certificates")], swiftSettings: strict),
        .testTarget(name: "AppleWalletTests", dependencies: [
            "AppleWallet", "MDoc", "CBOR", "TrustStore", "TestSupport",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // Locates ../shared/vectors and TestVectors/ for the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strict),
    ]
)
