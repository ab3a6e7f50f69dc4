import ChartSceneHost
import Dispatch
import Foundation
import Glibc
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import Platform

/// `chartscene serve`: the studio page, its WebSocket and the outputs it rendered, served by
/// Hummingbird (no HTTP or WebSocket parsing here). Every request needs the token printed in
/// the URL (compared in constant time), a `Host` naming the server as bound (no DNS
/// rebinding) and, when it has one, an `Origin` of the same place (no other site's page).
public struct StudioServer {
  public struct Options: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var open = false
    public var session: StudioSession.Options
    public init(session: StudioSession.Options) { self.session = session }
  }

  public let options: Options
  public init(options: Options) { self.options = options }

  /// Runs until the process is stopped (SIGINT, SIGTERM); a port it cannot listen on is the
  /// thrown error's one line.
  public func run() throws(HostError) {
    let token: String
    do { token = try Token.random() } catch { throw error }
    if options.host != "127.0.0.1" && options.host != "localhost" && options.host != "::1" {
      Session.printError("warning: --host \(options.host): the studio is reachable from other machines; anyone with the URL (its token) can run the script and write into \(options.session.outFolder)")
    }
    let engine = StudioSession(options: options.session)
    let outFolder = options.session.outFolder
    // The scene's thread starts once the port is ours: a port in use is one line, no more.
    let started = PosixLocked(false)
    let startEngine: @Sendable () -> Void = {
      guard started.withLock({ s in defer { s = true }; return !s }) else { return }
      let thread = Thread { engine.run() }
      thread.stackSize = 16 << 20
      thread.start()
    }

    let gate = Gate(token: token, host: options.host)
    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: GateMiddleware<BasicRequestContext>(gate: gate))
    router.get("/") { _, _ -> Response in
      var headers = HTTPFields()
      headers[.contentType] = "text/html; charset=utf-8"
      headers[.cacheControl] = "no-store"
      headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' blob: data:; connect-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
      return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: StudioPage.html)))
    }
    router.get("/ws") { _, _ -> Response in
      Gate.refuse(.badRequest, "GET /ws: not a WebSocket upgrade")
    }
    router.get("/out/{name}") { _, context -> Response in
      let name = context.parameters.get("name") ?? ""
      guard engine.isOutput(name), !name.contains("/") else { return Gate.refuse(.notFound, "GET /out/\(name): no such output of this studio") }
      let path = outFolder + "/" + name
      guard let data = FileManager.default.contents(atPath: path) else { return Gate.refuse(.notFound, "GET /out/\(name): the file is gone") }
      var headers = HTTPFields()
      headers[.contentType] = StudioServer.mediaType(name)
      headers[.contentDisposition] = "attachment; filename=\"\(name)\""
      headers[.cacheControl] = "no-store"
      return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    let connections = ConnectionCounter()
    let wsRouter = Router(context: BasicWebSocketRequestContext.self)
    wsRouter.add(middleware: GateMiddleware<BasicWebSocketRequestContext>(gate: gate))
    wsRouter.ws("/ws") { inbound, outbound, _ in
      let id = connections.next()
      let mailbox = Mailbox()
      engine.connect(id, StudioSession.Client(frame: { mailbox.put(frame: $0) }, text: { mailbox.put(text: $0) }))
      defer { engine.disconnect(id); mailbox.close() }
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          for await _ in mailbox.signals {
            let (texts, frame) = mailbox.take()
            for t in texts { try await outbound.writeTextMessage(t) }
            if let frame { try await outbound.writeBinaryMessage(ByteBuffer(bytes: frame)) }
          }
        }
        group.addTask {
          do {
            for try await message in inbound.messages(maxSize: 1 << 16) {
              switch message {
              case .text(let text): engine.receive(text, from: id)
              case .binary: engine.receive("{\"type\": \"binary message\"}", from: id)
              }
            }
          } catch {
            Session.printError("error: the page's WebSocket message was refused: \(error)")
          }
          mailbox.close()
        }
        _ = try await group.next()
        group.cancelAll()
      }
    }

    let chosen = options
    var logger = Logger(label: "chartscene.serve")
    logger.logLevel = .critical
    let failure = PosixLocked<String?>(nil)
    let app = Application(
      router: router,
      // The WebSocket's upgrade behind the gate, so that a refused one gets 403 (GatedUpgradeChannel).
      server: HTTPServerBuilder { [wsResponder = wsRouter.buildResponder()] responder in
        GatedUpgradeChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: wsResponder,
                                                                configuration: .init(http1: .init(), ws: .init(maxFrameSize: 1 << 26))), gate: gate)
      },
      configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? chosen.port
        gate.port.withLock { $0 = port }
        let shownHost = chosen.host.contains(":") ? "[\(chosen.host)]" : (chosen.host == "0.0.0.0" ? "127.0.0.1" : chosen.host)
        let url = "http://\(shownHost):\(port)/?token=\(token)"
        // Standard output gets the URL alone (a program reads it as it is); the terminal's
        // standard error says what it serves.
        print(url)
        fflush(nil)
        startEngine()
        if chosen.open { StudioServer.openBrowser(url) }
      },
      logger: logger)
    let done = DispatchSemaphore(value: 0)
    Task {
      do { try await app.runService(gracefulShutdownSignals: []) } catch {
        failure.withLock { $0 = StudioServer.describe(error, host: chosen.host, port: chosen.port) }
      }
      done.signal()
    }
    done.wait()
    if let message = failure.withLock({ $0 }) { throw HostError(message) }
  }

  static func describe(_ error: any Error, host: String, port: Int) -> String {
    let text = "\(error)"
    if text.contains("Address already in use") { return "cannot listen on \(host):\(port): the port is in use (another program listens there; --port 0 picks a free one)" }
    if text.contains("Permission denied") { return "cannot listen on \(host):\(port): permission denied (ports below 1024 need privileges)" }
    if text.contains("Cannot assign requested address") || text.contains("getaddrinfo") || text.contains("Name or service not known") {
      return "cannot listen on \(host):\(port): no such address on this machine"
    }
    return "cannot listen on \(host):\(port): \(text)"
  }

  static func mediaType(_ name: String) -> String {
    switch Paths.fileExtension(of: name) {
    case "mp4": return "video/mp4"
    case "webm": return "video/webm"
    case "gif": return "image/gif"
    case "png": return "image/png"
    case "apng": return "image/apng"
    case "lua": return "text/plain; charset=utf-8"
    default: return "application/octet-stream"
    }
  }

  static func openBrowser(_ url: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["xdg-open", url]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    do { try p.run() } catch { Session.printError("warning: --open: cannot start xdg-open (\(error)): open the URL by hand") }
  }
}

