/// What a document says about itself for readers who do not see the picture: screen
/// readers, search, a PDF viewer's title bar. The SVG's `<title>`, `<desc>` and one `<g>`
/// per series; the PDF's Title and Subject; the PNG's Title and Description text chunks
/// (`SceneGraph/SceneDescription` makes it from a scene).
public struct DocumentInfo: Sendable, Equatable {
  /// One chart: its title and its series.
  public struct Chart: Sendable, Equatable {
    public var title: String
    public var description: String
    public var series: [Series]
    public init(title: String, description: String, series: [Series]) {
      self.title = title; self.description = description; self.series = series
    }
  }
  /// One series: its name and what its data do in the window shown.
  public struct Series: Sendable, Equatable {
    public var name: String
    public var summary: String
    public init(name: String, summary: String) { self.name = name; self.summary = summary }
  }
  public var title: String
  public var description: String
  /// The language of the texts (BCP 47, e.g. `en`, `pt-BR`).
  public var language: String
  public var charts: [Chart]
  public init(title: String, description: String, language: String = "en", charts: [Chart] = []) {
    self.title = title; self.description = description; self.language = language; self.charts = charts
  }
}
