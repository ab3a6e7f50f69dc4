import ChartModel
import Encoding
import Glibc
import SceneGraph
import Platform

/// The sound and subtitles of a video (`audio`, `captions` on `cs.scene`), as the encoder
/// needs them: the clips, the subtitles as WebVTT and the stretch of the scene the video
/// covers. A sharded segment carries it in its metadata (`chartscene_media`) so that
/// `concat` adds the track once to the joined video.
public struct MediaTrack: Sendable, Equatable {
  public var audio: [SoundInput]
  /// The cues as a WebVTT file, times from the scene's start.
  public var captions: [Caption]
  /// The scene's seconds from the first frame to the end of the last.
  public var start: Double
  public var duration: Double

  public init(audio: [SoundInput], captions: [Caption], start: Double, duration: Double) {
    self.audio = audio; self.captions = captions; self.start = start; self.duration = duration
  }

  public init(_ n: Narration, start: Double, duration: Double) {
    self.init(audio: n.audio.map { SoundInput(path: $0.path, at: $0.at, gain: $0.gain) }, captions: n.captions, start: start, duration: duration)
  }

  public var isEmpty: Bool { audio.isEmpty && captions.isEmpty }

  /// The subtitles of the video, times from its first frame: the cues it shows, cut to its
  /// length (nil when it shows none).
  public var webVTT: String? {
    let end = start + duration
    let shown = captions.filter { $0.to > start && $0.from < end }.map { Caption(from: $0.from, to: min($0.to, end), text: $0.text) }
    return shown.isEmpty ? nil : Captions.webVTT(shown, offset: start)
  }

  /// The `.vtt` written beside a video: its name with the extension replaced.
  public static func subtitlePath(for video: String) -> String {
    Paths.removingExtension(video) + ".vtt"
  }

  /// Adds the track to the silent video `silent`, writing `output` (then removes `silent`),
  /// and writes the `.vtt` beside it when there are captions and `subtitleFile`.
  public func write(silent: String, to output: String, format: FFmpegEncoder.Format, subtitleFile: Bool, metadata: [(String, String)] = []) throws(HostError) {
    defer { unlink(silent); TempFiles.unregister(silent) }
    do {
      try FFmpegEncoder.mux(video: silent, to: output, format: format, audio: audio, subtitles: webVTT, start: start, duration: duration, metadata: metadata)
    } catch { throw HostError(error.description) }
    if subtitleFile, let vtt = webVTT {
      do { try AtomicOutput.write(Array(vtt.utf8), to: MediaTrack.subtitlePath(for: output)) } catch { throw HostError(error.description) }
    }
  }

  /// One line of JSON (the `chartscene_media` tag of a segment).
  public var json: String {
    OrderedJSON.object([
      ("start", .number(start)), ("duration", .number(duration)),
      ("audio", .array(audio.map { .object([("file", .string($0.path)), ("at", .number($0.at)), ("gain", .number($0.gain))]) })),
      ("captions", .array(captions.map { .array([.number($0.from), .number($0.to), .string($0.text)]) })),
    ]).render(pretty: false)
  }

  /// Reads `json`; nil when it is not what `json` writes.
  public static func decode(_ text: String) -> MediaTrack? {
    guard case .object(let o)? = try? JSONParser.parse(Array(text.utf8)),
          case .number(let start)? = o["start"], case .number(let duration)? = o["duration"],
          case .array(let a)? = o["audio"], case .array(let c)? = o["captions"] else { return nil }
    var audio: [SoundInput] = []
    for item in a {
      guard case .object(let f) = item, case .string(let file)? = f["file"], case .number(let at)? = f["at"], case .number(let gain)? = f["gain"] else { return nil }
      audio.append(SoundInput(path: file, at: at, gain: gain))
    }
    var captions: [Caption] = []
    for item in c {
      guard case .array(let v) = item, v.count == 3, case .number(let from) = v[0], case .number(let to) = v[1], case .string(let text) = v[2] else { return nil }
      captions.append(Caption(from: from, to: to, text: text))
    }
    return MediaTrack(audio: audio, captions: captions, start: start, duration: duration)
  }
}
