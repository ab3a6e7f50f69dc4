import CSDL2
import Drawing
import Gestures

/// An SDL2 window that shows frames and turns the pointer and keys into input. Scene
/// pixels map to the window's logical size; on a HiDPI display frames are drawn at the
/// drawable's resolution.
public final class LiveWindow {
  public enum Key: Sendable, Equatable { case playPause, stepBack, stepForward, home, reload, theme, save, inspect, quit }

  /// What happened since the last poll.
  public enum Input: Sendable, Equatable {
    /// A pointer event and when it happened (seconds, any origin: the X server's time of
    /// the event, else SDL's timestamp), on which the hand's speed is measured.
    case pointer(PointerEvent.Phase, Point, timestamp: Double)
    case key(Key)
    case resized(width: Double, height: Double)
    case close
  }

  let window: OpaquePointer
  let renderer: OpaquePointer
  var texture: OpaquePointer?
  var textureSize = (0, 0)
  var pressed = false
  /// The X server's time of the pointer event SDL reports next (s), from the SDL_SYSWMEVENT
  /// before it, and how far the server's clock is from SDL's (learned from the last event
  /// that had both, for one that comes without).
  var serverTime: Double?
  var serverOffset: Double?

  public struct WindowError: Error, CustomStringConvertible { public var description: String }

