// swift-tools-version:6.0
// chartscene: Lua-scripted chart scenes rendered with cairo + Pango.
// Layers (each target imports only targets listed before it):
//   Platform → Drawing → ChartModel → Motion → Gestures → SceneGraph → Render → {RenderCairo, Encoding, LiveWindow} → ChartSceneLua → ChartSceneHost → Studio → chartscene
//   LuaKit (chart-agnostic Lua wrapper) is imported only by ChartSceneLua and ChartSceneHost.
//   Studio (`chartscene serve`: the HTTP and WebSocket server of the page, Hummingbird) is the
//   only target that imports the web libraries.
// Each target's dependencies are exactly what its sources import (LayeringTests checks it).
import PackageDescription

let package = Package(
  name: "chartscene",
  products: [
    .executable(name: "chartscene", targets: ["chartscene"]),
    // For the fuzz targets in fuzz/ (a separate package that depends on this one by path).
    .library(name: "Drawing", targets: ["Drawing"]),
    .library(name: "ChartModel", targets: ["ChartModel"]),
    .library(name: "SceneGraph", targets: ["SceneGraph"]),
    .library(name: "Render", targets: ["Render"]),
    .library(name: "LuaKit", targets: ["LuaKit"]),
    .library(name: "ChartSceneLua", targets: ["ChartSceneLua"]),
    .library(name: "Encoding", targets: ["Encoding"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    // The studio's gate in front of the WebSocket upgrade (Studio/UpgradeGate): already in
    // the graph through Hummingbird.
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.0.0"),
  ],
  targets: [
    // C libraries and shims.
    .systemLibrary(name: "CLua", pkgConfig: "lua5.4", providers: [.apt(["liblua5.4-dev"])]),
    .target(name: "CLuaShim", dependencies: ["CLua"]),
    .systemLibrary(name: "CCairo", pkgConfig: "pangocairo", providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
    .target(name: "CPNG", linkerSettings: [.linkedLibrary("z"), .linkedLibrary("pthread")]),
    .target(name: "CSDL2", linkerSettings: [.linkedLibrary("dl")]),
    // assets/ embedded in the executable (fonts, presets, sample data), found by `.incbin`.
    .target(name: "CAssets", cSettings: [.headerSearchPath("../../assets")]),
    // The number parser of the data files (a fast path for ordinary decimals, strtod for the rest),
    // and the bulk reader of plain CSV rows straight into columns.
    .target(name: "CFastParse"),
    // Frames on their way to ffmpeg: BGRA to YUV 4:2:0 in AVX2 registers, and pipe writes
    // that hand over pages (vmsplice) instead of copying them; x264 loaded at run time; the
    // GIF encoder (gif.c: frame store, palette, dithering, LZW).
    .target(name: "CFrames", linkerSettings: [.linkedLibrary("dl")]),

    // POSIX plumbing every layer may use: paths, clocks, a mutex, stage timing.
    .target(name: "Platform"),
    // Model: data, windows, ticks. No drawing, no Lua.
    .target(name: "Drawing"),
    .target(name: "ChartModel", dependencies: ["Drawing", "CFastParse"]),
    // Time: the fixed-step clock, curves, animated values.
    .target(name: "Motion"),
    // Touch: pointer events, recognisers, synthetic streams for the timeline.
    .target(name: "Gestures", dependencies: ["Drawing"]),
    // Scene: nodes, layout, themes, inspection.
    .target(name: "SceneGraph", dependencies: ["Drawing", "ChartModel", "Motion", "Gestures"]),
    // Render: scene → display list (and a text dump of one, for tests).
    .target(name: "Render", dependencies: ["Drawing", "ChartModel", "SceneGraph"]),
    .target(name: "RenderCairo", dependencies: ["Platform", "Drawing", "CCairo"]),
    .target(name: "Encoding", dependencies: ["Platform", "Drawing", "CPNG", "CFrames"]),
    .target(name: "LiveWindow", dependencies: ["Drawing", "Gestures", "CSDL2"]),
    // Lua host.
    .target(name: "LuaKit", dependencies: ["CLua", "CLuaShim"]),
    // BuildInfo (the version in VERSION and the commit of the checkout) is generated into it by the plugin.
    .target(name: "ChartSceneLua", dependencies: ["Platform", "LuaKit", "Drawing", "ChartModel", "Motion", "SceneGraph"], plugins: ["BuildInfo"]),
    // CLI.
    .target(
      name: "ChartSceneHost",
      dependencies: ["Platform", "LuaKit", "ChartSceneLua", "Drawing", "ChartModel", "SceneGraph", "Render", "RenderCairo", "Encoding", "LiveWindow", "Gestures", "Motion", "CLuaShim", "CAssets"]),
    // `chartscene serve`: the studio page, its WebSocket, the token and header checks.
    .target(
      name: "Studio",
      dependencies: ["Platform", "ChartSceneHost", .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdCore", package: "hummingbird"),
                     .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"), .product(name: "Logging", package: "swift-log"),
                     .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio")]),
    .executableTarget(
      name: "chartscene",
      dependencies: ["Platform", "ChartSceneHost", "Studio", .product(name: "ArgumentParser", package: "swift-argument-parser")]),

    // Stamps the build with its version and commit (scripts/build-info).
    .plugin(name: "BuildInfo", capability: .buildTool()),

    // Tests.
    .testTarget(name: "ChartModelTests", dependencies: ["ChartModel"]),
    .testTarget(name: "MotionTests", dependencies: ["Motion", "Gestures"]),
    .testTarget(name: "SceneGraphTests", dependencies: ["SceneGraph", "Render", "ChartModel"]),
    .testTarget(name: "ChartSceneLuaTests", dependencies: ["ChartSceneHost", "ChartSceneLua", "LuaKit", "CLua", "CLuaShim", "SceneGraph", "Drawing", "Gestures", "Render"]),
    .testTarget(name: "RenderCairoTests", dependencies: ["ChartSceneHost", "RenderCairo", "Encoding", "CCairo"], exclude: ["Golden"]),
    .testTarget(name: "chartsceneTests", dependencies: ["chartscene"]),
  ]
)
