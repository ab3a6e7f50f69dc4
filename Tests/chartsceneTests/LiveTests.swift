import Foundation
import XCTest

/// The live window under Xvfb, driven by xdotool: gestures by hand, a save that keeps the
/// state, a recording, then a headless replay that ends in the same state.
///
/// No fixed sleeps stand in for "long enough": the harness waits for the X server's socket,
/// for the window, and for states, by asking the live window (key `i`) until what it prints
/// shows them (within a deadline; the assertions after judge the last state). The only
/// sleeps left are the gestures' own timing (a hold, the steps of a drag, a hand that stops
/// before it lets go).
final class LiveTests: XCTestCase {
  /// An X server, a live chartscene in it, and xdotool to drive it.
  final class Harness {
    let xdotool: String
    let server = Process()
    let live = Process()
    let out = Pipe()
    /// What the live window printed so far (read on another thread), and whether it ended.
    let printed = Printed()
    let env: [String: String]
    let tmp: URL
    var origin = (x: 0, y: 0)

    init() throws {
      guard let xvfb = Harness.tool("Xvfb"), let xdo = Harness.tool("xdotool") else {
        throw XCTSkip("Xvfb and xdotool are needed (scripts/install-deps installs them)")
      }
      xdotool = xdo
      // Xvfb picks a free display itself and prints its number once it accepts clients
      // (-displayfd): no guessed number that another run on the machine may hold, no sleep.
      server.executableURL = URL(fileURLWithPath: xvfb)
      server.arguments = ["-displayfd", "1", "-screen", "0", "1024x768x24"]
      let number = Pipe()
      server.standardOutput = number
      server.standardError = FileHandle.nullDevice
      try server.run()
      nonisolated(unsafe) var line = ""
      let ready = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        while !line.hasSuffix("\n") {
          let d = number.fileHandleForReading.availableData
          if d.isEmpty { break }
          line += String(decoding: d, as: UTF8.self)
        }
        ready.signal()
      }
      guard ready.wait(timeout: .now() + 20) == .success, let display = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        server.terminate()
        throw Failure("Xvfb did not start within 20 s (printed '\(line)')")
      }
      env = ["DISPLAY": ":\(display)"]
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
      printed.read(out.fileHandleForReading)
      var window = ""
      let deadline = Date().addingTimeInterval(20)
      while window.isEmpty, Date() < deadline {
        usleep(50_000)
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
      try inspect()  // the pointer is there before the press
      try x("mousedown", "1")
      usleep(hold)
      for i in 1...10 {
        usleep(30_000)
        try x("mousemove", "\(origin.x + x0 + dx * i / 10)", "\(origin.y + y0 + dy * i / 10)")
      }
      usleep(100_000)
      try x("mouseup", "1")
    }

    /// Asks the live window for its state (key `i`) and returns it: the window has handled
    /// every event sent before (X events arrive in order), so this is also a barrier.
    /// "" when nothing comes within 10 s.
    @discardableResult
    func inspect() throws -> String {
      let before = printed.documents.count
      try x("key", "i")
      let deadline = Date().addingTimeInterval(10)
      while printed.documents.count == before, !printed.ended, Date() < deadline { usleep(10_000) }
      return printed.documents.count > before ? printed.documents.last! : ""
    }

    /// Asks for the state until `done` holds (at most `seconds`); returns the last state.
    @discardableResult
    func wait(seconds: Double = 10, until done: (String) -> Bool) throws -> String {
      let deadline = Date().addingTimeInterval(seconds)
      var state = try inspect()
      while !done(state), Date() < deadline, !printed.ended {
        usleep(50_000)
        state = try inspect()
      }
      return state
    }

    func tap(_ x0: Int, _ y0: Int) throws {
      try x("mousemove", "\(origin.x + x0)", "\(origin.y + y0)")
      try x("click", "1")
    }