/// The token, the `Host` and the `Origin` of every request.
final class Gate: Sendable {
  let token: String
  let host: String
  let port = PosixLocked(0)
  init(token: String, host: String) { self.token = token; self.host = host }

  /// The refusal of a request, or nil when it may go on.
  func check(_ request: Request) -> Response? {
    let line = refusal(method: "\(request.method)", path: request.uri.path, token: request.uri.queryParameters["token"].map(String.init),
                       authority: request.head.authority ?? "", origin: request.headers[.origin])
    return line.map { Gate.refuse(.forbidden, $0) }
  }

  /// Why a request may not go on (its line), or nil when it may: the token, the `Host`,
  /// the `Origin` (the page's requests and the WebSocket's upgrade alike).
  func refusal(method: String, path: String, token given: String?, authority: String, origin: String?) -> String? {
    let what = "\(method) \(path)"
    guard let given, Token.equal(given, token) else {
      return "\(what): no token or a wrong one (open the URL chartscene serve printed, with its ?token=)"
    }
    guard allowed(authority) else {
      return "\(what): Host '\(authority)' is not this server (the studio answers only to the address it listens on)"
    }
    if let origin {
      guard origin.hasPrefix("http://"), allowed(String(origin.dropFirst("http://".count))) else {
        return "\(what): Origin '\(origin)' is another site (only the studio's own page may use it)"
      }
    }
    return nil
  }

  /// The server's line for a refused request.
  static func log(_ line: String) { Session.printError("refused: " + line) }

  /// `127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`, the host it was bound to, or with
  /// `--host 0.0.0.0` an address written as numbers (a name could be rebound to it).
  func allowed(_ authority: String) -> Bool {
    let p = port.withLock { $0 }
    let names = ["127.0.0.1", "localhost", "[::1]", host.contains(":") ? "[\(host)]" : host]
    if names.contains(where: { authority == "\($0):\(p)" }) { return true }
    if host == "0.0.0.0" || host == "::" {
      guard authority.hasSuffix(":\(p)") else { return false }
      let name = authority.dropLast(":\(p)".count)
      return name.allSatisfy { $0.isNumber || $0 == "." } || (name.hasPrefix("[") && name.hasSuffix("]") && name.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" })
    }
    return false
  }

  static func refuse(_ status: HTTPResponse.Status, _ line: String) -> Response {
    log(line)
    var headers = HTTPFields()
    headers[.contentType] = "text/plain; charset=utf-8"
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "error: \(line)\n")))
  }
}

/// The gate in front of a router (the page's and the WebSocket's).
struct GateMiddleware<Context: RequestContext>: RouterMiddleware {
  let gate: Gate
  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
    if let refused = gate.check(request) { return refused }
    return try await next(request, context)
  }
}

enum Token {
  /// 128 random bits from /dev/urandom, as 32 hex digits.
  static func random() throws(HostError) -> String {
    let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw HostError("cannot read /dev/urandom for the studio's token") }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 16)
    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress!, 16) }
    guard n == 16 else { throw HostError("cannot read /dev/urandom for the studio's token") }
    return bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }

  /// Compares in time that depends only on the lengths, not on where they differ.
  static func equal(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    var diff = UInt8(x.count == y.count ? 0 : 1)
    for i in 0..<y.count { diff |= (i < x.count ? x[i] : 0) ^ y[i] }
    return diff == 0
  }
}

final class ConnectionCounter: Sendable {
  let n = PosixLocked(0)
  func next() -> Int { n.withLock { $0 += 1; return $0 } }
}

/// What goes to one page: its text messages in order and the newest frame only (a slow
/// page skips pictures, never falls behind), written by one task.
final class Mailbox: Sendable {
  let box = PosixLocked<(texts: [String], frame: [UInt8]?)>(([], nil))
  let signals: AsyncStream<Void>
  let signal: AsyncStream<Void>.Continuation

  init() { (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1)) }

  func put(frame: [UInt8]) { box.withLock { $0.frame = frame }; signal.yield() }
  func put(text: String) {
    box.withLock { b in
      // A page that does not read: its oldest messages go (states are repeated anyway).
      if b.texts.count > 512 { b.texts.removeFirst(b.texts.count - 512) }
      b.texts.append(text)
    }
    signal.yield()
  }
  func take() -> ([String], [UInt8]?) { box.withLock { b in defer { b = ([], nil) }; return (b.texts, b.frame) } }
  func close() { signal.finish() }
}
