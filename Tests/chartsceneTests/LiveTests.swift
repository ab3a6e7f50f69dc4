import Foundation
import XCTest

/// The live window under Xvfb, driven by xdotool: drag the mini-map window and tap a chip,
/// save the script (the reload keeps the state), record, then replay headless and compare.
final class LiveTests: XCTestCase {
  func tool(_ name: String) -> String? {
    for dir in ["/usr/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) { return dir + "/" + name }
    return nil
  }

  @discardableResult
  func sh(_ path: String, _ args: [String], env: [String: String] = [:]) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  /// A long press then a drag down sends the top card of a live deck to the back.
  func testLongPressDragACardLive() throws {
    guard let xvfb = tool("Xvfb"), let xdotool = tool("xdotool") else { throw XCTSkip("Xvfb and xdotool are needed (scripts/install-deps installs them)") }
    let display = ":\(80 + Int(getpid()) % 9)"
    let server = Process()
    server.executableURL = URL(fileURLWithPath: xvfb)
    server.arguments = [display, "-screen", "0", "1024x768x24"]
    server.standardError = FileHandle.nullDevice
    try server.run()
    defer { server.terminate(); server.waitUntilExit() }
    usleep(800_000)
    let env = ["DISPLAY": display]
    let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("chartscene-live-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: tmp) }
    let script = tmp.appendingPathComponent("deck.lua")
    try """
      local sets = cs.data.sample()
      return cs.scene { width = 500, height = 600, fps = 30, root = cs.cards { id = "deck", padding = 20,
        cs.card { id = "a", data = sets[1] }, cs.card { id = "b", data = sets[2] }, cs.card { id = "c", data = sets[3] } } }
      """.write(to: script, atomically: true, encoding: .utf8)
    let record = tmp.appendingPathComponent("rec.lua")
    let live = Process()
    live.executableURL = CLI.binary
    live.arguments = [script.path, "--live", "--record", record.path]
    live.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
    let out = Pipe()
    live.standardOutput = out
    live.standardError = FileHandle.nullDevice
    try live.run()
    defer { if live.isRunning { live.terminate() } }
    var window = ""
    for _ in 0..<50 where window.isEmpty {
      usleep(100_000)
      window = try sh(xdotool, ["search", "--name", "chartscene"], env: env).split(separator: "\n").first.map(String.init) ?? ""
    }
    XCTAssertFalse(window.isEmpty, "no window")
    let geometry = try sh(xdotool, ["getwindowgeometry", "--shell", window], env: env)
    func value(_ key: String) -> Int { Int(geometry.split(separator: "\n").first { $0.hasPrefix(key + "=") }?.dropFirst(key.count + 1) ?? "0") ?? 0 }
    let ox = value("X"), oy = value("Y")
    func x(_ args: String...) throws { try sh(xdotool, args, env: env) }
    try x("mousemove", "\(ox + 250)", "\(oy + 330)")
    usleep(200_000)
    try x("mousedown", "1")
    usleep(800_000)  // hold: a long press
    for i in 1...12 {
      usleep(30_000)
      try x("mousemove", "\(ox + 250)", "\(oy + 330 + i * 25)")
    }
    usleep(100_000)
    try x("mouseup", "1")
    usleep(900_000)
    try x("key", "i")
    usleep(300_000)
    try x("key", "q")
    live.waitUntilExit()
    let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    XCTAssertTrue(printed.contains("\"order\": [\"b\", \"c\", \"a\"]"), "the card did not go back: \(printed.prefix(400))")
    let recorded = try String(contentsOf: record, encoding: .utf8)
    XCTAssertTrue(recorded.contains("cs.drag { at = ") && recorded.contains("target = \"deck\"") && recorded.contains("hold = "), recorded)
    let replay = try CLI.run([script.path, "--timeline", record.path, "--inspect", "--at", "30"])
    XCTAssertTrue(replay.stdout.contains("\"order\": [\"b\", \"c\", \"a\"]"), replay.stdout + replay.stderr)
  }

  func testDriveRecordAndReplay() throws {
    guard let xvfb = tool("Xvfb"), let xdotool = tool("xdotool") else { throw XCTSkip("Xvfb and xdotool are needed (scripts/install-deps installs them)") }
    let display = ":\(90 + Int(getpid()) % 9)"
    let server = Process()
    server.executableURL = URL(fileURLWithPath: xvfb)
    server.arguments = [display, "-screen", "0", "1024x768x24"]
    server.standardError = FileHandle.nullDevice
    try server.run()
    defer { server.terminate(); server.waitUntilExit() }
    usleep(800_000)
    let env = ["DISPLAY": display]

    let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("chartscene-live-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: tmp) }
    let script = tmp.appendingPathComponent("live.lua")
    let source = { (title: String) in
      "local s = cs.data.sample()[1]\ns:setRange(0.5, 0.75)\nreturn cs.scene { width = 600, height = 500, fps = 30, root = cs.chart { id = \"c\", data = s, title = \"\(title)\" } }"
    }
    try source("Live").write(to: script, atomically: true, encoding: .utf8)
    let record = tmp.appendingPathComponent("rec.lua")

    let live = Process()
    live.executableURL = CLI.binary
    live.arguments = [script.path, "--live", "--record", record.path]
    live.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
    let out = Pipe()
    live.standardOutput = out
    live.standardError = FileHandle.nullDevice
    try live.run()
    defer { if live.isRunning { live.terminate() } }

    var window = ""
    for _ in 0..<50 where window.isEmpty {
      usleep(100_000)
      window = try sh(xdotool, ["search", "--name", "chartscene"], env: env).split(separator: "\n").first.map(String.init) ?? ""
    }
    XCTAssertFalse(window.isEmpty, "no window")
    let geometry = try sh(xdotool, ["getwindowgeometry", "--shell", window], env: env)
    func value(_ key: String) -> Int { Int(geometry.split(separator: "\n").first { $0.hasPrefix(key + "=") }?.dropFirst(key.count + 1) ?? "0") ?? 0 }
    let ox = value("X"), oy = value("Y")
    func x(_ args: String...) throws { try sh(xdotool, args, env: env) }
    // Drag the mini-map window (centre 371, 413) 100 px right, then tap the chip of y1.
    try x("mousemove", "\(ox + 371)", "\(oy + 413)")
    usleep(200_000)
    try x("mousedown", "1")
    for i in 1...10 {
      usleep(30_000)
      try x("mousemove", "\(ox + 371 + i * 10)", "\(oy + 413)")
    }
    usleep(100_000)
    try x("mouseup", "1")
    usleep(400_000)
    try x("mousemove", "\(ox + 120)", "\(oy + 472)")
    try x("click", "1")
    usleep(500_000)
    // Save the script: it reloads and keeps what the user did.
    try source("Reloaded").write(to: script, atomically: true, encoding: .utf8)
    usleep(800_000)
    try x("key", "i")
    usleep(300_000)
    try x("key", "q")
    live.waitUntilExit()
    let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    XCTAssertTrue(printed.contains("\"title\": \"Reloaded\""), "no reload: \(printed.prefix(300))")
    XCTAssertTrue(printed.contains("\"hidden\": [\"y1\"]"), "the hidden line was lost")
    let recorded = try String(contentsOf: record, encoding: .utf8)
    XCTAssertTrue(recorded.contains("target = \"c.minimap.window\""), recorded)
    XCTAssertTrue(recorded.contains("target = \"c.legend.y1\""), recorded)

    // Replayed headless, the recording ends in the same state.
    func field(_ json: String, _ key: String) -> String? { json.split(separator: "\n").first { $0.contains("\"\(key)\":") }.map(String.init) }
    let replay = try CLI.run([script.path, "--timeline", record.path, "--inspect", "--at", "30"])
    XCTAssertEqual(replay.status, 0, replay.stderr)
    XCTAssertEqual(field(replay.stdout, "range"), field(printed, "range"))
    XCTAssertEqual(field(replay.stdout, "hidden"), field(printed, "hidden"))
  }
}
