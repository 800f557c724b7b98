// swift-tools-version:6.0
import PackageDescription

// One shared setting list keeps every target in Swift 6 mode with strict concurrency.
let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "aasa-monitor",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "aasa-monitor", targets: ["aasa-monitor"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // YAML for config files (apply/export); libyaml inside, no further dependencies.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // The custom webhook's body template (Notify); no dependencies of its own.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
    ],
    targets: [
        // System libraries, found through pkg-config.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CIDN2", pkgConfig: "libidn2", providers: [.apt(["libidn2-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // The Public Suffix List (libpsl; the list itself from Debian's publicsuffix package).
        .systemLibrary(name: "CPSL", pkgConfig: "libpsl", providers: [.apt(["libpsl-dev", "publicsuffix"])]),
        // Only what Swift cannot call directly: variadic curl functions, epoll/socket glue.
        .target(name: "CShim", dependencies: ["CCurl"], cSettings: [.define("_GNU_SOURCE")]),

        // The pure cores: no I/O, Foundation at most.
        // Text encodings written once for every layer: lower-case hex, HTML/XML escaping, lenient %XX
        // decoding. Depends on nothing, so HTTP may use it and stay free of product modules.
        .target(name: "TextEncoding", swiftSettings: strict),
        // The words every layer shares, from the core to the column: findings, severity, verdict, platform.
        .target(name: "Vocabulary", dependencies: ["TextEncoding"], swiftSettings: strict),
        // The strict-but-forgiving JSON reader that locates every value (pointer + line:column).
        .target(name: "LocatedJSON", dependencies: ["Vocabulary"], swiftSettings: strict),
        // Apple's apple-app-site-association: parse, validate, match, explain, diff.
        .target(name: "AASA", dependencies: ["Vocabulary", "LocatedJSON", "TextEncoding"], swiftSettings: strict),
        // Android's assetlinks.json: read as Google does, validate, match Android 15+ dynamic rules, diff.
        .target(name: "AssetLinks", dependencies: ["Vocabulary", "LocatedJSON", "TextEncoding"], swiftSettings: strict),
        // WebAuthn's related-origins file (/.well-known/webauthn) and passkey-endpoints: read, validate,
        // decide whether a caller origin may use an RP ID. The Public Suffix List and IDNA come in as
        // Vocabulary's protocols, so the core links no C library.
        .target(name: "WebAuthn", dependencies: ["Vocabulary", "LocatedJSON"], swiftSettings: strict),
        // libpsl behind Vocabulary's PublicSuffixRules, for WebAuthn's label counting.
        .target(name: "PublicSuffixes", dependencies: ["CPSL", "Vocabulary"], swiftSettings: strict),
        // The config file (`apply`, `export --yaml`, `serve --config`): YAML read into typed entries with
        // their lines, environment references resolved; pure (no database), so it can be fuzzed alone.
        .target(name: "ConfigFile", dependencies: ["Vocabulary", .product(name: "Yams", package: "Yams")], swiftSettings: strict),
        // An app's own declarations of its web associations: Apple entitlements, Android manifests.
        .target(name: "AppManifests", dependencies: ["Vocabulary", "AASA"], swiftSettings: strict),
        // Generic HTTP/1.1 server on raw sockets; knows nothing of AASA.
        .target(name: "HTTP", dependencies: ["CShim", "TextEncoding"], swiftSettings: strict),
        // PostgreSQL through libpq: pool, migrations, embedded cluster, queries.
        .target(name: "Store", dependencies: ["CLibPQ", "CSodium", "Vocabulary", "AASA", "TextEncoding"], swiftSettings: strict),
        // The I/O edge every connection the product makes goes through: the outbound address policy,
        // the one checked curl easy-handle wrapper, pinning by the name curl uses, the socket guard.
        .target(name: "Outbound", dependencies: ["CCurl", "CShim", "CIDN2"], swiftSettings: strict),
        // libcurl fetcher (multi loop) of association files, on Outbound's handles; WebAuthn judges the web files it fetches.
        .target(name: "Fetch", dependencies: ["CCurl", "CShim", "CIDN2", "Vocabulary", "AASA", "AssetLinks", "Outbound", "WebAuthn"], swiftSettings: strict),
        // Scheduler, check pipeline, alert rules.
        .target(name: "Monitor", dependencies: ["Vocabulary", "AASA", "AppManifests", "AssetLinks", "Fetch", "Store", "TextEncoding", "CShim"], swiftSettings: strict),
        // Email, webhook and on-call/chat provider delivery from the outbox.
        .target(name: "Notify", dependencies: ["Vocabulary", "AASA", "CCurl", "CSodium", "Store", "Outbound", "TextEncoding",
                                               .product(name: "Mustache", package: "swift-mustache")], swiftSettings: strict),
        // The application layer: the one way in for every change to what is monitored (register, edit,
        // delete, import, expectations, "check now") — the form, the API and the CLI all call it.
        .target(name: "Registry", dependencies: ["Vocabulary", "Store", "Monitor", "Fetch", "Outbound", "AppManifests", "Notify", "ConfigFile"], swiftSettings: strict),
        // Pages, forms, JSON API, auth.
        .target(name: "Web", dependencies: ["HTTP", "Registry", "Store", "Monitor", "Notify", "Vocabulary", "AASA", "AssetLinks", "Fetch", "CSodium", "TextEncoding", "ConfigFile"],
                swiftSettings: strict),
        .executableTarget(
            name: "aasa-monitor",
            dependencies: [
                "Vocabulary", "AASA", "AppManifests", "AssetLinks", "HTTP", "Store", "Fetch", "Monitor", "Notify", "Registry", "Web", "TextEncoding", "Outbound", "ConfigFile",
                "WebAuthn", "PublicSuffixes",
                // The remote client (`--server`) sets its own transfer options on an Outbound easy handle.
                "CCurl",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),

        // Helpers that start real things for the tests (PostgreSQL, TLS fleet, SMTP, webhook receiver).
        .target(name: "TestSupport", dependencies: ["Vocabulary", "Store", "HTTP", "AssetLinks", "CCurl", "CShim"], swiftSettings: strict),

        .testTarget(name: "VocabularyTests", dependencies: ["Vocabulary"], swiftSettings: strict),
        .testTarget(name: "TextEncodingTests", dependencies: ["TextEncoding"], swiftSettings: strict),
        // Each test target names every module it imports: an import reached only through another
        // target's dependencies is not rebuilt when that module changes (stale objects, link errors).
        .testTarget(name: "LocatedJSONTests", dependencies: ["LocatedJSON", "Vocabulary"], swiftSettings: strict),
        .testTarget(name: "AASATests", dependencies: ["Vocabulary", "AASA"], resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "AssetLinksTests", dependencies: ["Vocabulary", "AssetLinks"], resources: [.copy("Fixtures")],
                    swiftSettings: strict),
        // Fetch for LibIDN2 (the one IDNA conversion), PublicSuffixes for the real list: no table by hand.
        .testTarget(name: "WebAuthnTests", dependencies: ["WebAuthn", "Vocabulary", "PublicSuffixes", "Fetch"], swiftSettings: strict),
        .testTarget(name: "ConfigFileTests", dependencies: ["ConfigFile", "Vocabulary"], swiftSettings: strict),
        .testTarget(name: "AppManifestsTests", dependencies: ["AppManifests", "Vocabulary"], swiftSettings: strict),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "StoreTests", dependencies: ["Store", "TestSupport", "TextEncoding", "Vocabulary", "AASA"], swiftSettings: strict),
        .testTarget(name: "OutboundTests", dependencies: ["Outbound", "TestSupport", "CCurl"], swiftSettings: strict),
        .testTarget(name: "FetchTests", dependencies: ["Vocabulary", "AASA", "AssetLinks", "Outbound", "Fetch", "TestSupport", "WebAuthn", "PublicSuffixes"], swiftSettings: strict),
        .testTarget(name: "MonitorTests", dependencies: ["Vocabulary", "AASA", "AssetLinks", "Outbound", "Fetch", "Store", "Monitor", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "NotifyTests", dependencies: ["Vocabulary", "AASA", "Outbound", "Fetch", "Store", "Monitor", "Notify", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "RegistryTests", dependencies: ["Vocabulary", "Store", "Monitor", "Registry", "AppManifests", "ConfigFile", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "WebTests", dependencies: ["Vocabulary", "AASA", "AssetLinks", "AppManifests", "Store", "Web", "Monitor", "Notify", "Outbound", "Fetch", "Registry", "ConfigFile", "TestSupport", "TextEncoding"], swiftSettings: strict),
        .testTarget(name: "CLITests", dependencies: ["Store", "TestSupport", "Vocabulary"], swiftSettings: strict),

        // Benchmarks: release-built executables that print ratios against baselines/peers.
        // Seeds a database with a realistic history for the benchmarks; never linked into the product.
        .target(name: "BenchSupport", dependencies: ["Store", "Vocabulary"], path: "Benchmarks/BenchSupport", swiftSettings: strict),
        // The Stopwatch the pure-core benchmarks share (no database, so they stay small).
        .target(name: "BenchTiming", path: "Benchmarks/BenchTiming", swiftSettings: strict),
        .executableTarget(name: "WebBench", dependencies: ["Web", "Store", "Vocabulary", "BenchSupport"], path: "Benchmarks/WebBench", swiftSettings: strict),
        .executableTarget(name: "ScaleBench", dependencies: ["Store", "Vocabulary", "BenchSupport"], path: "Benchmarks/ScaleBench", swiftSettings: strict),
        .executableTarget(name: "ReadingBench", dependencies: ["AASA", "AssetLinks", "Store", "Vocabulary", "BenchTiming"],
                          path: "Benchmarks/ReadingBench", swiftSettings: strict),
        .executableTarget(name: "AASABench", dependencies: ["AASA", "BenchTiming"], path: "Benchmarks/AASABench", swiftSettings: strict),
        .executableTarget(name: "AssetLinksBench", dependencies: ["AssetLinks", "BenchTiming"], path: "Benchmarks/AssetLinksBench",
                          swiftSettings: strict),
        .executableTarget(name: "HTTPBenchServer", dependencies: ["HTTP"], path: "Benchmarks/HTTPBenchServer", swiftSettings: strict),
        .executableTarget(name: "NotifyBench", dependencies: ["Notify", "Store", "Monitor", "Fetch", "TestSupport", "Vocabulary", "Outbound"], path: "Benchmarks/NotifyBench",
                          swiftSettings: strict),
        .executableTarget(name: "CrawlBench", dependencies: ["Vocabulary", "Fetch", "TestSupport", "Outbound"], path: "Benchmarks/CrawlBench", swiftSettings: strict),
        // The fault campaign: serve + workers under scheduled faults, counting what was lost (Benchmarks/fault-bench.sh).
        .executableTarget(name: "FaultBench", dependencies: ["Store", "Vocabulary", "TestSupport"], path: "Benchmarks/FaultBench",
                          swiftSettings: strict),
        .executableTarget(name: "MonitorBench", dependencies: ["Vocabulary", "Monitor", "Store", "Fetch", "TestSupport", "Outbound"], path: "Benchmarks/MonitorBench", swiftSettings: strict),
    ]
)
