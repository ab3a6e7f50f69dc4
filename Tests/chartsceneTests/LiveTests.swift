import Foundation
import XCTest

/// The live window under Xvfb, driven by xdotool: gestures by hand, a save that keeps the
/// state, a recording, then a headless replay that ends in the same state.
final class LiveTests: XCTestCase {
  /// An X server, a live chartscene in it, and xdotool to drive it.
  final class Harness {
    let xdotool: String
    let server = Process()
    let live = Process()
    let out = Pipe()
    let env: [String: String]
    let tmp: URL
    var origin = (x: 0, y: 0)

    init(display: Int) throws {
      guard let xvfb = Harness.tool("Xvfb"), let xdo = Harness.tool("xdotool") else {
        throw XCTSkip("Xvfb and xdotool are needed (scripts/install-deps installs them)")
      }
      xdotool = xdo
      env = ["DISPLAY": ":\(display)"]
      server.executableURL = URL(fileURLWithPath: xvfb)
      server.arguments = [":\(display)", "-screen", "0", "1024x768x24"]
      server.standardError = FileHandle.nullDevice
      try server.run()
      usleep(800_000)
      tmp = FileManager.default.temporaryDirectory.appendingPathComponent("chartscene-live-" + UUID().uuidString)
      try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }

    deinit {
      if live.isRunning { live.terminate() }
      server.terminate()
      server.waitUntilExit()
      try? FileManager.default.removeItem(at: tmp)
    }

    static func tool(_ name: String) -> String? {
      ["/usr/bin", "/usr/local/bin"].map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @discardableResult
    func sh(_ args: [String]) throws -> String {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: xdotool)
      p.arguments = args
      p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
      let pipe = Pipe()
      p.standardOutput = pipe
      p.standardError = FileHandle.nullDevice
      try p.run()
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      p.waitUntilExit()
      return String(decoding: data, as: UTF8.self)
    }

    func x(_ args: String...) throws { try sh(args) }

    /// Starts `chartscene SCRIPT --live --record REC` and waits for its window.
    func start(_ script: URL, record: URL) throws {
      live.executableURL = CLI.binary
      live.arguments = [script.path, "--live", "--record", record.path]
      live.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
      live.standardOutput = out
      live.standardError = FileHandle.nullDevice
      try live.run()
      var window = ""
      for _ in 0..<50 where window.isEmpty {
        usleep(100_000)
        window = try sh(["search", "--name", "chartscene"]).split(separator: "\n").first.map(String.init) ?? ""
      }
      XCTAssertFalse(window.isEmpty, "no window")
      let geometry = try sh(["getwindowgeometry", "--shell", window])
      func value(_ key: String) -> Int { Int(geometry.split(separator: "\n").first { $0.hasPrefix(key + "=") }?.dropFirst(key.count + 1) ?? "0") ?? 0 }
      origin = (value("X"), value("Y"))
    }

    /// Moves to (x, y) in the window, presses, holds, moves by (dx, dy) in steps, releases.
    func drag(_ x0: Int, _ y0: Int, by dx: Int, _ dy: Int, hold: useconds_t = 0) throws {
      try x("mousemove", "\(origin.x + x0)", "\(origin.y + y0)")
      usleep(200_000)
      try x("mousedown", "1")
      usleep(hold)
      for i in 1...10 {
        usleep(30_000)
        try x("mousemove", "\(origin.x + x0 + dx * i / 10)", "\(origin.y + y0 + dy * i / 10)")
      }
      usleep(100_000)
      try x("mouseup", "1")
    }

    func tap(_ x0: Int, _ y0: Int) throws {
      try x("mousemove", "\(origin.x + x0)", "\(origin.y + y0)")
      try x("click", "1")
    }

    /// Presses i (inspect) and q (quit); returns what chartscene printed.
    func inspectAndQuit() throws -> String {
      try x("key", "i")
      usleep(300_000)
      try x("key", "q")
      live.waitUntilExit()
      return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
  }

  func field(_ json: String, _ key: String) -> String? { json.split(separator: "\n").first { $0.contains("\"\(key)\":") }.map(String.init) }

