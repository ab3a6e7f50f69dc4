import Dispatch
import Drawing
import Foundation
import Platform
import RenderCairo
import SceneGraph

/// The studio's frames on their way to the pages: painted and compressed by two workers of
/// their own (each with its own text system, as the painters of an animated render have:
/// the same pixels), so that the scene's thread runs the next ticks and builds the next
/// display list meanwhile. At most one frame a worker is in flight: the scene's thread draws
/// a new one only when a worker is free (a slow machine skips pictures, never time), and a
/// frame finished after a later one is dropped, so the pages see them in order.
final class FramePipeline: @unchecked Sendable {
  struct Job: Sendable {
    var list: DisplayList
    var scale: Double
    var size: Size
    /// The frame's header (time, frame, size, scale).
    var fields: [(String, OrderedJSON)]
    var sequence = 0
  }

  /// Where a finished frame goes: its bytes (length, header, PNG), or nil and the header
  /// alone when its pixels are those of the last frame sent (the pages learn the time).
  typealias Deliver = @Sendable (_ bytes: [UInt8]?, _ header: String) -> Void

  private struct State {
    var queue: [Job] = []
    var busy = 0
    var sequence = 0
    var delivered = -1
    var lastSent: [UInt8] = []
    var lastSize = Size(0, 0)
    var failure: String?
  }

  private let state = PosixLocked(State())
  private let work = DispatchSemaphore(value: 0)
  let workers: Int
  private let deliver: Deliver
  private let finished: @Sendable () -> Void

  /// `finished` is called after each frame (the scene's thread may draw the next one).
  init(workers: Int = 2, deliver: @escaping Deliver, finished: @escaping @Sendable () -> Void) {
    self.workers = workers
    self.deliver = deliver
    self.finished = finished
    for k in 0..<workers {
      let thread = Thread { [self] in self.work(painter: CairoPainter(text: PangoText())) }
      thread.name = "studio-frames-\(k)"
      thread.stackSize = 8 << 20
      thread.start()
    }
  }

  /// True when a worker is free for the next frame.
  var hasRoom: Bool { state.withLock { $0.queue.count + $0.busy < workers } }

  func submit(_ job: Job) {
    state.withLock { s in
      var j = job
      s.sequence += 1
      j.sequence = s.sequence
      s.queue.append(j)
    }
    work.signal()
  }

  /// The next frame is sent whole even when its pixels are the last one's (a page asked
  /// again: another pixel ratio).
  func forgetLastSent() { state.withLock { $0.lastSent = [] } }

  /// A worker's error since the last call (a frame that could not be painted).
  func takeFailure() -> String? { state.withLock { s in defer { s.failure = nil }; return s.failure } }

  private func work(painter: CairoPainter) -> Never {
    while true {
      work.wait()
      guard let job = state.withLock({ s -> Job? in
        guard !s.queue.isEmpty else { return nil }
        s.busy += 1
        return s.queue.removeFirst()
      }) else { continue }
      let png: [UInt8]?
      var failure: String?
      do { png = try StillRenderer.png(job.list, scale: job.scale, painter: painter) } catch let e as HostError {
        png = nil; failure = e.message
      } catch {
        png = nil; failure = "\(error)"
      }
      state.withLock { s in
        s.busy -= 1
        if let failure { s.failure = failure; return }
        // In order: a frame finished after a later one is not shown.
        guard let png, job.sequence > s.delivered else { return }
        s.delivered = job.sequence
        // Delivered under the lock, so two workers' frames reach the pages in order.
        if png == s.lastSent && job.size == s.lastSize {
          deliver(nil, OrderedJSON.object([("type", .string("frame"))] + job.fields).render(pretty: false))
        } else {
          s.lastSent = png
          s.lastSize = job.size
          let header = OrderedJSON.object(job.fields).render(pretty: false)
          let m = Array(header.utf8)
          let n = UInt32(m.count)
          var bytes: [UInt8] = [UInt8(n >> 24), UInt8((n >> 16) & 255), UInt8((n >> 8) & 255), UInt8(n & 255)]
          bytes.reserveCapacity(4 + m.count + png.count)
          bytes += m
          bytes += png
          deliver(bytes, header)
        }
      }
      finished()
    }
  }
}