    /// Presses i (inspect) and q (quit); returns the state chartscene printed last.
    func inspectAndQuit() throws -> String {
      let before = printed.documents.count
      try x("key", "i")
      try x("key", "q")
      live.waitUntilExit()
      printed.waitForEnd()
      return printed.documents.count > before ? printed.documents.last! : printed.text
    }
  }

  struct Failure: Error, CustomStringConvertible { var description: String; init(_ d: String) { description = d } }

  /// Standard output of the live window, read as it comes: the JSON documents key `i`
  /// prints (each ends with a `}` alone on its line).
  final class Printed: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = ""
    private var done = false
    private let finished = DispatchSemaphore(value: 0)

    func read(_ handle: FileHandle) {
      Thread.detachNewThread { [self] in
        while true {
          let data = handle.availableData
          lock.lock()
          if data.isEmpty { done = true } else { buffer += String(decoding: data, as: UTF8.self) }
          lock.unlock()
          if data.isEmpty { finished.signal(); return }
        }
      }
    }
    var text: String { lock.lock(); defer { lock.unlock() }; return buffer }
    var ended: Bool { lock.lock(); defer { lock.unlock() }; return done }
    /// The complete documents printed so far.
    var documents: [String] {
      let t = text
      return t.components(separatedBy: "\n}\n").dropLast().map { $0 + "\n}\n" }
    }
    func waitForEnd() { if !ended { _ = finished.wait(timeout: .now() + 10) } }
  }

  func field(_ json: String, _ key: String) -> String? { json.split(separator: "\n").first { $0.contains("\"\(key)\":") }.map(String.init) }

  func testDriveRecordAndReplay() throws {
    let h = try Harness()
    let script = h.tmp.appendingPathComponent("live.lua")
    let source = { (title: String) in
      "local s = cs.data.sample()[1]\ns:setRange(0.5, 0.75)\nreturn cs.scene { width = 600, height = 500, fps = 30, root = cs.chart { id = \"c\", data = s, title = \"\(title)\" } }"
    }
    try source("Live").write(to: script, atomically: true, encoding: .utf8)
    let record = h.tmp.appendingPathComponent("rec.lua")
    try h.start(script, record: record)
    let range = field(try h.inspect(), "range")
    // Drag the mini-map window (centre 371, 413) 100 px right, then tap the chip of y1.
    try h.drag(371, 413, by: 100, 0)
    var last: String?  // moved, and the same in two states in a row (settled)
    try h.wait { state in
      defer { last = self.field(state, "range") }
      return self.field(state, "range") != range && self.field(state, "range") == last
    }
    try h.tap(120, 472)
    try h.wait { $0.contains("\"hidden\": [\"y1\"]") }
    // Save the script: it reloads and keeps what the user did.
    try source("Reloaded").write(to: script, atomically: true, encoding: .utf8)
    try h.wait { $0.contains("\"title\": \"Reloaded\"") }
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
    let h = try Harness()
    let script = h.tmp.appendingPathComponent("deck.lua")
    try """
      local sets = cs.data.sample()
      return cs.scene { width = 500, height = 600, fps = 30, root = cs.cards { id = "deck", padding = 20,
        cs.card { id = "a", data = sets[1] }, cs.card { id = "b", data = sets[2] }, cs.card { id = "c", data = sets[3] } } }
      """.write(to: script, atomically: true, encoding: .utf8)
    let record = h.tmp.appendingPathComponent("rec.lua")
    try h.start(script, record: record)
    try h.drag(250, 330, by: 0, 300, hold: 800_000)
    try h.wait { $0.contains("\"order\": [\"b\", \"c\", \"a\"]") }
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
    let h = try Harness()
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
    try h.inspect()  // the window handles events
    try h.x("mousemove", "\(h.origin.x + 760)", "\(h.origin.y + 260)")  // on card3, right of the centre one
    try h.inspect()  // the pointer is there before the click
    try h.x("click", "1")
    try h.wait { self.field($0, "index")?.trimmingCharacters(in: .whitespaces) == "\"index\": 3," }
    let printed = try h.inspectAndQuit()
    XCTAssertEqual(field(printed, "index")?.trimmingCharacters(in: .whitespaces), "\"index\": 3,", printed.prefix(400).description)
    let recorded = try String(contentsOf: record, encoding: .utf8)
    XCTAssertTrue(recorded.contains("target = \"card3\""), recorded)
    let replay = try CLI.run([script.path, "--timeline", record.path, "--inspect", "--at", "30"])
    XCTAssertEqual(field(replay.stdout, "index"), field(printed, "index"), replay.stderr)
  }

  /// The paging feed of Tests/Fixtures/feed.lua, its pages titled `title`: the throw of
  /// `--live` here and of the studio (StudioTests).
  static func feed(_ title: String) -> String {
    let text = (try? String(contentsOf: EndToEndTests.repo.appendingPathComponent("Tests/Fixtures/feed.lua"), encoding: .utf8)) ?? ""
    return text.replacingOccurrences(of: "text = \"Page \" .. i", with: "text = \"\(title) \" .. i")
  }

  /// A throw by hand: xdotool presses, moves 12 px every 16 ms and lets go right after its
  /// last move, in one process (no process start between the moves). `ended` reports a throw
  /// (before, a release right after the last move could read as a hand at rest); a save (a
  /// reload, which replays the gestures) keeps the page it turned to and the speed, and so
  /// does the recording replayed headless. The speed itself is not pinned here: xdotool's
  /// sleeps on a loaded machine make an uneven hand (its moves came 16–77 ms apart, the X
  /// server's times said), and the window rightly reports that hand's speed; the 15 % check
  /// on a known hand is LiveInputTests', with SDL's delivery mimicked exactly.
  func testAThrowReportsTheHandsSpeedAndAReloadKeepsThePage() throws {
    let h = try Harness()
    let script = h.tmp.appendingPathComponent("feed.lua")
    let source = LiveTests.feed
    try source("Page").write(to: script, atomically: true, encoding: .utf8)
    let record = h.tmp.appendingPathComponent("rec.lua")
    try h.start(script, record: record)
    try h.x("mousemove", "\(h.origin.x + 180)", "\(h.origin.y + 300)")
    try h.inspect()  // the pointer is there before the press
    var chain = ["mousedown", "1"]
    for k in 1...10 { chain += ["sleep", "0.016", "mousemove", "\(h.origin.x + 180)", "\(h.origin.y + 300 - 12 * k)"] }
    chain += ["mouseup", "1"]
    try h.sh(chain)
    let field = { (state: String, key: String) in self.field(state, key)?.split(separator: ":").last.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " ,")) } }
    let thrown = try h.wait { field($0, "vy") != "0" }
    let vy = try XCTUnwrap(field(thrown, "vy").flatMap(Double.init), thrown)
    XCTAssertLessThan(vy, -300, "thrown up while moving at about 600-750 px/s")
    let page = try XCTUnwrap(field(thrown, "page"))
    XCTAssertNotEqual(page, "0", "a throw of 120 px at that speed turns a page (vy \(vy))")
    try source("Reloaded").write(to: script, atomically: true, encoding: .utf8)
    try h.wait { $0.contains("Reloaded 1") }
    let printed = try h.inspectAndQuit()
    XCTAssertTrue(printed.contains("Reloaded 1"), "no reload: \(printed.prefix(300))")
    XCTAssertEqual(field(printed, "page"), page, "the reload turned the page (vy \(vy))")
    XCTAssertEqual(try XCTUnwrap(field(printed, "vy").flatMap(Double.init)), vy, accuracy: 0.001)
    let recorded = try String(contentsOf: record, encoding: .utf8)
    XCTAssertTrue(recorded.contains("velocity = {"), recorded)
    let replay = try CLI.run([script.path, "--timeline", record.path, "--inspect", "--at", "30"])
    XCTAssertEqual(field(replay.stdout, "page"), page, replay.stderr + recorded)
  }
}
