import Foundation
import XCTest

/// Issue 25, item 4: `audio` and `captions` on `cs.scene` — a sound track mixed into MP4 and
/// WebM, subtitles burned in, as a track and as a `.vtt`, sharded renders joined with one
/// track identical to a one-process render's.
final class NarrationTests: FolderCase {
  /// A mono 16-bit WAV of a sine: `seconds` long at `rate`.
  func wav(_ name: String, frequency: Double, seconds: Double, rate: Int = 22050) throws {
    let n = Int(Double(rate) * seconds)
    var d = Data()
    func u32(_ v: Int) { var x = UInt32(v).littleEndian; d.append(Data(bytes: &x, count: 4)) }
    func u16(_ v: Int) { var x = UInt16(v).littleEndian; d.append(Data(bytes: &x, count: 2)) }
    d.append(Data("RIFF".utf8)); u32(36 + 2 * n); d.append(Data("WAVEfmt ".utf8))
    u32(16); u16(1); u16(1); u32(rate); u32(rate * 2); u16(2); u16(16)
    d.append(Data("data".utf8)); u32(2 * n)
    for k in 0..<n {
      var s = Int16(8000 * sin(2 * Double.pi * frequency * Double(k) / Double(rate))).littleEndian
      d.append(Data(bytes: &s, count: 2))
    }
    try d.write(to: dir.appendingPathComponent(name))
  }

  static let srt = """
    1
    00:00:00,500 --> 00:00:02,000
    Sales <i>doubled</i> in a year

    2
    00:00:02,200 --> 00:00:03,600
    and kept on growing.

    """

  /// A 4 s scene at 10 fps with two clips (one quieter, starting later) and captions.
  func story(_ extra: String = "") throws {
    try wav("voice.wav", frequency: 440, seconds: 2)
    try wav("beep.wav", frequency: 660, seconds: 1.5, rate: 44100)
    try write("story.srt", Self.srt)
    try write("story.lua", """
      local s = cs.data.sample()[1]
      return cs.scene { width = 320, height = 180, fps = 10, duration = 4,
        audio = { { file = "voice.wav", at = 0.5 }, { file = "beep.wav", at = 2.2, gain = 0.5 } },
        captions = "story.srt", \(extra)
        root = cs.chart { id = "c", data = s } }
      """)
  }

  func tool(_ args: [String]) throws -> CLI.Result {
    let r = try ScaleTests.tool("/usr/bin/" + args[0], Array(args.dropFirst()), cwd: dir)
    XCTAssertEqual(r.status, 0, r.stderr)
    return r
  }

  /// Streams as ffprobe reads them: "type codec duration" per line.
  func streams(_ file: String) throws -> [String] {
    try tool(["ffprobe", "-v", "error", "-show_entries", "stream=codec_type,codec_name,duration:stream_tags=DURATION", "-of", "csv=p=0", file])
      .stdout.split(separator: "\n").map(String.init)
  }

  /// The audio decoded to 16-bit stereo samples at 48 kHz.
  func pcm(_ file: String) throws -> Data {
    let out = dir.appendingPathComponent(file + ".pcm")
    _ = try tool(["ffmpeg", "-v", "error", "-y", "-i", file, "-map", "0:a", "-f", "s16le", "-ac", "2", "-ar", "48000", out.path])
    return try Data(contentsOf: out)
  }

