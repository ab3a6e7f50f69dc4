import ChartModel
import Drawing

/// The document information of a scene at a time (`DocumentInfo`): the title (the scene's
/// `title`, else the first chart's), the description (the scene's `description`, else each
/// chart's: its own `description`, else one made from the data in the window shown, in the
/// scene's locale) and each chart's series.
public enum SceneDescription {
  public static func make(_ scene: Scene, at t: Double) -> DocumentInfo {
    var charts: [DocumentInfo.Chart] = []
    scene.root.walk { node in
      guard let spec = node.chart else { return }
      charts.append(chart(spec, presentation: scene.presentation, at: t))
    }
    let title = nonEmpty(scene.title) ?? charts.lazy.compactMap { nonEmpty($0.title) }.first ?? "chartscene scene"
    let description = nonEmpty(scene.description)
      ?? (charts.isEmpty ? title : charts.map(\.description).joined(separator: "\n"))
    return DocumentInfo(title: title, description: description, language: scene.format.locale.id, charts: charts)
  }

  static func nonEmpty(_ s: String?) -> String? {
    guard let s, s.contains(where: { !$0.isWhitespace }) else { return nil }
    return s
  }

  /// One chart: its title, its series and what they do between the window's first and
  /// last points.
  static func chart(_ spec: ChartSpec, presentation: Presentation, at t: Double) -> DocumentInfo.Chart {
    let set = spec.data
    let format = spec.format
    let title = nonEmpty(spec.title) ?? set.name
    let window = presentation.window(set, at: t)
    let idx = set.indices(in: window)
    var series: [DocumentInfo.Series] = []
    for line in set.lines where presentation.alpha(set, line.id, at: t) > 0 {
      series.append(DocumentInfo.Series(name: line.name, summary: summary(line.values, idx, format: format)))
    }
    if let own = nonEmpty(spec.description) { return DocumentInfo.Chart(title: title, description: own, series: series) }
    var head = title
    if let span = span(set, idx, format: format) { head += head.isEmpty ? span : ", " + span }
    let body = series.map { $0.name + " " + $0.summary }.joined(separator: "; ")
    return DocumentInfo.Chart(title: title, description: body.isEmpty ? head : head + ": " + body, series: series)
  }

  /// The dates of the window's first and last points in the locale (`Feb 10 – Mar 9 2019`,
  /// `10 февр. – 9 мар. 2019 г.`), at the data's precision.
  static func span(_ set: ChartSet, _ idx: Range<Int>, format: DisplayFormat) -> String? {
    guard let first = idx.first, let last = idx.last else { return nil }
    let a = set.xs[first], b = set.xs[last]
    let precision = format.precision(of: set)
    if first == last { return format.poster(a, precision: precision) }
    switch precision {
    case .year: return format.date(a, .year) + " – " + format.date(b, .year)
    case .quarter: return format.date(a, .quarter) + " – " + format.date(b, .quarter)
    case .month: return format.date(a, .yearMonth) + " – " + format.date(b, .yearMonth)
    case .week, .day:
      let sameYear = format.parts(a).year == format.parts(b).year
      return (sameYear ? format.date(a, .monthDay) : format.date(a, .date)) + " – " + format.date(b, .date)
    case .time: return format.poster(a, precision: precision) + " – " + format.poster(b, precision: precision)
    }
  }

  /// A series between its first and last values in the window: in English `rose from 50
  /// to 150`, `fell from`, `stayed at`; in the other locales, which have no such phrases
  /// in the locale files, `50 → 150` (numbers in the locale).
  static func summary(_ values: [Double], _ idx: Range<Int>, format: DisplayFormat) -> String {
    let shown = idx.clamped(to: 0..<values.count)
    guard let a = shown.first(where: { values[$0].isFinite }), let b = shown.last(where: { values[$0].isFinite }) else {
      return format.locale.id == "en" ? "has no values" : "–"
    }
    let from = format.grouped(values[a]), to = format.grouped(values[b])
    guard format.locale.id == "en" else { return from == to ? from : from + " → " + to }
    if from == to { return "stayed at " + from }
    return (values[b] > values[a] ? "rose from " : "fell from ") + from + " to " + to
  }
}
