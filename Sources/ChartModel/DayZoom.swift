import Glibc

/// Zooming into a day (round 2 of the contest): the day's detail file, found next to the
/// overview, replaces the overview while zoomed; a percentage chart shows a pie of the
/// day's shares instead (it needs no file).
public struct DayZoom {
  /// The day as `YYYY-MM-DD` (UTC).
  public var day: String
  /// The day's point in the overview.
  public var index: Int
  /// The day's detail set, shown instead of the overview (nil for a pie).
  public var detail: ChartSet?
  /// The slice pulled out of the pie (a line id), by a tap.
  public var selectedSlice: String?
  public var isPie: Bool { detail == nil }
}

/// Where the detail files of a set's days are.
public struct DayFiles: Sendable {
  /// The folder holding `YYYY-MM-DD.json` or `YYYY-MM/DD.json`.
  public var folder: String
  public init(folder: String) { self.folder = folder }

  /// The two places a day's file may be, in the order they are looked for.
  public func candidates(_ day: String) -> [String] {
    let b = Array(day.utf8)
    guard b.count == 10 else { return [folder + "/" + day + ".json"] }
    return [folder + "/" + day + ".json", folder + "/" + String(day.prefix(7)) + "/" + String(day.suffix(2)) + ".json"]
  }

  /// The first candidate that is a file, or nil.
  public func path(for day: String) -> String? {
    candidates(day).first { FileReader.isRegularFile($0) }
  }
}

extension FileReader {
  /// True when `path` is a regular file (no error for anything else).
  public static func isRegularFile(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
  }
}

extension ChartSet {
  /// `YYYY-MM-DD` of a time (UTC).
  public static func dayText(_ ms: Double) -> String { DateText.iso(ms) }

  /// The overview point of a day given as `YYYY-MM-DD`, or nil when the text is not a day
  /// or the set has no point on it.
  public func index(ofDay day: String) -> Int? {
    guard day.utf8.count == 10, let t = ISODate.parseMs(day) else { return nil }
    let i = nearestIndex(toTime: t)
    guard i < xs.count, ChartSet.dayText(xs[i]) == day else { return nil }
    return i
  }

  /// The window of a zoomed detail set that shows one day (the whole set when it covers
  /// less than a day around it).
  public func window(forDay day: String) -> TimeWindow {
    guard spanMs > 0, let t = ISODate.parseMs(day) else { return .all }
    let lo = fraction(atTime: t), hi = fraction(atTime: t + 86_400_000 - 1)
    if hi - lo <= 0 || lo >= 1 || hi <= 0 { return .all }
    return ChartSet.clampedWindow(lo, min(1, hi), minimumWidth: minimumWindowWidth)
  }
}

extension ChartSet {
  /// Zooms into a day: its detail file (found through `dayFiles`), or a pie for a
  /// percentage chart (`pie`). Errors say why it cannot.
  public func zoomIn(day: String, pie: Bool) throws(DataError) {
    guard let i = index(ofDay: day) else {
      let range = xs.isEmpty ? "" : " (\(ChartSet.dayText(firstMs)) to \(ChartSet.dayText(lastMs)))"
      throw DataError(file: nil, day.utf8.count == 10 && ISODate.parseMs(day) != nil
        ? "\(day) is not a day of '\(name)'\(range)" : "bad day '\(day)' (expected \"YYYY-MM-DD\")")
    }
    if pie {
      zoom = DayZoom(day: day, index: i, detail: nil)
      return
    }
    guard let files = dayFiles else {
      throw DataError(file: nil, "'\(name)' has no day files (load it with cs.data.telegram(path, { days = \"FOLDER\" }))")
    }
    let detail: ChartSet
    if let d = details[day] {
      detail = d
    } else {
      guard let path = files.path(for: day) else {
        throw DataError(file: nil, "no day file for \(day): looked for " + files.candidates(day).map { "'\($0)'" }.joined(separator: " and "))
      }
      onRead?(path)
      let bytes: [UInt8]
      do { bytes = try FileReader.read(path, limit: 64 << 20) } catch { throw DataError(file: nil, error.description) }
      let sets = try TelegramDecoder.decode(bytes, file: path)
      detail = sets[0]
      details[day] = detail
    }
    // The detail shows the day, with the overview's hidden lines hidden.
    detail.setRange(detail.window(forDay: day).lo, detail.window(forDay: day).hi)
    for line in detail.lines { detail.setHidden(line.id, isHidden(line.id)) }
    if detail.visibleLines.isEmpty { for line in detail.lines { detail.setHidden(line.id, false) } }
    zoom = DayZoom(day: day, index: i, detail: detail)
  }

  /// True when a gesture may zoom into point i: a pie for percentage charts, else a day file.
  public func canZoom(index i: Int, pie: Bool) -> Bool {
    guard i >= 0, i < xs.count, zoom == nil else { return false }
    if pie { return true }
    return dayFiles?.path(for: ChartSet.dayText(xs[i])) != nil
  }

  public func zoomOut() { zoom = nil }

  /// Pulls a pie's slice out (nil: none).
  public func selectSlice(_ id: String?) { zoom?.selectedSlice = id }
}