  func testMP4AndWebMHoldTheSoundAndTheSubtitles() throws {
    try story()
    let r = try run(["story.lua", "-o", "story.mp4"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stderr, "")
    // Video and sound both 4 s; the subtitles end with the last cue.
    XCTAssertEqual(try streams("story.mp4"), ["h264,video,4.000000", "aac,audio,4.000000", "mov_text,subtitle,3.600000"])
    let vtt = try String(contentsOf: dir.appendingPathComponent("story.vtt"), encoding: .utf8)
    XCTAssertEqual(vtt, "WEBVTT\n\n00:00:00.500 --> 00:00:02.000\nSales doubled in a year\n\n00:00:02.200 --> 00:00:03.600\nand kept on growing.\n")
    // Silence before the first clip, sound while it plays, silence after both end.
    let samples = try pcm("story.mp4")
    // 4 s of 48 kHz stereo (an AAC decoder gives the last frame of 1024 samples whole).
    XCTAssertTrue((768_000..<772_096).contains(samples.count), "\(samples.count)")
    func peak(_ from: Double, _ to: Double) -> Int {
      samples.withUnsafeBytes { raw in
        let s = raw.bindMemory(to: Int16.self)
        return (Int(from * 48000) * 2..<Int(to * 48000) * 2).map { abs(Int(s[$0])) }.max() ?? 0
      }
    }
    XCTAssertLessThan(peak(0, 0.45), 50)
    XCTAssertGreaterThan(peak(0.6, 2.4), 5000)
    XCTAssertGreaterThan(peak(2.6, 3.6), 1500)
    XCTAssertLessThan(peak(2.6, 3.6), 4000)  // gain 0.5
    XCTAssertLessThan(peak(3.75, 4), 50)

    let w = try run(["story.lua", "-o", "story.webm"])
    XCTAssertEqual(w.status, 0, w.stderr)
    let webm = try streams("story.webm")
    XCTAssertEqual(webm.count, 3, "\(webm)")
    XCTAssertTrue(webm[0].hasPrefix("vp9,video,"), "\(webm)")
    XCTAssertTrue(webm[1].hasPrefix("opus,audio,N/A,00:00:04.0"), "\(webm)")
    XCTAssertTrue(webm[2].hasPrefix("webvtt,subtitle,"), "\(webm)")
    XCTAssertTrue((768_000..<772_096).contains(try pcm("story.webm").count))

    // The same script gives the same bytes.
    let first = try Data(contentsOf: dir.appendingPathComponent("story.mp4"))
    XCTAssertEqual(try run(["story.lua", "-o", "story.mp4"]).status, 0)
    XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("story.mp4")), first)
  }

  /// Segments are silent; concat adds the one track: the joined sound is the one-process
  /// render's sample for sample (no gap or click at the joins), and so are the frames.
  func testShardedSoundIsTheOneProcessSound() throws {
    try story()
    XCTAssertEqual(try run(["story.lua", "-o", "one.mp4"]).status, 0)
    var segments: [String] = []
    for i in 1...3 {
      let r = try run(["story.lua", "--shard", "\(i)/3", "-o", "seg\(i).mp4"])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertEqual(try streams("seg\(i).mp4").count, 1, "a segment holds only its frames")
      segments.append("seg\(i).mp4")
    }
    let j = try run(["concat", "joined.mp4"] + segments)
    XCTAssertEqual(j.status, 0, j.stderr)
    XCTAssertEqual(try streams("joined.mp4"), try streams("one.mp4"))
    let one = try pcm("one.mp4"), joined = try pcm("joined.mp4")
    XCTAssertTrue((768_000..<772_096).contains(one.count), "\(one.count)")
    XCTAssertTrue(one == joined, "the joined sound differs from the one-process render's")
    func frames(_ f: String) throws -> String { try tool(["ffmpeg", "-v", "error", "-i", f, "-map", "0:v", "-f", "framemd5", "-"]).stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n") }
    XCTAssertEqual(try frames("joined.mp4"), try frames("one.mp4"))
    XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("joined.vtt"), encoding: .utf8),
                   try String(contentsOf: dir.appendingPathComponent("one.vtt"), encoding: .utf8))
  }

  /// `--frames A-B` gets the sound and the cues of those frames, cut to their length (also
  /// where one clip has ended before A and the other ends inside).
  func testFramesGetTheirOwnStretchOfSoundAndCues() throws {
    try story()
    XCTAssertEqual(try run(["story.lua", "-o", "end.mp4", "--frames", "36-39"]).status, 0)
    XCTAssertEqual(try streams("end.mp4"), ["h264,video,0.400000", "aac,audio,0.400000"])
    XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("end.vtt").path), "no cue in 3.6-4 s")
    XCTAssertEqual(try run(["story.lua", "-o", "mid.mp4", "--frames", "10-29"]).status, 0)
    XCTAssertEqual(try streams("mid.mp4"), ["h264,video,2.000000", "aac,audio,2.000000", "mov_text,subtitle,2.000000"])
    XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("mid.vtt"), encoding: .utf8),
                   "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nSales doubled in a year\n\n00:00:01.200 --> 00:00:02.000\nand kept on growing.\n")
  }

  /// The caption is drawn into the frame while its cue lasts (and fades at its ends).
  func testCaptionsAreBurnedIn() throws {
    try write("c.lua", """
      return cs.scene { width = 320, height = 180, fps = 10, duration = 4,
        captions = { { 1, 2, "Hello" }, { from = 2.5, to = 3, text = "again" } },
        root = cs.chart { data = cs.data.sample()[1] } }
      """)
    func png(_ t: String) throws -> Data {
      let r = try run(["c.lua", "-o", "f\(t).png", "--at", t])
      XCTAssertEqual(r.status, 0, r.stderr)
      return try Data(contentsOf: dir.appendingPathComponent("f\(t).png"))
    }
    let before = try png("0.5"), during = try png("1.5"), after = try png("2.2")
    XCTAssertEqual(before, after)
    XCTAssertNotEqual(before, during)
    // The same cue from a file gives the same frame.
    try write("c.srt", "1\n00:00:01,000 --> 00:00:02,000\nHello\n")
    try write("d.lua", """
      return cs.scene { width = 320, height = 180, fps = 10, duration = 4, captions = "c.srt",
        root = cs.chart { data = cs.data.sample()[1] } }
      """)
    XCTAssertEqual(try run(["d.lua", "-o", "g.png", "--at", "1.5"]).status, 0)
    XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("g.png")), during)
  }

  /// GIF, WebP, APNG and PNG sequences hold no sound: the audio is left out with a warning.
  func testAudioIsLeftOutOfAGIFWithAWarning() throws {
    try story()
    let r = try run(["story.lua", "-o", "story.gif", "--frames", "0-3"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stderr, "warning: the scene's audio is left out: 'story.gif' is a GIF, which holds no sound (write .mp4 or .webm)\n")
  }

  func testBadSoundsAndCaptionsAreOneLine() throws {
    try wav("voice.wav", frequency: 440, seconds: 1)
    try write("picture.wav", "not a sound at all, just text")
    func scene(_ name: String, _ fields: String) throws {
      try write(name, "local s = cs.data.sample()[1]\nreturn cs.scene { width = 200, height = 100, fps = 10, duration = 2,\n  \(fields),\n  root = cs.chart { data = s } }\n")
    }
    try scene("missing.lua", #"audio = { file = "gone.wav" }"#)
    try fails(["missing.lua", "-o", "x.mp4"], "error: missing.lua:2: cannot read 'gone.wav': no such file")
    try scene("notaudio.lua", #"audio = { { file = "voice.wav" }, { file = "picture.wav", at = 1 } }"#)
    try fails(["notaudio.lua", "-o", "x.mp4"], "error: notaudio.lua:2: cannot use 'picture.wav' as audio: it is not a sound file")
    try scene("late.lua", #"audio = { file = "voice.wav", at = 5 }"#)
    try fails(["late.lua", "-o", "x.mp4"], "error: late.lua:2: audio 'voice.wav' starts at 5 s, after the scene ends (duration 2 s)")
    try scene("gain.lua", #"audio = { file = "voice.wav", gain = -1 }"#)
    try fails(["gain.lua", "-o", "x.mp4"], "error: gain.lua:2: bad field 'gain' in audio (must be between 0 and 16, got -1)")
    try scene("key.lua", #"audio = { file = "voice.wav", start = 1 }"#)
    try fails(["key.lua", "-o", "x.mp4"], "error: key.lua:2: unknown key 'start' in audio")

    try write("bad.srt", "1\n00:00:00,500 --> 00:00:01,000\nfine\n\n2\n00:00:01,000 -> 00:00:02,000\nbroken\n")
    try scene("badsrt.lua", #"captions = "bad.srt""#)
    try fails(["badsrt.lua", "-o", "x.mp4"], "error: bad.srt:6: expected 'HH:MM:SS,mmm --> HH:MM:SS,mmm', got '00:00:01,000 -> 00:00:02,000'")
    try write("overlap.srt", "1\n00:00:00,500 --> 00:00:02,000\nA\n\n2\n00:00:01,000 --> 00:00:03,000\nB\n")
    try scene("overlap.lua", #"captions = "overlap.srt""#)
    try fails(["overlap.lua", "-o", "x.mp4"], "error: overlap.srt:6: the cue starts at 00:00:01,000, before the one before it ends (00:00:02,000): cues must be in order and not overlap")
    try write("backwards.srt", "1\n00:00:03,000 --> 00:00:01,000\nA\n")
    try scene("backwards.lua", #"captions = "backwards.srt""#)
    try fails(["backwards.lua", "-o", "x.mp4"], "error: backwards.srt:2: the cue ends (00:00:01,000) before it starts (00:00:03,000)")
    try write("badtime.srt", "1\n00:00:61,000 --> 00:01:02,000\nA\n")
    try scene("badtime.lua", #"captions = "badtime.srt""#)
    try fails(["badtime.lua", "-o", "x.mp4"], "error: badtime.srt:2: bad cue times '00:00:61,000 --> 00:01:02,000'")
    try scene("nosrt.lua", #"captions = "none.srt""#)
    try fails(["nosrt.lua", "-o", "x.mp4"], "error: nosrt.lua:2: cannot read 'none.srt': no such file")
    try scene("table.lua", #"captions = { { 0, 1, "a" }, { 2, 1.5, "b" } }"#)
    try fails(["table.lua", "-o", "x.mp4"], "error: table.lua:2: bad captions[2] in cs.scene: the cue ends (00:00:01,500) before it starts (00:00:02,000)")
    try scene("notext.lua", #"captions = { { 0, 1 } }"#)
    try fails(["notext.lua", "-o", "x.mp4"], "error: notext.lua:2: missing 'text' in captions[1]")
    try scene("outside.lua", #"audio = "/etc/passwd""#)
    try fails(["outside.lua", "-o", "x.mp4"], "error: outside.lua:2: cannot read '/etc/passwd': it is outside the folders a script may read")
  }
}
