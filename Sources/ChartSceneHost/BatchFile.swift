import ChartModel
import Glibc

/// A jobs file for `chartscene batch`: one job per line, written as the arguments of a
/// render command (`SCRIPT [--arg K=V ...] [OPTIONS] -o OUT`). Words are split at spaces
/// and tabs; `'...'` keeps everything literally, `"..."` too except `\"` and `\\`; a
/// backslash outside quotes escapes the next character. Blank lines and lines starting
/// with `#` are skipped.
public struct BatchFile {
  public struct Job: Sendable {
    /// The line in the file (from 1).
    public let line: Int
    /// The words, or the message when the line cannot be split.
    public let words: Result<[String], BatchError>
  }
  public struct BatchError: Error, Sendable { public let message: String }

  public let path: String
  public let jobs: [Job]

  /// Reads `path` ("-": standard input).
  public init(path: String) throws(HostError) {
    let bytes: [UInt8]
    if path == "-" {
      var out: [UInt8] = []
      var buf = [UInt8](repeating: 0, count: 65536)
      while true {
        let n = buf.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        out += buf[0..<n]
      }
      bytes = out
    } else {
      do { bytes = try FileReader.read(path, limit: 256 << 20) } catch { throw HostError(error.description) }
    }
    self.init(path: path, text: String(decoding: bytes, as: UTF8.self))
  }

  public init(path: String, text: String) {
    self.path = path
    var jobs: [Job] = []
    for (k, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      jobs.append(Job(line: k + 1, words: BatchFile.split(String(trimmed))))
    }
    self.jobs = jobs
  }

  /// Splits a line into words as a POSIX shell would for plain words and quotes (no
  /// variables, globs or other expansions).
  public static func split(_ line: String) -> Result<[String], BatchError> {
    var words: [String] = []
    var word = ""
    var inWord = false
    var it = line.makeIterator()
    while let c = it.next() {
      switch c {
      case " ", "\t":
        if inWord { words.append(word); word = ""; inWord = false }
      case "'":
        inWord = true
        var closed = false
        while let d = it.next() { if d == "'" { closed = true; break }; word.append(d) }
        if !closed { return .failure(BatchError(message: "unterminated ' quote")) }
      case "\"":
        inWord = true
        var closed = false
        while let d = it.next() {
          if d == "\"" { closed = true; break }
          if d == "\\" {
            guard let e = it.next() else { break }
            if e != "\"" && e != "\\" { word.append("\\") }
            word.append(e)
          } else {
            word.append(d)
          }
        }
        if !closed { return .failure(BatchError(message: "unterminated \" quote")) }
      case "\\":
        inWord = true
        if let e = it.next() { word.append(e) }
      default:
        inWord = true
        word.append(c)
      }
    }
    if inWord { words.append(word) }
    // A NUL cannot be in an argument (the C library would cut a file name there: `-o a\0b.png`
    // wrote `a`).
    if let bad = words.first(where: { $0.utf8.contains(0) }) {
      return .failure(BatchError(message: "'\(FileReader.shownPath(bad))' holds a NUL character, which no argument or file name can hold"))
    }
    return .success(words)
  }
}