  func testDriveRecordAndReplay() throws {
    let h = try Harness(display: 90 + Int(getpid()) % 9)
    let script = h.tmp.appendingPathComponent("live.lua")
    let source = { (title: String) in
      "local s = cs.data.sample()[1]\ns:setRange(0.5, 0.75)\nreturn cs.scene { width = 600, height = 500, fps = 30, root = cs.chart { id = \"c\", data = s, title = \"\(title)\" } }"
    }
    try source("Live").write(to: script, atomically: true, encoding: .utf8)
    let record = h.tmp.appendingPathComponent("rec.lua")
    try h.start(script, record: record)
    // Drag the mini-map window (centre 371, 413) 100 px right, then tap the chip of y1.
    try h.drag(371, 413, by: 100, 0)
    usleep(400_000)
    try h.tap(120, 472)
    usleep(500_000)
    // Save the script: it reloads and keeps what the user did.
    try source("Reloaded").write(to: script, atomically: true, encoding: .utf8)
    usleep(800_000)
    let printed = try h.inspectAndQuit()
    XCTAssertTrue(printed.contains("\"title\": \"Reloaded\""), "no reload: \(printed.prefix(300))")
    XCTAssertTrue(printed.contains("\"hidden\": [\"y1\"]"), "the hidden line was lost")
    let recorded = try String(contentsOf: record, encoding: .utf8)
    XCTAssertTrue(recorded.contains("target = \"c.minimap.window\""), recorded)
    XCTAssertTrue(recorded.contains("target = \"c.legend.y1\""), recorded)
    // Replayed headless, the recording ends in the same state.
    let replay = try CLI.run([script.path, "--timeline", record.path, "--inspect", "--at", "30"])
    XCTAssertEqual(replay.status, 0, replay.stderr)
    XCTAssertEqual(field(replay.stdout, "range"), field(printed, "range"))
    XCTAssertEqual(field(replay.stdout, "hidden"), field(printed, "hidden"))
  }

  /// A long press then a drag down sends the top card of a live deck to the back.
  func testLongPressDragACardLive() throws {
    let h = try Harness(display: 80 + Int(getpid()) % 9)
    let script = h.tmp.appendingPathComponent("deck.lua")
    try """
      local sets = cs.data.sample()
      return cs.scene { width = 500, height = 600, fps = 30, root = cs.cards { id = "deck", padding = 20,
        cs.card { id = "a", data = sets[1] }, cs.card { id = "b", data = sets[2] }, cs.card { id = "c", data = sets[3] } } }
      """.write(to: script, atomically: true, encoding: .utf8)
    let record = h.tmp.appendingPathComponent("rec.lua")
    try h.start(script, record: record)
    try h.drag(250, 330, by: 0, 300, hold: 800_000)
    usleep(900_000)
    let printed = try h.inspectAndQuit()
    XCTAssertTrue(printed.contains("\"order\": [\"b\", \"c\", \"a\"]"), "the card did not go back: \(printed.prefix(400))")
    let recorded = try String(contentsOf: record, encoding: .utf8)
    // Named after the card under the press (the deck's handler gets the same child on replay).
    XCTAssertTrue(recorded.contains("target = \"a\"") && recorded.contains("hold = "), recorded)
    let replay = try CLI.run([script.path, "--timeline", record.path, "--inspect", "--at", "30"])
    XCTAssertTrue(replay.stdout.contains("\"order\": [\"b\", \"c\", \"a\"]"), replay.stdout + replay.stderr)
  }

  /// A composition written in Lua (the cover flow) takes a live tap on a side chart, and the
  /// recording names that chart, so a replay brings the same one to the centre.
  func testACoverFlowLive() throws {
    let h = try Harness(display: 70 + Int(getpid()) % 9)
    try FileManager.default.createDirectory(at: h.tmp.appendingPathComponent("lib"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: EndToEndTests.repo.appendingPathComponent("examples/lib/coverflow.lua"), to: h.tmp.appendingPathComponent("lib/coverflow.lua"))
    let script = h.tmp.appendingPathComponent("flow.lua")
    try """
      local coverflow = require("lib.coverflow")
      local sets = cs.data.sample()
      local flow = { id = "flow", index = 2 }
      for i, set in ipairs(sets) do flow[i] = cs.card { id = "card" .. i, data = set } end
      return cs.scene { width = 1000, height = 520, fps = 30, root = coverflow(flow) }
      """.write(to: script, atomically: true, encoding: .utf8)
    let record = h.tmp.appendingPathComponent("rec.lua")
    try h.start(script, record: record)
    usleep(500_000)
    try h.x("mousemove", "\(h.origin.x + 760)", "\(h.origin.y + 260)")  // on card3, right of the centre one
    usleep(300_000)
    try h.x("click", "1")
    usleep(1_200_000)
    let printed = try h.inspectAndQuit()
    XCTAssertEqual(field(printed, "index")?.trimmingCharacters(in: .whitespaces), "\"index\": 3,", printed.prefix(400).description)
    let recorded = try String(contentsOf: record, encoding: .utf8)
    XCTAssertTrue(recorded.contains("target = \"card3\""), recorded)
    let replay = try CLI.run([script.path, "--timeline", record.path, "--inspect", "--at", "30"])
    XCTAssertEqual(field(replay.stdout, "index"), field(printed, "index"), replay.stderr)
  }
}
