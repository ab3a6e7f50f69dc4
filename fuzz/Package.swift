// swift-tools-version:6.0
// libFuzzer targets for chartscene's data decoders and Lua host. A separate package so the
// main build never sees -sanitize=fuzzer. Build and run them with ../scripts/fuzz.
import PackageDescription

func cs(_ name: String) -> Target.Dependency { .product(name: name, package: "chartscene") }

let package = Package(
  name: "chartscene-fuzz",
  dependencies: [.package(name: "chartscene", path: "..")],
  targets: [
    // What the host does with a decoded set: lay out and draw a chart of it (display list
    // only, text measured with fixed widths) and inspect it.
    .target(name: "FuzzSupport", dependencies: [cs("ChartModel"), cs("Drawing"), cs("SceneGraph"), cs("Render")]),
    .executableTarget(name: "FuzzTelegram", dependencies: ["FuzzSupport", cs("ChartModel")]),
    .executableTarget(name: "FuzzCSV", dependencies: ["FuzzSupport", cs("ChartModel")]),
    .executableTarget(name: "FuzzJSON", dependencies: [cs("ChartModel")]),
    // concat's MP4 box walker, and the caption files of cs.scene's `captions`.
    .executableTarget(name: "FuzzMP4", dependencies: [cs("Encoding")]),
    .executableTarget(name: "FuzzCaptions", dependencies: [cs("SceneGraph")]),
    .executableTarget(
      name: "FuzzLua",
      dependencies: [cs("LuaKit"), cs("ChartSceneLua"), cs("SceneGraph"), cs("Render"), cs("Drawing")]),
  ]
)