  public init(title: String, width: Int, height: Int) throws(WindowError) {
    // Without a display SDL2 tries every other video driver and may never give up (it spun at
    // a quarter of a core): say so at once. A driver named in SDL_VIDEODRIVER is trusted.
    if !LiveWindow.hasDisplay(environment: { getenv($0).map { String(cString: $0) } }) {
      throw WindowError(description: "--live needs a display (DISPLAY or WAYLAND_DISPLAY is not set)")
    }
    var err = [CChar](repeating: 0, count: 512)
    guard cs_sdl_load(&err, UInt(err.count)) == 0 else { throw WindowError(description: String(decoding: err.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
    cs_SDL_SetMainReady()
    guard cs_SDL_Init(SDL_INIT_VIDEO) == 0 else { throw WindowError(description: "cannot open a window: \(String(cString: cs_SDL_GetError()))") }
    let flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
    guard let w = cs_SDL_CreateWindow(title, Int32(SDL_WINDOWPOS_CENTERED_MASK), Int32(SDL_WINDOWPOS_CENTERED_MASK), Int32(width), Int32(height), flags) else {
      let e = String(cString: cs_SDL_GetError())
      cs_SDL_Quit()
      throw WindowError(description: "cannot open a window: \(e)")
    }
    window = w
    guard let r = cs_SDL_CreateRenderer(w, -1, 0) else {
      let e = String(cString: cs_SDL_GetError())
      cs_SDL_DestroyWindow(w)
      cs_SDL_Quit()
      throw WindowError(description: "cannot draw in the window: \(e)")
    }
    renderer = r
    // The X server's own times of the pointer events: SDL2 stamps its events when it reads
    // them, so those that wait while a frame is drawn come out with one time.
    _ = cs_SDL_EventState(SDL_SYSWMEVENT.rawValue, SDL_ENABLE)
  }

  /// Whether a window can be shown: an X11 or Wayland display is named, or SDL2 is told
  /// which video driver to use.
  public static func hasDisplay(environment: (String) -> String?) -> Bool {
    for name in ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"] {
      if let v = environment(name), !v.isEmpty { return true }
    }
    return false
  }

  deinit {
    if let texture { cs_SDL_DestroyTexture(texture) }
    cs_SDL_DestroyRenderer(renderer)
    cs_SDL_DestroyWindow(window)
    cs_SDL_Quit()
  }

  /// The window's size in logical (scene) pixels.
  public var logicalSize: (Double, Double) {
    var w: Int32 = 0, h: Int32 = 0
    cs_SDL_GetWindowSize(window, &w, &h)
    return (Double(w), Double(h))
  }

  /// Device pixels per logical pixel (2 on a HiDPI display).
  public var pixelScale: Double {
    var w: Int32 = 0, h: Int32 = 0, dw: Int32 = 0, dh: Int32 = 0
    cs_SDL_GetWindowSize(window, &w, &h)
    cs_SDL_GetRendererOutputSize(renderer, &dw, &dh)
    return w > 0 ? Double(dw) / Double(w) : 1
  }

  /// Shows a frame (cairo ARGB32 pixels at the drawable's resolution).
  public func show(_ image: RasterImage) {
    if texture == nil || textureSize != (image.width, image.height) {
      if let texture { cs_SDL_DestroyTexture(texture) }
      texture = cs_SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(image.width), Int32(image.height))
      textureSize = (image.width, image.height)
    }
    image.pixels.withUnsafeBytes { raw in
      _ = cs_SDL_UpdateTexture(texture, nil, raw.baseAddress, Int32(image.stride))
    }
    cs_SDL_RenderClear(renderer)
    cs_SDL_RenderCopy(renderer, texture, nil, nil)
    cs_SDL_RenderPresent(renderer)
  }

  /// Everything that happened since the last call, waiting at most `timeoutMs` for the first.
  public func poll(timeoutMs: Int32) -> [Input] {
    var out: [Input] = []
    var e = SDL_Event()
    var got = cs_SDL_WaitEventTimeout(&e, timeoutMs) != 0
    while got {
      if let input = translate(e) { out.append(input) }
      got = cs_SDL_PollEvent(&e) != 0
    }
    return out
  }

  /// When a pointer event happened: the X server's time where there is one, else SDL's
  /// timestamp (on the server's clock once an event had both), in seconds.
  func stamp(_ sdlMilliseconds: UInt32, server: Double?) -> Double {
    let sdl = Double(sdlMilliseconds) / 1000
    if let server {
      serverOffset = server - sdl
      return server
    }
    return sdl + (serverOffset ?? 0)
  }

  func translate(_ e: SDL_Event) -> Input? {
    if SDL_EventType(e.type) == SDL_SYSWMEVENT {
      let t = withUnsafePointer(to: e) { cs_sdl_x11_pointer_time($0) }
      if t >= 0 { serverTime = t / 1000 }
      return nil
    }
    let server = serverTime
    serverTime = nil
    switch SDL_EventType(e.type) {
    case SDL_QUIT: return .close
    case SDL_WINDOWEVENT:
      if e.window.event == UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue) {
        let (w, h) = logicalSize
        return .resized(width: w, height: h)
      }
      if e.window.event == UInt8(SDL_WINDOWEVENT_CLOSE.rawValue) { return .close }
    case SDL_MOUSEBUTTONDOWN where e.button.button == UInt8(SDL_BUTTON_LEFT):
      pressed = true
      return .pointer(.down, Point(Double(e.button.x), Double(e.button.y)), timestamp: stamp(e.button.timestamp, server: server))
    case SDL_MOUSEBUTTONUP where e.button.button == UInt8(SDL_BUTTON_LEFT):
      pressed = false
      return .pointer(.up, Point(Double(e.button.x), Double(e.button.y)), timestamp: stamp(e.button.timestamp, server: server))
    case SDL_MOUSEMOTION where pressed:
      return .pointer(.move, Point(Double(e.motion.x), Double(e.motion.y)), timestamp: stamp(e.motion.timestamp, server: server))
    case SDL_MOUSEWHEEL:
      var x: Int32 = 0, y: Int32 = 0
      cs_SDL_GetMouseState(&x, &y)
      // One wheel notch scrolls 40 scene pixels; wheel up moves content down.
      return .pointer(.scroll(Double(e.wheel.x) * 40, Double(-e.wheel.y) * 40), Point(Double(x), Double(y)), timestamp: stamp(e.wheel.timestamp, server: nil))
    case SDL_KEYDOWN:
      switch Int(e.key.keysym.sym) {
      case Int(SDLK_SPACE.rawValue): return .key(.playPause)
      case Int(SDLK_LEFT.rawValue): return .key(.stepBack)
      case Int(SDLK_RIGHT.rawValue): return .key(.stepForward)
      case Int(SDLK_HOME.rawValue): return .key(.home)
      case Int(SDLK_r.rawValue): return .key(.reload)
      case Int(SDLK_t.rawValue): return .key(.theme)
      case Int(SDLK_s.rawValue): return .key(.save)
      case Int(SDLK_i.rawValue): return .key(.inspect)
      case Int(SDLK_q.rawValue), Int(SDLK_ESCAPE.rawValue): return .key(.quit)
      default: return nil
      }
    default: return nil
    }
    return nil
  }
}
