import Foundation
import XCTest

/// `chartscene serve` driven by a real browser: headless Chromium through chromedriver's
/// WebDriver HTTP interface (requests made with curl). The page keeps what it shows in
/// `window.studio` (the last frame's header and PNG, the state, the inspect and lint
/// panels), which the tests read back with WebDriver's script execution.
///
/// No sleeps stand in for "long enough": every wait polls the page (or the server's output)
/// for a state, within a deadline; the assertions after it judge the last state.
final class StudioTests: XCTestCase {
  struct Failure: Error, CustomStringConvertible { var description: String; init(_ d: String) { description = d } }

  /// Runs curl: (HTTP status, body).
  static func curl(_ args: [String]) throws -> (status: Int, body: Data) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    p.arguments = ["-s", "-m", "30", "-w", "\n%{http_code}"] + args
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard let nl = data.lastIndex(of: 10) else { return (0, data) }
    return (Int(String(decoding: data[(nl + 1)...], as: UTF8.self)) ?? 0, data[..<nl])
  }

  /// A free TCP port on 127.0.0.1 (bound and released).
  static func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_addr.s_addr = inet_addr("127.0.0.1")
    a.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
    _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
    return Int(UInt16(bigEndian: a.sin_port))
  }

  /// Headless Chromium behind chromedriver, one WebDriver session.
  final class Browser {
    let driver = Process()
    let base: String
    var session = ""

    init() throws {
      let tools = ["chromium", "chromedriver"].map { name in ["/usr/bin", "/usr/local/bin"].map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) } }
      guard let chromium = tools[0], let chromedriver = tools[1] else {
        throw XCTSkip("chromium and chromium-driver are needed (scripts/install-deps installs them)")
      }
      let port = StudioTests.freePort()
      base = "http://127.0.0.1:\(port)"
      driver.executableURL = URL(fileURLWithPath: chromedriver)
      driver.arguments = ["--port=\(port)"]
      driver.standardOutput = FileHandle.nullDevice
      driver.standardError = FileHandle.nullDevice
      try driver.run()
      let deadline = Date().addingTimeInterval(20)
      while (try? StudioTests.curl([base + "/status"]).status) != 200 {
        guard Date() < deadline else { throw Failure("chromedriver did not answer within 20 s") }
        usleep(50_000)
      }
      let caps: [String: Any] = ["capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": [
        "binary": chromium,
        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000", "--force-device-scale-factor=1"],
      ]]]]
      let v = try call("POST", "/session", caps)
      guard let id = (v as? [String: Any])?["sessionId"] as? String else { throw Failure("no WebDriver session: \(String(describing: v))") }
      session = id
    }

    deinit {
      if !session.isEmpty { _ = try? call("DELETE", "/session/\(session)", nil) }
      driver.terminate()
      driver.waitUntilExit()
    }

    /// One WebDriver command: its `value`.
    @discardableResult
    func call(_ method: String, _ path: String, _ body: Any?) throws -> Any? {
      var args = ["-X", method, base + path]
      if let body {
        args += ["-H", "Content-Type: application/json", "--data-binary", String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)]
      }
      let (_, data) = try StudioTests.curl(args)
      let json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      let value = (json as? [String: Any])?["value"]
      if let v = value as? [String: Any], let error = v["error"] as? String { throw Failure("WebDriver \(path): \(error): \(v["message"] ?? "")") }
      return value
    }

    func go(_ url: String) throws { try call("POST", "/session/\(session)/url", ["url": url]) }

    /// Runs `script` (a function body) in the page; its return value.
    @discardableResult
    func js(_ script: String) throws -> Any? { try call("POST", "/session/\(session)/execute/sync", ["script": script, "args": []]) }

    /// Polls `expression` until it is true (at most `seconds`); whether it became true.
    @discardableResult
    func wait(_ expression: String, seconds: Double = 10) throws -> Bool {
      let deadline = Date().addingTimeInterval(seconds)
      while true {
        if (try js("try { return !!(\(expression)); } catch (e) { return false; }")) as? Bool == true { return true }
        if Date() > deadline { return false }
        usleep(30_000)
      }
    }

    /// Pointer actions in page pixels: press at `from`, move through `path`, release.
    func gesture(from: (Double, Double), path: [(Double, Double)], hold: Int = 0) throws {
      var steps: [[String: Any]] = [["type": "pointerMove", "x": Int(from.0), "y": Int(from.1), "duration": 0, "origin": "viewport"], ["type": "pointerDown", "button": 0]]
      if hold > 0 { steps.append(["type": "pause", "duration": hold]) }
      for p in path { steps.append(["type": "pointerMove", "x": Int(p.0), "y": Int(p.1), "duration": 30, "origin": "viewport"]) }
      steps.append(["type": "pointerUp", "button": 0])
      try call("POST", "/session/\(session)/actions", ["actions": [["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": steps]]])
      try call("DELETE", "/session/\(session)/actions", nil)
    }

    func screenshot() throws -> Data {
      guard let b64 = try call("GET", "/session/\(session)/screenshot", nil) as? String, let d = Data(base64Encoded: b64) else { throw Failure("no screenshot") }
      return d
    }
  }

  /// `chartscene serve SCRIPT --port 0 --out OUT` in a temporary folder.
  final class Server {
    let process = Process()
    let tmp: URL
    let script: URL
    let out: URL
    let printed = LiveTests.Printed()
    let errors = LiveTests.Printed()
    var url = ""
    var port = 0

    init(source: String, name: String = "studio.lua", extra: [String] = []) throws {
      tmp = FileManager.default.temporaryDirectory.appendingPathComponent("chartscene-studio-" + UUID().uuidString)
      out = tmp.appendingPathComponent("out")
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
      script = tmp.appendingPathComponent(name)
      try source.write(to: script, atomically: true, encoding: .utf8)
      process.executableURL = CLI.binary
      process.arguments = ["serve", script.path, "--port", "0", "--out", out.path] + extra
      let o = Pipe(), e = Pipe()
      process.standardOutput = o
      process.standardError = e
      try process.run()
      printed.read(o.fileHandleForReading)
      errors.read(e.fileHandleForReading)
      let deadline = Date().addingTimeInterval(30)
      while Date() < deadline, process.isRunning {
        if printed.text.contains("\n"), let line = printed.text.split(separator: "\n").first {
          url = String(line)
          XCTAssertTrue(url.hasPrefix("http://127.0.0.1:") && url.contains("/?token="), url)
          port = Int(url.split(separator: ":")[2].split(separator: "/")[0]) ?? 0
          return
        }
        usleep(20_000)
      }
      throw Failure("serve printed no URL: \(printed.text) \(errors.text)")
    }

    var root: String { "http://127.0.0.1:\(port)" }
    var token: String { String(url.split(separator: "=").last ?? "") }

    func write(_ source: String) throws { try source.write(to: script, atomically: true, encoding: .utf8) }

    deinit {
      if process.isRunning { process.terminate() }
      process.waitUntilExit()
      try? FileManager.default.removeItem(at: tmp)
    }
  }

  static func chart(title: String) -> String {
    """
    local s = cs.data.sample()[1]
    s:setRange(0.5, 0.75)
    return cs.scene {
      width = 600, height = 500, fps = 30, duration = 4,
      root = cs.chart { id = "c", data = s, title = "\(title)" },
      timeline = { cs.tap { at = 1.5, pos = { 300, 200 } } },
    }
    """
  }

  /// The page's last frame as PNG bytes.
  func framePNG(_ b: Browser) throws -> Data {
    let b64 = try b.js("let s = ''; const p = window.studio.png; for (let i = 0; i < p.length; i++) s += String.fromCharCode(p[i]); return btoa(s);") as? String ?? ""
    return Data(base64Encoded: b64) ?? Data()
  }

  /// A PNG's pixels as RGBA, decoded by ffmpeg.
  func pixels(_ png: URL) throws -> Data {
    let r = try CLI.run(["-v", "error", "-i", png.path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"], executable: URL(fileURLWithPath: "/usr/bin/ffmpeg"))
    return Data(r.stdout.utf8)
  }

  /// The page's `--inspect` JSON of the frame shown now (asked afresh).
  func inspect(_ b: Browser) throws -> String {
    try b.js("window.studio.inspect = null; window.studio.send({ type: 'inspect' });")
    XCTAssertTrue(try b.wait("window.studio.inspect"), "no inspect answer")
    return try b.js("return window.studio.inspect.json;") as? String ?? ""
  }

  func field(_ json: String, _ key: String) -> String? { json.split(separator: "\n").first { $0.contains("\"\(key)\":") }.map { $0.trimmingCharacters(in: .whitespaces) } }

  /// Where a scene point is in the browser's viewport.
  func viewport(_ b: Browser, _ x: Double, _ y: Double) throws -> (Double, Double) {
    let r = try b.js("const r = document.getElementById('frame').getBoundingClientRect(); return [r.left, r.top, r.width / window.studio.meta.width];") as? [Double] ?? [0, 0, 1]
    return (r[0] + x * r[2], r[1] + y * r[2])
  }

  func testTheStudioInABrowser() throws {
    let b = try Browser()
    let s = try Server(source: StudioTests.chart(title: "Studio"))
    // The page loads with its token, a frame appears.
    try b.go(s.url)
    XCTAssertTrue(try b.wait("window.studio && window.studio.frames >= 1 && window.studio.state.frames"), "no frame")
    XCTAssertEqual(try b.js("return window.studio.state.frames;") as? Int, 120)

    // Scrubbing to 2.0 s shows the pixels `-o --at 2` writes.
    try b.js("const r = document.getElementById('scrub'); r.value = 60; r.dispatchEvent(new Event('input')); r.dispatchEvent(new Event('change'));")
    XCTAssertTrue(try b.wait("window.studio.meta.t === 2 && window.studio.state.frame === 60"), "the seek did not arrive")
    let shown = try framePNG(b)
    let at2 = s.tmp.appendingPathComponent("at2.png")
    let r = try CLI.run([s.script.path, "--at", "2", "-o", at2.path])
    XCTAssertEqual(r.status, 0, r.stderr)
    let page = s.tmp.appendingPathComponent("page.png")
    try shown.write(to: page)
    let expected = try pixels(at2), got = try pixels(page)
    XCTAssertGreaterThan(expected.count, 600 * 500 * 3)
    XCTAssertTrue(expected == got, "the frame at 2.0 s differs from -o --at 2")
    XCTAssertEqual(field(try inspect(b), "indicator"), "\"indicator\": {", "the script's own tap at 1.5 s shows at 2 s")

    // Back to 0: no crosshair; a tap on the plot shows it (read back through --inspect).
    try b.js("window.studio.send({ type: 'seek', t: 0 });")
    XCTAssertTrue(try b.wait("window.studio.state.frame === 0"))
    XCTAssertEqual(field(try inspect(b), "indicator"), "\"indicator\": null,")
    let plot = try viewport(b, 300, 220)
    try b.gesture(from: plot, path: [])
    XCTAssertTrue(try b.wait("window.studio.state.frame >= 2"), "the tap did not reach the scene")
    try b.js("window.studio.send({ type: 'step', by: 3 });")
    var state = try inspect(b)
    XCTAssertEqual(field(state, "indicator"), "\"indicator\": {", "no crosshair after a tap on the plot: \(state.prefix(600))")

    // A drag on the mini-map moves the window.
    let range = field(state, "range")
    let from = try viewport(b, 371, 413)
    try b.gesture(from: from, path: (1...8).map { (from.0 + Double($0) * 10, from.1) })
    try b.js("window.studio.send({ type: 'step', by: 10 });")
    state = try inspect(b)
    XCTAssertNotEqual(field(state, "range"), range, "the mini-map drag did not move the window")
    let moved = field(state, "range"), before = state

    // A save shows the new frame within 2 s, with the state kept.
    try b.js("document.getElementById('inspectpanel').open = true; window.studio.inspect = null;")
    let saved = Date()
    try s.write(StudioTests.chart(title: "Edited"))
    XCTAssertTrue(try b.wait("window.studio.inspect && window.studio.inspect.json.includes('\"Edited\"')", seconds: 5), "the save did not show")
    let latency = Date().timeIntervalSince(saved)
    XCTAssertLessThan(latency, 2.0, "the new frame took \(latency) s")
    state = try inspect(b)
    XCTAssertEqual(field(state, "range"), moved, "the reload lost the window")
    XCTAssertEqual(field(state, "title"), "\"title\": \"Edited\",")
    XCTAssertEqual(field(state, "time"), field(before, "time"), "the reload lost the playhead")
    XCTAssertEqual(state.replacingOccurrences(of: "\"Edited\"", with: "\"Studio\""), before, "the reload did not keep the state")

    // A syntax error shows its FILE:LINE over the old frame; the next good save clears it.
    let frames = try b.js("return window.studio.frames;") as? Int ?? 0
    try s.write("local s = cs.data.sample()[1]\nreturn cs.scene {\n  width = 600,, height = 500,\n}\n")
    XCTAssertTrue(try b.wait("getComputedStyle(document.getElementById('error')).display === 'block'", seconds: 5), "no error shown")
    let shownError = try b.js("return document.getElementById('error').textContent;") as? String ?? ""
    XCTAssertTrue(shownError.hasPrefix("error: \(s.script.path):3:"), shownError)
    XCTAssertEqual(try b.js("return window.studio.frames;") as? Int, frames, "the old frame was replaced")
    XCTAssertTrue(try b.js("return document.getElementById('frame').naturalWidth;") as? Int ?? 0 > 0, "no frame under the error")
    XCTAssertTrue(s.errors.text.contains("error: \(s.script.path):3:"), "the terminal did not print it: \(s.errors.text)")
    try s.write(StudioTests.chart(title: "Edited"))
    XCTAssertTrue(try b.wait("getComputedStyle(document.getElementById('error')).display === 'none'", seconds: 5), "the error stayed")

    // Record, copy the command, render it headless: the same --inspect at the end.
    try b.js("document.getElementById('record').click();")
    XCTAssertTrue(try b.wait("window.studio.state.recording && window.studio.state.frame === 0"))
    let chip = try viewport(b, 371, 413)
    try b.gesture(from: chip, path: (1...8).map { (chip.0 - Double($0) * 12, chip.1) })
    try b.gesture(from: try viewport(b, 250, 200), path: [])
    XCTAssertTrue(try b.wait("window.studio.state.gestures === 2"), "the gestures were not recorded")
    try b.js("document.getElementById('record').click();")
    XCTAssertTrue(try b.wait("window.studio.state.recorded"), "the recording was not saved")
    try b.js("window.studio.send({ type: 'step', by: 20 });")
    XCTAssertTrue(try b.wait("!window.studio.state.playing && window.studio.state.frame >= 30"))
    try b.js("document.getElementById('copy').click();")
    XCTAssertTrue(try b.wait("window.studio.copied"))
    let command = try b.js("return window.studio.copied;") as? String ?? ""
    var words = command.split(separator: " ").map(String.init)
    XCTAssertEqual(Array(words.prefix(3)), ["chartscene", s.script.path, "--timeline"], command)
    XCTAssertTrue(FileManager.default.fileExists(atPath: words[3]), "no recording at \(words[3])")
    // The time as the clock has it (frame / fps), not as JSON carried it.
    let t = Double(try b.js("return window.studio.state.frame;") as? Int ?? -1) / 30
    let pageState = try inspect(b)
    guard let o = words.firstIndex(of: "-o") else { return XCTFail("no -o in \(command)") }
    words[o + 1] = s.tmp.appendingPathComponent("replay.mp4").path
    let video = try CLI.run(Array(words.dropFirst()))
    XCTAssertEqual(video.status, 0, video.stderr)
    words.removeSubrange(o...(o + 1))
    let replay = try CLI.run(Array(words.dropFirst()) + ["--inspect", "--at", String(t)])
    XCTAssertEqual(replay.status, 0, replay.stderr)
    XCTAssertEqual(field(replay.stdout, "range"), field(pageState, "range"))
    XCTAssertEqual(field(replay.stdout, "indicator"), field(pageState, "indicator"))
    if replay.stdout != pageState {
      let a = replay.stdout.split(separator: "\n"), p = pageState.split(separator: "\n")
      let k = (0..<min(a.count, p.count)).first { a[$0] != p[$0] } ?? min(a.count, p.count)
      XCTFail("the replay's --inspect differs from the page's at line \(k + 1): '\(k < a.count ? a[k] : "")' (replay) against '\(k < p.count ? p[k] : "")' (page); \(command)")
    }

    // A render from the page: a valid MP4 (ffprobe), downloadable; a second at once is refused.
    try b.js("window.studio.messages = []; document.getElementById('format').value = 'mp4'; document.getElementById('render').click(); document.getElementById('render').click();")
    XCTAssertTrue(try b.wait("window.studio.messages.some(m => m.includes('already running'))"), "no message for a second render")
    XCTAssertTrue(s.errors.text.contains("error: a render is already running ("), "the terminal did not print it: \(s.errors.text)")
    // The page goes away mid-render and comes back: the render finishes, the server lives.
    try b.go("about:blank")
    try b.go(s.url)
    XCTAssertTrue(try b.wait("window.studio.state.render && window.studio.state.render.finished", seconds: 60), "the render did not finish")
    let name = try b.js("return window.studio.state.render.finished;") as? String ?? ""
    let mp4 = s.out.appendingPathComponent(name)
    XCTAssertTrue(s.errors.text.contains("wrote \(s.out.path)/"), "the render's line: \(s.errors.text)")
    let probe = try CLI.run(["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", mp4.path], executable: URL(fileURLWithPath: "/usr/bin/ffprobe"))
    XCTAssertEqual(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "h264,600,500", probe.stderr)
    let download = try StudioTests.curl(["-o", "/dev/null", s.root + "/out/" + name + "?token=" + s.token])
    XCTAssertEqual(download.status, 200)
    XCTAssertEqual(try StudioTests.curl(["-o", "/dev/null", s.root + "/out/" + name]).status, 403)
    XCTAssertEqual(try StudioTests.curl(["-o", "/dev/null", s.root + "/out/..%2Fstudio.lua?token=" + s.token]).status, 404)
    XCTAssertTrue(s.process.isRunning)
  }

  /// Bad input: one clear line in the page and the terminal, and the server lives on.
  func testBadInputGetsOneLine() throws {
    let b = try Browser()
    // A script that fails at start: the server starts, the page and the terminal show it.
    let s = try Server(source: "return cs.scene {\n  width = 600, height = 500,\n  root = cs.chart { data = nil },\n}\n", name: "broken.lua")
    try b.go(s.url)
    XCTAssertTrue(try b.wait("getComputedStyle(document.getElementById('error')).display === 'block'"), "no error in the page")
    let shown = try b.js("return document.getElementById('error').textContent;") as? String ?? ""
    XCTAssertTrue(shown.hasPrefix("error: \(s.script.path):3:"), shown)
    XCTAssertTrue(s.errors.text.contains("error: \(s.script.path):3:"), s.errors.text)
    // Fixed: the next save shows the scene.
    try s.write(StudioTests.chart(title: "Fixed"))
    XCTAssertTrue(try b.wait("window.studio.frames >= 1 && !window.studio.state.error"), "the fix did not show")

    // No token, a wrong one, another Host, another Origin: 403 and one line.
    XCTAssertEqual(try StudioTests.curl(["-o", "/dev/null", s.root + "/"]).status, 403)
    let noToken = try StudioTests.curl([s.root + "/?token=" + String(repeating: "0", count: 32)])
    XCTAssertEqual(noToken.status, 403)
    XCTAssertEqual(String(decoding: noToken.body, as: UTF8.self).filter { $0 == "\n" }.count, 1)
    XCTAssertTrue(String(decoding: noToken.body, as: UTF8.self).hasPrefix("error: GET /: no token or a wrong one"))
    XCTAssertTrue(s.errors.text.contains("refused: GET /: no token or a wrong one"), s.errors.text)
    XCTAssertEqual(try StudioTests.curl(["-o", "/dev/null", s.url]).status, 200)
    XCTAssertEqual(try StudioTests.curl(["-o", "/dev/null", "-H", "Host: rebound.example:\(s.port)", s.url]).status, 403)
    let upgrade = ["-H", "Connection: Upgrade", "-H", "Upgrade: websocket", "-H", "Sec-WebSocket-Version: 13", "-H", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="]
    // A refused WebSocket upgrade: 403 and the refusal's line, also printed by the server.
    let evil = try StudioTests.curl(upgrade + ["-H", "Origin: http://evil.example", s.root + "/ws?token=" + s.token])
    XCTAssertEqual(evil.status, 403)
    XCTAssertEqual(String(decoding: evil.body, as: UTF8.self), "error: GET /ws: Origin 'http://evil.example' is another site (only the studio's own page may use it)\n")
    let bare = try StudioTests.curl(upgrade + [s.root + "/ws"])
    XCTAssertEqual(bare.status, 403)
    XCTAssertTrue(String(decoding: bare.body, as: UTF8.self).hasPrefix("error: GET /ws: no token or a wrong one"))
    XCTAssertEqual(try StudioTests.curl(["-o", "/dev/null"] + upgrade + [s.root + "/ws?token=" + String(repeating: "0", count: 32)]).status, 403)
    XCTAssertEqual(try StudioTests.curl(["-o", "/dev/null"] + upgrade + ["-H", "Host: rebound.example:\(s.port)", s.root + "/ws?token=" + s.token]).status, 403)
    XCTAssertTrue(s.errors.text.contains("refused: GET /ws: no token or a wrong one"), s.errors.text)
    XCTAssertTrue(s.errors.text.contains("refused: GET /ws: Origin 'http://evil.example' is another site"), s.errors.text)
    XCTAssertTrue(s.errors.text.contains("refused: GET /ws: Host 'rebound.example:\(s.port)' is not this server"), s.errors.text)
    // The page's own WebSocket, with its token, is let through (the page below connects).
    // In a browser: a page's WebSocket without the token is refused (the socket closes).
    try b.go(s.url)
    XCTAssertTrue(try b.wait("window.studio.connected"))
    try b.js("window.refused = null; const w = new WebSocket('ws://' + location.host + '/ws?token=wrong'); w.onopen = () => { window.refused = 'opened'; }; w.onerror = () => { window.refused = 'refused'; };")
    XCTAssertTrue(try b.wait("window.refused"))
    XCTAssertEqual(try b.js("return window.refused;") as? String, "refused")
    // In the browser, without the token: the refusal's line.
    try b.go(s.root + "/")
    XCTAssertTrue(try b.wait("document.body && document.body.innerText.includes('no token or a wrong one')"))

    // A malformed WebSocket message: one line back, the session goes on.
    try b.go(s.url)
    XCTAssertTrue(try b.wait("window.studio.connected && window.studio.frames >= 1"))
    try b.js("window.studio.messages = []; window.studio.ws.send('{not json'); window.studio.ws.send(JSON.stringify({ type: 'seek', t: 'soon' })); window.studio.ws.send(JSON.stringify({ type: 'teleport' }));")
    XCTAssertTrue(try b.wait("window.studio.messages.length >= 3"), "no message for malformed input")
    let messages = try b.js("return window.studio.messages;") as? [String] ?? []
    XCTAssertTrue(messages[0].hasPrefix("bad message from the page: invalid JSON"), messages[0])
    XCTAssertEqual(messages[1], "bad message from the page: seek: \"t\" must be a number")
    XCTAssertEqual(messages[2], "bad message from the page: unknown message type 'teleport'")
    XCTAssertTrue(s.errors.text.contains("error: bad message from the page: unknown message type 'teleport'\n"), "the terminal did not print it: \(s.errors.text)")
    try b.js("window.studio.send({ type: 'step', by: 5 });")
    XCTAssertTrue(try b.wait("window.studio.state.frame === 5"), "the session stopped after a bad message")

    // A size too large to draw at the page's pixel ratio: one line, and the next size works.
    try b.js("window.studio.ws.send(JSON.stringify({ type: 'hello', dpr: 4 })); window.studio.send({ type: 'size', width: 16384, height: 16384 });")
    XCTAssertTrue(try b.wait("window.studio.state.error === 'error: the image would be 65536x65536 pixels; the largest is 32768 on a side and 268 million pixels'"), "no error for a huge size")
    try b.js("window.studio.send({ type: 'size', width: 300, height: 200 });")
    XCTAssertTrue(try b.wait("!window.studio.state.error && window.studio.meta.width === 300 && window.studio.meta.scale === 4"), "the next size did not show")

    // A hostile script ends in one line in the page, within its --max-time.
    let hostile = try Server(source: "while true do end\n", name: "hostile.lua", extra: ["--max-time", "0.5"])
    try b.go(hostile.url)
    XCTAssertTrue(try b.wait("window.studio.state.error", seconds: 15), "no error for a script that never ends")
    XCTAssertEqual(try b.js("return document.getElementById('error').textContent;") as? String, "error: \(hostile.script.path):1: script ran for too long (over 0.5 s; --max-time)")
    XCTAssertTrue(hostile.process.isRunning)

    // The port in use: one error line, exit 1.
    let second = try CLI.run(["serve", s.script.path, "--port", String(s.port)])
    XCTAssertEqual(second.status, 1)
    XCTAssertEqual(second.stderr, "error: cannot listen on 127.0.0.1:\(s.port): the port is in use (another program listens there; --port 0 picks a free one)\n")
    // Bad options: one usage line.
    let badPort = try CLI.run(["serve", s.script.path, "--port", "70000"])
    XCTAssertEqual(badPort.status, 64)
    XCTAssertTrue(badPort.stderr.hasPrefix("error: bad --port 70000"), badPort.stderr)
    XCTAssertTrue(s.process.isRunning)
  }

  /// Lint findings as boxes over the frame: a scene whose texts overlap at a known place
  /// shows a box there, with the finding's message in the panel; the box follows the frame
  /// as shown (another size, scaled into the panel, another device pixel ratio).
  func testLintFindingsAreBoxesOverTheFrame() throws {
    let b = try Browser()
    let s = try Server(source: """
      return cs.scene { width = 400, height = 300, root = cs.canvas { id = "c", draw = function(g, w, h, t)
        g:text("Overlapping caption", 100, 100)
        g:text("Second caption here", 112, 104)
      end } }
      """)
    try b.go(s.url)
    XCTAssertTrue(try b.wait("window.studio.frames >= 1 && window.studio.meta.width === 400"))
    try b.js("window.studio.lint = null; document.getElementById('lint').click();")
    XCTAssertTrue(try b.wait("window.studio.lint && window.studio.lintBoxes && window.studio.lintBoxes.length === 1"), "no box for the finding")
    let message = try b.js("return window.studio.lintBoxes[0].message;") as? String
    XCTAssertEqual(message, "texts 'Overlapping caption' and 'Second caption here' overlap")
    XCTAssertEqual(try b.js("return document.getElementById('lintlist').textContent;") as? String, "1" + (message ?? ""))
    // Where the box is: around both texts, from where the first begins (x 100, y 100 and its
    // line) to past where the second begins.
    func box() throws -> [Double] {
      try b.js("""
        const f = document.getElementById('frame').getBoundingClientRect(), d = document.querySelector('#lintboxes .lintbox').getBoundingClientRect();
        return [(d.left + 2 - f.left) / f.width * window.studio.meta.width, (d.top + 2 - f.top) / f.height * window.studio.meta.height,
                (d.width - 4) / f.width * window.studio.meta.width, (d.height - 4) / f.height * window.studio.meta.height, f.width];
        """) as? [Double] ?? []
    }
    var r = try XCTUnwrap(try b.js("return window.studio.lint.findings[0].rect;") as? [Double])
    XCTAssertEqual(r[0], 100, accuracy: 1, "\(r)")
    XCTAssertTrue((100...110).contains(r[1]), "\(r)")
    XCTAssertGreaterThan(r[0] + r[2], 112 + 60, "\(r)")
    XCTAssertTrue((104...130).contains(r[1] + r[3]), "\(r)")
    var shown = try box()
    for k in 0..<4 { XCTAssertEqual(shown[k], r[k], accuracy: 0.6, "the box is not where the finding is: \(shown) against \(r)") }
    XCTAssertEqual(shown[4], 400, accuracy: 0.5, "shown at its size")
    // At 1920x1080 at twice the pixels, shown scaled into the panel: the box scales with it.
    try b.js("window.studio.ws.send(JSON.stringify({ type: 'hello', dpr: 2 })); const p = document.getElementById('sizepreset'); p.value = '1920x1080'; p.dispatchEvent(new Event('change'));")
    XCTAssertTrue(try b.wait("window.studio.meta.width === 1920 && window.studio.meta.scale === 2"), "no 1080p frame")
    XCTAssertEqual(try b.js("return document.querySelectorAll('#lintboxes .lintbox').length;") as? Int, 0, "a box of another frame stayed")
    try b.js("window.studio.lint = null; document.getElementById('lint').click();")
    XCTAssertTrue(try b.wait("window.studio.lint && window.studio.lint.width === 1920 && window.studio.lintBoxes.length === 1"), "no box at 1080p")
    r = try XCTUnwrap(try b.js("return window.studio.lint.findings[0].rect;") as? [Double])
    XCTAssertEqual(r[0], 100, accuracy: 1, "\(r)")
    shown = try box()
    XCTAssertLessThan(shown[4], 1200, "the frame is shown smaller than its size")
    for k in 0..<4 { XCTAssertEqual(shown[k], r[k], accuracy: 1.5, "the box is not where the finding is: \(shown) against \(r)") }
    // A finding in another frame's time: the box goes when the frame changes.
    try b.js("window.studio.send({ type: 'step', by: 1 });")
    XCTAssertTrue(try b.wait("document.querySelectorAll('#lintboxes .lintbox').length === 0"), "the box stayed over another frame")
  }

  /// The cs.args panel: the keys the script reads are fields, given (--arg) or not (its own
  /// fallback); filling one in runs the script again with it, the state kept.
  func testArgsFieldsAreTheScriptsOwnKeys() throws {
    let b = try Browser()
    let s = try Server(source: """
      local title = cs.args.title or "Default"
      local s = cs.data.sample()[1]
      return cs.scene { width = 600, height = 500, fps = 30, duration = 4,
        root = cs.chart { id = "c", data = s, title = title .. " in " .. (cs.args.city or "nowhere") } }
      """, extra: ["--arg", "city=Oslo"])
    try b.go(s.url)
    XCTAssertTrue(try b.wait("window.studio.frames >= 1 && document.querySelectorAll('#args .arg').length === 2"), "no fields for the script's keys")
    let fields = { () throws -> [[String]] in
      try b.js("return [...document.querySelectorAll('#args .arg')].map(r => [r.querySelector('.k').value, r.querySelector('.v').value, r.classList.contains('absent') ? 'absent' : 'given']);") as? [[String]] ?? []
    }
    XCTAssertEqual(try fields(), [["city", "Oslo", "given"], ["title", "", "absent"]])
    XCTAssertEqual(try b.js("return window.studio.state.argsRead;") as? [String], ["title"])
    XCTAssertEqual(field(try inspect(b), "title"), "\"title\": \"Default in Oslo\",")
    try b.js("window.studio.send({ type: 'step', by: 12 });")
    XCTAssertTrue(try b.wait("window.studio.state.frame === 12"))
    // Filled in: the script runs again with it, at the same frame.
    try b.js("const v = document.querySelectorAll('#args .arg .v')[1]; v.value = 'Sales'; v.dispatchEvent(new Event('change'));")
    XCTAssertTrue(try b.wait("window.studio.state.args.length === 2 && window.studio.state.argsRead.length === 0"), "the field did not run the script")
    let state = try inspect(b)
    XCTAssertEqual(field(state, "title"), "\"title\": \"Sales in Oslo\",")
    XCTAssertEqual(try b.js("return window.studio.state.frame;") as? Int, 12, "the playhead was lost")
    let command = try b.js("return window.studio.state.command;") as? String ?? ""
    XCTAssertTrue(command.hasSuffix("--arg city=Oslo --arg title=Sales"), command)
    // Emptied again: not given, the script's own fallback.
    try b.js("const v = document.querySelectorAll('#args .arg .v')[1]; v.value = ''; v.dispatchEvent(new Event('change'));")
    XCTAssertTrue(try b.wait("window.studio.state.args.length === 1 && window.studio.state.argsRead[0] === 'title'"), "the emptied field is still given")
    XCTAssertEqual(field(try inspect(b), "title"), "\"title\": \"Default in Oslo\",")
  }

  /// A throw in the page: a drag let go while moving reports, at `ended`, the hand's speed
  /// as the page's own events tell it (within 15 %), and a save (a reload, which replays the
  /// gestures) keeps what the throw did.
  func testAThrowInThePageReportsTheHandsSpeed() throws {
    let b = try Browser()
    let source = LiveTests.feed
    let s = try Server(source: source("Page"))
    try b.go(s.url)
    XCTAssertTrue(try b.wait("window.studio.frames >= 1 && window.studio.meta.width === 360"))
    // The page's own events: where and when the hand was (scene px = page px here).
    try b.js("""
      window.hand = []; const f = document.getElementById('frame');
      for (const type of ['pointerdown', 'pointermove', 'pointerup']) f.addEventListener(type, (e) => window.hand.push([type, e.timeStamp, e.clientY]), true);
      """)
    // A known hand: the mouse through the DevTools protocol (chromedriver's goog/cdp), each
    // event with its own time, so the page's event.timeStamp says when it happened whatever
    // the load of the machine delivering it: pressed, then up 12 px every 16 ms (750 px/s)
    // for ten moves, let go 4 ms after the last.
    let (x, y) = try viewport(b, 180, 300)
    let t0 = Date().timeIntervalSince1970
    func mouse(_ type: String, _ dy: Double, at t: Double) throws {
      var params: [String: Any] = ["type": type, "x": x, "y": y + dy, "timestamp": t0 + t]
      if type != "mouseMoved" || t > 0 { params["button"] = "left"; params["buttons"] = type == "mouseReleased" ? 0 : 1 }
      if type != "mouseMoved" { params["clickCount"] = 1 }
      try b.call("POST", "/session/\(b.session)/goog/cdp/execute", ["cmd": "Input.dispatchMouseEvent", "params": params])
    }
    try mouse("mouseMoved", 0, at: 0)
    try mouse("mousePressed", 0, at: 0.016)
    for k in 1...10 { try mouse("mouseMoved", -12 * Double(k), at: 0.016 * Double(k + 1)) }
    try mouse("mouseReleased", -120, at: 0.016 * 11 + 0.004)
    XCTAssertTrue(try b.wait("window.hand.some(e => e[0] === 'pointerup')"), "the page saw no release")
    let events = try b.js("return window.hand;") as? [[Any]] ?? []
    let pressed = events.drop { $0[0] as? String != "pointerdown" }
    let times = pressed.compactMap { $0[1] as? Double }
    // The page saw the hand as it was: moves 16 ms apart (so 750 px/s), the release 4 ms after.
    XCTAssertEqual(pressed.map { $0[0] as? String ?? "" }, ["pointerdown"] + Array(repeating: "pointermove", count: 10) + ["pointerup"], "\(events)")
    for (later, earlier) in zip(times.dropFirst(), times).dropLast() { XCTAssertEqual(later - earlier, 16, accuracy: 0.5, "the page's times: \(events)") }
    let hand = -12 / 0.016
    let field = { (state: String, key: String) in self.field(state, key)?.split(separator: ":").last.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " ,")) } }
    XCTAssertTrue(try b.wait("window.studio.state.gestures >= 1"), "the throw was not recorded")
    try b.js("window.studio.send({ type: 'step', by: 2 });")
    let thrown = try inspect(b)
    let vy = try XCTUnwrap(field(thrown, "vy").flatMap(Double.init), thrown)
    let page = try XCTUnwrap(field(thrown, "page"))
    XCTAssertEqual(vy, hand, accuracy: abs(hand) * 0.15, "ended reported \(vy) px/s, the hand moved at \(hand) px/s")
    XCTAssertNotEqual(page, "0", "a throw of 120 px at \(vy) px/s turns a page")
    // A save: the reload replays the throw to the same page and speed.
    try s.write(source("Reloaded"))
    let deadline = Date().addingTimeInterval(10)
    var state = ""
    repeat { state = try inspect(b) } while !state.contains("Reloaded 1") && Date() < deadline
    XCTAssertTrue(state.contains("Reloaded 1"), "no reload")
    XCTAssertEqual(field(state, "page"), page, "the reload turned the page")
    XCTAssertEqual(try XCTUnwrap(field(state, "vy").flatMap(Double.init)), vy, accuracy: 0.001)
  }

  /// The scrubber's loop range and speed, the size presets, the keys of --live, and two tabs
  /// on one session.
  func testScrubberSizesKeysAndTwoTabs() throws {
    let b = try Browser()
    let s = try Server(source: StudioTests.chart(title: "Keys"))
    try b.go(s.url)
    XCTAssertTrue(try b.wait("window.studio.frames >= 1 && window.studio.state.frames === 120"))
    // In/out: frames 30 to 40 at 2x; playing stays inside them.
    try b.js("window.studio.send({ type: 'seek', t: 1 });")
    XCTAssertTrue(try b.wait("window.studio.state.frame === 30"))
    try b.js("document.getElementById('setin').click(); window.studio.send({ type: 'seek', t: 40 / 30 });")
    XCTAssertTrue(try b.wait("window.studio.state.frame === 40"))
    try b.js("document.getElementById('setout').click(); const sp = document.getElementById('speed'); sp.value = '2'; sp.dispatchEvent(new Event('change'));")
    XCTAssertTrue(try b.wait("window.studio.state.loop && window.studio.state.loop[0] === 30 && window.studio.state.loop[1] === 40 && window.studio.state.speed === 2"))
    try b.js("window.seen = []; window.studio.send({ type: 'play' }); window.timer = setInterval(() => window.seen.push(window.studio.meta.frame), 20);")
    XCTAssertTrue(try b.wait("window.seen.length > 60"), "the page saw no frames while playing")
    try b.js("clearInterval(window.timer); window.studio.send({ type: 'pause' });")
    let seen = try b.js("return window.seen.slice(5);") as? [Int] ?? []
    XCTAssertTrue(seen.allSatisfy { (30...40).contains($0) }, "played outside the loop: \(seen)")
    XCTAssertGreaterThan(Set(seen).count, 3, "it did not play: \(seen)")
    // Space and the arrows (the keys of --live), t for night.
    try b.call("POST", "/session/\(b.session)/actions", ["actions": [["type": "key", "id": "kb", "actions": [
      ["type": "keyDown", "value": "t"], ["type": "keyUp", "value": "t"]]]]])
    XCTAssertTrue(try b.wait("window.studio.state.theme === 'night' && document.body.classList.contains('night')"), "t did not turn the theme")
    let frame = try b.js("return window.studio.state.frame;") as? Int ?? 0
    try b.call("POST", "/session/\(b.session)/actions", ["actions": [["type": "key", "id": "kb", "actions": [
      ["type": "keyDown", "value": "\u{E014}"], ["type": "keyUp", "value": "\u{E014}"], ["type": "keyDown", "value": "\u{E014}"], ["type": "keyUp", "value": "\u{E014}"]]]]])
    XCTAssertTrue(try b.wait("window.studio.state.frame === \(frame + 2)"), "→ did not step")
    // Size presets lay the scene out again; the script's own size comes back.
    try b.js("const p = document.getElementById('sizepreset'); p.value = '360x640'; p.dispatchEvent(new Event('change'));")
    XCTAssertTrue(try b.wait("window.studio.meta.width === 360 && window.studio.meta.height === 640 && window.studio.state.frame === \(frame + 2)"), "no phone size")
    XCTAssertTrue(try b.wait("window.studio.state.command.includes('--size 360x640') && window.studio.state.command.includes('--theme night')"))
    try b.js("const p = document.getElementById('sizepreset'); p.value = 'own'; p.dispatchEvent(new Event('change'));")
    XCTAssertTrue(try b.wait("window.studio.meta.width === 600 && window.studio.meta.height === 500"), "not the script's size again")
    // The lint panel: the findings of the frame shown (none in this scene).
    try b.js("window.studio.lint = null; document.getElementById('lint').click();")
    XCTAssertTrue(try b.wait("window.studio.lint && Array.isArray(window.studio.lint.findings)"), "no lint answer")
    XCTAssertEqual(try b.js("return window.studio.lint.findings;") as? [String], [])
    XCTAssertEqual(try b.js("return document.getElementById('lintlist').textContent;") as? String, "nothing found")
    // A second tab sees the same session and drives it.
    try b.js("window.open(location.href, 'second');")
    let handles = try b.call("GET", "/session/\(b.session)/window/handles", nil) as? [String] ?? []
    XCTAssertEqual(handles.count, 2)
    try b.call("POST", "/session/\(b.session)/window", ["handle": handles[1]])
    XCTAssertTrue(try b.wait("window.studio && window.studio.frames >= 1 && window.studio.state.frame === \(frame + 2) && window.studio.state.theme === 'night'"), "the second tab is not on the session")
    try b.js("window.studio.send({ type: 'step', by: 3 });")
    try b.call("POST", "/session/\(b.session)/window", ["handle": handles[0]])
    XCTAssertTrue(try b.wait("window.studio.state.frame === \(frame + 5)"), "the first tab did not follow the second")
  }
}
