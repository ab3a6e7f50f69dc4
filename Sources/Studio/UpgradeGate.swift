import ChartSceneHost
import Foundation
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// The WebSocket's child channel with the gate in front of its upgrade: a refused upgrade
/// (no token or a wrong one, another `Host`, another site's `Origin`) gets 403 and the
/// refusal's line, as every other request does. (Hummingbird answers a declined upgrade
/// with a bare 400 and no way to choose another status, so the refusal is made here, on
/// the request's head, before the upgrader sees it.)
struct GatedUpgradeChannel: ServerChildChannel {
  let inner: HTTP1WebSocketUpgradeChannel
  let gate: Gate

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
    inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
      // Between the HTTP decoder and the upgrader: it sees each request's head first.
      let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
      try channel.pipeline.syncOperations.addHandler(UpgradeGate(gate: gate), position: .after(decoder))
      return value
    }
  }

  func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
    await inner.handle(value: value, logger: logger)
  }
}

/// Answers a WebSocket upgrade the gate refuses with 403 and closes; lets every other
/// request through, then leaves the pipeline (an upgraded channel carries frames, not HTTP).
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  let gate: Gate
  var refused = false
  init(gate: Gate) { self.gate = gate }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !refused else { return }
    guard case .head(let head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
    let upgrade = head.headers["upgrade"].contains { $0.lowercased().contains("websocket") }
    let (path, query) = UpgradeGate.split(head.uri)
    if upgrade, let line = gate.refusal(method: "\(head.method)", path: path, token: UpgradeGate.token(query),
                                        authority: head.headers["host"].first ?? "", origin: head.headers["origin"].first) {
      refused = true
      Gate.log(line)
      let body = context.channel.allocator.buffer(string: "error: \(line)\n")
      var headers = HTTPHeaders()
      headers.add(name: "content-type", value: "text/plain; charset=utf-8")
      headers.add(name: "content-length", value: String(body.readableBytes))
      headers.add(name: "connection", value: "close")
      context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .forbidden, headers: headers))), promise: nil)
      context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
      let done = context.eventLoop.makePromise(of: Void.self)
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: done)
      let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
      done.futureResult.whenComplete { _ in bound.value.close(promise: nil) }
      return
    }
    context.fireChannelRead(data)
    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
  }

  /// A request target's path and query.
  static func split(_ uri: String) -> (String, Substring) {
    guard let q = uri.firstIndex(of: "?") else { return (uri, "") }
    return (String(uri[..<q]), uri[uri.index(after: q)...])
  }

  /// The `token` of a query (percent-decoded), nil when there is none.
  static func token(_ query: Substring) -> String? {
    for pair in query.split(separator: "&") where pair.hasPrefix("token=") {
      return String(pair.dropFirst("token=".count)).removingPercentEncoding
    }
    return nil
  }
}
