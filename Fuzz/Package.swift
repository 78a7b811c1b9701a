// swift-tools-version: 6.1
// libFuzzer targets for verifierd's parsers. Kept apart from the main package: a fuzz target has no `main`, so it
// would not link in an ordinary build. Run with scripts/fuzz.sh.
import PackageDescription

let package = Package(
    name: "verifierd-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "verifierd", path: "..")],
    targets: [
        .executableTarget(name: "FuzzCBOR", dependencies: [.product(name: "CBOR", package: "verifierd")]),
        .executableTarget(name: "FuzzDeviceResponse", dependencies: [
            .product(name: "MDoc", package: "verifierd"), .product(name: "TrustStore", package: "verifierd"),
        ]),
        .executableTarget(name: "FuzzAppleEnvelope", dependencies: [
            .product(name: "AppleWallet", package: "verifierd"), .product(name: "MDoc", package: "verifierd"),
        ]),
        .executableTarget(name: "FuzzProximity", dependencies: [
            .product(name: "Proximity", package: "verifierd"), .product(name: "MDoc", package: "verifierd"),
        ]),
        .executableTarget(name: "FuzzWebResponse", dependencies: [
            .product(name: "WebPresentment", package: "verifierd"), .product(name: "MDoc", package: "verifierd"),
            .product(name: "TrustStore", package: "verifierd"),
        ]),
    ]
)
