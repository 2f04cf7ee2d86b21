// swift-tools-version:6.0
import PackageDescription

// The board's codec and fold run optimized in the debug build too: the test
// suite drives the binary on 10k-task boards, where unoptimized generic code
// is ten times slower than what users run (kill -9 timing included).
let optimizedEvenInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "pm",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "pm", targets: ["pm"]),
        // The web board's server, which `pm serve` starts (DESIGN.md §16):
        // its own executable, so that pm's other commands carry no server.
        .executable(name: "pm-serve", targets: ["pm-serve"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Ed25519 for the signature each replica puts on its events, so that
        // a copy can forward a teammate's changes and nobody can forge them.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        // The web board's HTTP server (`pm serve`): NIO imports no Foundation.
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        // HTTPS for a board served beyond this machine (`--tls-cert`, `--tls-key`).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
    ],
    targets: [
        // The system's ICU, loaded at run time with dlopen (any version, or
        // none: then pm works in an invariant mode): pm links no ICU.
        .target(name: "CICU", linkerSettings: [.linkedLibrary("dl")]),
        // Text basics in pure Swift, without ICU or Foundation (UTF-8
        // validation, the strict .strings parser): the build tool that
        // compiles the translation tables uses them too.
        .target(name: "PMText", swiftSettings: optimizedEvenInDebug),
        // Foundation-free: a module that imports both Foundation and CICU
        // does not compile ("'UErrorCode' has different definitions").
        .target(name: "PMICU", dependencies: ["CICU", "PMText"], swiftSettings: optimizedEvenInDebug),
        .target(
            name: "PMLocalization",
            dependencies: ["PMICU", "PMText"],
            plugins: [.plugin(name: "EmbedTablesPlugin")]
        ),
        // Signatures over bytes (Ed25519, SHA-256): swift-crypto's types stay in here.
        .target(name: "PMSign", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "PMCore", dependencies: ["PMICU", "PMSign"], swiftSettings: optimizedEvenInDebug),
        // Remotes (a folder, git through the git command): transports only;
        // the merge rules stay in PMCore.
        .target(name: "PMSync", dependencies: ["PMCore", "PMProcess"]),
        // Commands run with a time limit (git, gdbus): what a transport and
        // the desktop notifier start, and nothing else they hold.
        .target(name: "PMProcess"),
        // The application layer: one board, one person (BoardSession). Every
        // front end calls its use cases and renders their typed results.
        .target(name: "PMKit", dependencies: ["PMCore", "PMSync", "PMProcess", "PMICU"], swiftSettings: optimizedEvenInDebug),
        // The interactive board: pure state, reducer and rendering; the
        // terminal driver is the only part that touches the terminal.
        .target(name: "PMBoardUI", dependencies: ["PMCore", "PMLocalization", "PMICU"], swiftSettings: optimizedEvenInDebug),
        // What a person reads, made from typed results, for every front end:
        // sentences, column and field names, dates, history lines, the
        // message of every refusal. No terminal and no ArgumentParser, so
        // that the web board says each word as the terminal does.
        .target(
            name: "PMViews", dependencies: ["PMKit", "PMCore", "PMICU", "PMLocalization"], swiftSettings: optimizedEvenInDebug),
        .target(
            name: "PMCLI",
            dependencies: [
                "PMKit", "PMCore", "PMLocalization", "PMICU", "PMSync", "PMBoardUI", "PMViews",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: optimizedEvenInDebug
        ),
        .executableTarget(name: "pm", dependencies: ["PMCLI"]),
        // `pm serve`: HTTP (SwiftNIO), pages, live updates, who is who. A
        // front end over PMKit like the others; pm-serve is pm with it linked.
        // The system's zlib, for the web board's gzip answers.
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        .target(
            name: "PMWeb",
            dependencies: [
                "CZlib", "PMKit", "PMViews", "PMCore", "PMLocalization", "PMICU",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .executableTarget(name: "pm-serve", dependencies: ["PMCLI", "PMWeb"]),

        // Build tooling: the translation tables are compiled into the binary,
        // so pm needs no resource folder at run time (L10N.md fact 2 and 4).
        .executableTarget(name: "EmbedTables", dependencies: ["PMText"], path: "Sources/EmbedTables"),
        .plugin(
            name: "EmbedTablesPlugin",
            capability: .buildTool(),
            dependencies: ["EmbedTables"]
        ),

        .target(name: "PMTestSupport", dependencies: ["PMCore"]),
        .testTarget(name: "PMICUTests", dependencies: ["PMICU"]),
        .testTarget(name: "PMLocalizationTests", dependencies: ["PMLocalization"], exclude: ["Fixtures"]),
        .testTarget(name: "PMCoreTests", dependencies: ["PMCore", "PMICU", "PMTestSupport"]),
        .testTarget(name: "PMKitTests", dependencies: ["PMKit", "PMCore", "PMTestSupport"]),
        .testTarget(name: "PMViewsTests", dependencies: ["PMViews", "PMKit", "PMCore", "PMLocalization", "PMTestSupport"]),
        .testTarget(name: "PMWebTests", dependencies: ["PMWeb", "PMICU"]),
        .testTarget(name: "PMCLITests", dependencies: ["PMCLI", "PMCore", "PMKit", "PMLocalization", "PMSync"]),
        .testTarget(
            name: "PMBoardUITests", dependencies: ["PMBoardUI", "PMCore", "PMICU", "PMLocalization"], exclude: ["Fixtures"]),
        .testTarget(
            name: "PMEndToEndTests",
            dependencies: ["pm", "pm-serve", "PMCLI", "PMCore", "PMICU", "PMTestSupport"],
            exclude: ["Fixtures"]
        ),
    ]
)
