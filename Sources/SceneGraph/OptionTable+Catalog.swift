import ChartModel
import Drawing
import Motion

/// The declared options of the `cs.*` constructors (see `OptionSchema.swift`). A constructor
/// declared here is validated from here from Lua and from presets, and its LuaLS class and its
/// table in docs/lua-api.md are generated from here.
extension OptionTable {
  /// Every declared table, in the order of the LuaLS file.
  public static let all: [OptionTable] = [view, scene, chart, card, vstack, hstack, zstack, spacer, text, canvas, composition, list, carousel, cards, tabs, tab, race, follow, note, band, rule, csv, json, series, seriesLine, tap, longpress, drag, scroll, call, animate, graphicsText, graphicsImage, measure, frame, rotation3d, handlers, telegram, audioClip, caption]

  static let side = Scene.maximumSide

  /// The keys every view takes (the modifiers); a table with `viewKeys` takes them too.
  public static let view = OptionTable("the common view keys", "", "The modifiers every view takes.", viewKeys: false, [
    OptionSpec("id", "string", .string, default: "generated", "a unique id (used by timeline targets and --inspect)", notes: "`duplicate id 'a' (ids must be unique; first used by a text)`. A view without one gets `KIND@PATH`, where PATH is the child indices from the root joined by `/`: `vstack@root`, `text@0`, `chart@0/1`"),
    OptionSpec("padding", "number|number[]", .any, default: "`0`", "a number, {vertical, horizontal} or {top, left, bottom, right}", notes: "each 0 to 16384. The view's content (a chart, a card's body, a stack's children) is laid out inside it"),
    OptionSpec("background", "string", .color, "a colour: \"#RRGGBB\", \"#RRGGBBAA\", \"#RGB\" or a theme colour name", notes: "filling the whole frame, rounded by `cornerRadius`. An opaque background also becomes the halo colour of the chart labels drawn on it"),
    .number("cornerRadius", .closed(-side...side), default: "`0`", "rounds the background and clips to it", notes: "negative counts as 0; a card's body uses it as its radius (12 otherwise)"),
    .number("opacity", .closed(0...1), default: "`1`", "the view and its children composited as one group"),
    OptionSpec("offset", "number[]", .any, default: "`{0, 0}`", "{dx, dy}: drawn moved by this much (layout unchanged)", notes: "each −65536 to 65536; moves the drawing, not the layout (`--inspect` frames are before it)"),
    .number("scale", .closed(0...100), default: "`1`", "drawn scaled about the centre", notes: "drawing only, like `offset`. A view scaled below a millionth (its own scale times its placement's) is not drawn"),
    OptionSpec("rotation3d", "cs.Rotation3D", .any, "turns the view in 3D when drawn", notes: "`{ angle =, axis = {0,1,0}, perspective = 1000 }`: the view and its children are drawn flat, then turned by `angle` degrees (−80 to 80, required) about the vertical axis through the frame's centre (`axis = {0,1,0}`, the default) or the horizontal one (`{1,0,0}`), seen from `perspective` px (1 to 1000000). A positive angle brings the left (or top) edge nearer. It changes the drawing, not the layout; `--inspect` reports the angle. `bad field 'axis' in cs.text rotation3d (a turn about {0, 1, 0} or {1, 0, 0} expected)`, `bad field 'angle' in cs.text rotation3d (must be between -80 and 80, got 90)`, `missing field 'angle' in cs.text rotation3d (degrees)`"),
    OptionSpec("frame", "cs.Frame", .any, "a fixed width and/or height", notes: "`{ width =, height = }`, either or both, 0 to 16384: a fixed size on that axis (the view stops being flexible on it)"),
    OptionSpec("transition", "string|{ edge: string }", .any, default: "`\"opacity\"`", "how it enters and leaves a cs.view (self:add, self:remove) inside cs.animate",
               notes: "**addition**: `\"opacity\"` (fades), `\"scale\"` (grows from nothing), `{ edge = \"left\" }` (`\"right\"`, `\"top\"`, `\"bottom\"`: slides in from beyond that edge of the view's content and out to it). Outside `cs.animate` a child comes and goes at once. `bad field 'transition' in cs.card (\"opacity\", \"scale\" or { edge = \"left\" | \"right\" | \"top\" | \"bottom\" } expected, got 'fade')`"),
    OptionSpec("preset", "string", .string, "a preset name or path whose settings fill in what this view does not set", notes: "it fills in the options the script did not set (a view's own preset wins over the scene's). See [Themes and presets](#themes-and-presets)"),
    OptionSpec("on", "cs.Handlers", .any, "the script's gesture handlers: tap, longpress, drag, press, scroll", notes: "**addition**: `{ tap = function(self, e) end, longpress = …, drag = … }`; see [Gesture handlers](#gesture-handlers-on)"),
  ])

  public static let carousel = OptionTable("cs.carousel", "cs.CarouselOptions", "A horizontal carousel, each item turned in 3D.", arrayOf: "cs.View", preset: "carousel", [
    .number("spacing", .closed(0...1000), default: "`16`", "space between items", preset: true),
    .number("itemWidth", .closed(1...side), default: "75 % of the carousel's width", "width of an item", notes: "at most 75 % of the width (60 % when the carousel is taller than wide), so the neighbours show: `bad field 'itemWidth' in cs.carousel (must be between 1 and 16384, got 0)`",
            preset: true),
    .number("angle", .closed(-80...80), default: "`30`", "degrees of turn one place from the centre",
            notes: "`bad field 'angle' in cs.carousel (must be between -80 and 80, got 90)`", preset: true),
    .number("scroll", .closed(-10000...10000), default: "`0`", "initial position in scene pixels",
            notes: "0 centres the first item, `itemWidth + spacing` centres the second; clamped to the items"),
  ])

  public static let list = OptionTable("cs.list", "cs.ListOptions", "A scrolling list.", arrayOf: "cs.View", preset: "list", [
    .number("spacing", .closed(0...1000), default: "`12`", "space between rows", notes: "`bad field 'spacing' in cs.list (must be between 0 and 1000, got -1)`", preset: true),
    .number("rowHeight", .closed(1...side), default: "80 % of the list's width (at least 240), but no more than the list's height",
            "height of a row that has no `frame = { height = }` of its own", notes: "`bad field 'rowHeight' in cs.list (must be between 1 and 16384, got 1e+30)`", preset: true),
    .number("scroll", .closed(-10000 * side...10000 * side), default: "`0`", "initial scroll offset in scene pixels from the top",
            notes: "clamped to 0 … (content height − list height). `--inspect` shows the clamped value"),
  ])

  public static let cards = OptionTable("cs.cards", "cs.CardsOptions", "A stack of cards: drag the top one down to send it back, tap to open it.", arrayOf: "cs.View", preset: "cards", [
    .number("scaleStep", .atLeast(0, below: 0.5), default: "`0.06`", "how much smaller each deeper card is",
            notes: "`bad field 'scaleStep' in cs.cards (must be at least 0 and below 0.5, got 0.7)`", preset: true),
    .number("offsetStep", .closed(0...1000), default: "`40`", "how far each deeper card peeks out above the one in front", notes: "40 shows the card's title", preset: true),
    OptionSpec("order", "string[]", .table, default: "the children's order", "card ids, front to back",
               notes: "they must be ids given by the script to children: `bad field 'order' in cs.cards (no card with id 'x'; cards are 'a')`, `bad field 'order' in cs.cards (an id appears twice)`. Children it does not name follow, in their order"),
    OptionSpec("modal", "string", .string, "the id of a chart or card child to present",
               notes: "`bad field 'modal' in cs.cards (no card with id 'b')`, `bad field 'modal' in cs.cards ('a' is not a chart or card)`"),
  ])

  public static let tabs = OptionTable("cs.tabs", "cs.TabsOptions", "Tabs, one view each.", arrayOf: "cs.Tab", [
    OptionSpec("selected", "integer|string", .any, default: "`1`", "the tab shown: its number (1-based) or its title",
               notes: "`bad field 'selected' in cs.tabs (a tab number from 1 to 1, or a title)`, `bad field 'selected' in cs.tabs (no tab titled 'B'; tabs are 'A')`"),
  ])

  /// One tab of `cs.tabs` (checked with the owner `cs.tabs tab #N`).
  public static let tab = OptionTable("cs.tabs tab", "cs.Tab", "One tab of cs.tabs.", viewKeys: false, [
    OptionSpec("title", "string", .string, "the tab's title", notes: "`missing field 'title' in cs.tabs tab #1`", required: true),
    OptionSpec("view", "cs.View", .view, "the tab's view, placed once like any child", required: true),
    OptionSpec("icon", "cs.TabIcon", .choice(["list", "carousel", "cards", "chart"]), default: "`\"chart\"`", "an icon before the title",
               notes: "`invalid icon 'star' in cs.tabs tab #1, expected one of: 'list', 'carousel', 'cards', 'chart'`"),
  ])

  public static let race = OptionTable("cs.race", "cs.RaceOptions", "A bar chart race (or a line race) over a set's time axis.", [
    OptionSpec("data", "cs.ChartSet", .any, "the set", notes: "`missing field 'data' in cs.race (a ChartSet from cs.data.*)`", required: true),
    .number("top", .closed(1...50), default: "`10`", "bars shown"),
    .number("period", .closed(0.01...3600), default: "`0.5`", "seconds per point of the data"),
    OptionSpec("title", "string", .string, "a title at the top left"),
    OptionSpec("dateFormat", "string", .string, default: "`\"%b %Y\"`", "an `os.date` pattern (UTC) for the date"),
    OptionSpec("kind", "cs.RaceKind", .choice(["bar", "line"]), default: "`\"bar\"`", "bars, or lines that draw themselves",
               notes: "`\"line\"`: a **line race** — the top lines draw themselves as time passes (now at the right edge, the first point at the left, Y from 0 to the largest value shown so far), each with a dot, its name and its value at the tip; labels are pushed apart so none covers another; lines leaving the top fade"),
    OptionSpec("images", "table<string, string>", .table, "a PNG per line id, next to the script, drawn after the bar (or beside the line's label)",
               notes: "`{ s1 = \"logo.png\", ... }`, read with `cs.image` under the rules of data files: drawn as a square after the bar, before its value (a line race: before the name). `bad field 'images' in cs.race: the data has no line 'nope'`"),
  ])

  public static let follow = OptionTable("cs.follow", "cs.FollowOptions", "A camera that keeps a set's window on the newest data.", viewKeys: false, [
    OptionSpec("data", "cs.ChartSet", .any, default: "— (this or `chart`)", "the set whose window moves (every chart showing it follows)",
               notes: "`missing field 'data' in cs.follow (the ChartSet whose window it moves, or chart = ID)`"),
    OptionSpec("chart", "string", .string, default: "— (this or `data`)", "the id of the chart or card whose set's window moves",
               notes: "found on the first tick through `cs.chartGeometry(id).data`: `bad field 'chart' in cs.follow (no chart 'nope' (charts: 'c'))`, at the line that called `cs.follow`; `cs.follow takes 'data' (a ChartSet) or 'chart' (a chart's id), not both`"),
    .number("window", .closed(0.001...1e13), "seconds of data the window shows", notes: "60 days: `60 * 86400`; at least the set's minimum window", required: true),
    .number("duration", .closed(0.001...86400), "scene seconds the right edge takes to reach the last point", required: true),
    .number("from", .closed(0...86400), default: "`0`", "scene seconds when it starts moving"),
    .number("start", .closed(0...1), default: "the window's width", "where the right edge starts, a fraction of the time axis", notes: "at least the window's width"),
    OptionSpec("curve", "cs.FollowCurve", .choice(["linear", "easeIn", "easeOut", "easeInOut"]), default: "`\"easeInOut\"`", "how the right edge goes from `start` to the end"),
  ])

  // MARK: Charts

  static let chartData = OptionSpec("data", "cs.ChartSet", .any, "the data: a ChartSet from cs.data.*",
                                    notes: "`missing field 'data' in cs.chart (a ChartSet from cs.data.*)`, `bad field 'data' in cs.chart (ChartSet (from cs.data.*) expected, got table)`", required: true)
  static let chartTitle = OptionSpec("title", "string", .string, default: "the set's name", "the title; `\"\"` shows none",
                                     notes: "**addition**: `{value:LINE}` and `{time}` fields follow time (see [Text that follows time](#text-that-follows-time)): values at the indicator when it shows, else at the window's last point")
  static let chartDescription = OptionSpec("description", "string", .string, default: "made from the data", "what the chart shows, for readers who do not see it",
                                           notes: "**addition**: the SVG's `<desc>`, the PDF's Subject and the PNG's Description (with the scene's); without it one is made from the window shown, in the scene's locale (`Followers, Feb 10 – Mar 9 2019: Joined rose from 50 to 150; ...`; see [Outputs for every reader](#outputs-for-every-reader)). `bad field 'description' in cs.chart (string expected, got number)`")
  static let annotations = OptionSpec("annotations", "cs.Annotation[]", .any, "marks pinned to the data: cs.note, cs.band, cs.rule",
                                      notes: "**addition**: `{ cs.note{...}, cs.band{...}, cs.rule{...} }` (see [Annotations](#annotations-csnote-csband-csrule))")
  static let xAxis = OptionSpec.boolean("xAxis", default: "`true`", "show the date labels under the plot", preset: true)
  static let yAxis = OptionSpec.boolean("yAxis", default: "`true`", "show the Y grid and its labels", preset: true)
  static let lineWidth = OptionSpec.number("lineWidth", .above(0, atMost: 50), default: "`2`", "width of the lines",
                                           notes: "`bad field 'lineWidth' in cs.chart (must be above 0 and at most 50, got 0)`", preset: true)
  static let yLabels = OptionSpec("yLabels", "cs.YLabels", .choice(YLabelPlacement.allCases.map(\.rawValue)),
                                  default: "`\"inside\"` for lines, `\"outside\"` for bars, areas, stacks and percentages",
                                  "where the Y labels go: over the lines or in a gutter left of the plot",
                                  notes: "**addition**: `\"inside\"` draws the Y labels over the lines at the plot's left edge, with a halo in the surface colour (the contest's look; over bars and areas on an opaque backing in the surface colour, so they read at 4.5:1 or more); `\"outside\"` puts them right-aligned in a gutter left of the plot (for report pictures; the X axis and plot narrow by the gutter, reported as `parts.yGutter`; a two-axis chart's right labels go left-aligned in a gutter right of the plot, `parts[\"yGutter.right\"]`). Labels are drawn in `axisText` (4.5:1 or more on the themes' backgrounds); a two-axis chart's in its lines' colours, darkened (day) or lightened (night) until they read at 4.5:1. `invalid yLabels 'left' in cs.chart, expected one of: 'inside', 'outside'`")
  /// The round-two keys: each overrides what the data says (ChartStyle).
  static let chartTypes: [OptionSpec] = [
    OptionSpec("type", "cs.LineType", .choice(SeriesKind.allCases.map(\.rawValue)), default: "each line's own type", "draw every line as this",
               notes: "`invalid type 'pie' in cs.chart, expected one of: 'line', 'bar', 'area'`. Without it each line keeps its own type (a set may mix lines and bars)"),
    .boolean("stacked", default: "the data's `stacked`", "stack the lines on each other, first line at the bottom",
             notes: "`bad field 'stacked' in cs.chart (boolean expected, got number)`"),
    .boolean("percentage", default: "the data's `percentage`", "stacked, each point scaled to 100 %", notes: "it implies `stacked = true`"),
    .boolean("yScaled", default: "the data's `y_scaled`", "two Y axes, left and right", notes: "needs two or more lines and no stacking; ignored otherwise"),
  ]

  public static let chart = OptionTable("cs.chart", "cs.ChartOptions", "A chart: lines of a time window, Y grid, date labels, indicator, mini-map and check marks.", preset: "chart", [
    chartData, chartTitle, chartDescription, annotations,
    .boolean("minimap", default: "`true`", "show the mini-map of the whole axis, the window framed and the outside dimmed", preset: true),
    .boolean("legend", default: "`true`", "show one check-mark chip per line, in line order, wrapping", notes: "a hidden line's chip is an outline. A legend too long for its room ends with an outlined `+ 122 more` chip (see below)", preset: true),
    .boolean("indicator", default: "`true`", "allow the crosshair", notes: "it shows only where `indicatorAt` puts it", preset: true),
    {
      var o = OptionSpec("indicatorAt", "number", .number(.closed(0...1)), "where the crosshair stands, a fraction of the whole time axis",
                         notes: "**addition**: snapped to the nearest point. It draws the vertical line, a ring per visible line and the poster (date, then each visible line's name and value). It is hidden when the point lies outside the window. `bad field 'indicatorAt' in cs.chart (a fraction of the time axis, 0 to 1, expected; got 1.5)`")
      o.outOfRange = { "a fraction of the time axis, 0 to 1, expected; got \($0)" }
      return o
    }(),
    xAxis, yAxis, lineWidth, yLabels,
  ] + chartTypes)

  public static let card = OptionTable("cs.card", "cs.CardOptions", "A card: a chart on a rounded card with a title.", [
    chartData, chartTitle, chartDescription, lineWidth, xAxis, yAxis, yLabels,
  ] + chartTypes + [annotations])

  // MARK: Layout

  static func stack(_ name: String, _ className: String, _ doc: String, spacing: String, _ spacingDoc: String, notes: String? = nil) -> OptionTable {
    OptionTable("cs.\(name)", className, doc, arrayOf: "cs.View", [
      .number("spacing", .closed(0...side), default: spacing, spacingDoc, notes: notes),
      OptionSpec("align", "cs.Align", .choice(Alignment.allCases.map(\.rawValue)), default: "`\"center\"`", "how children are aligned across the stack",
                 notes: "`leading`/`trailing` act in a `vstack` (horizontal placement), `top`/`bottom` in an `hstack` (vertical placement), all five in a `zstack`; the others mean centre"),
    ])
  }

  public static let vstack = stack("vstack", "cs.StackOptions", "Children stacked top to bottom.", spacing: "`8`", "space between children",
                                   notes: "children never overlap through negative spacing; use `offset` to overlap them: `bad field 'spacing' in cs.vstack (must be between 0 and 16384, got -1e+30)`")
  public static let hstack = stack("hstack", "cs.HStackOptions", "Children side by side.", spacing: "`8`", "space between children")
  /// A z-stack has no gaps: `spacing` is accepted (and checked) like a stack's, for code that
  /// builds any stack, and changes nothing.
  public static let zstack = stack("zstack", "cs.ZStackOptions", "Children on top of each other.", spacing: "`0`", "accepted like a stack's and unused: children on top of each other have no gaps")

  public static let spacer = OptionTable("cs.spacer", "cs.SpacerOptions", "Flexible empty space.", [
    .number("minLength", .closed(0...side), default: "`0`", "the least it takes along its stack"),
  ])

  public static let text = OptionTable("cs.text", "cs.TextOptions", "One line of text.", [
    OptionSpec("text", "string", .any, "the text; {value:LINE|FORMAT} and {time:PATTERN} fields read `data`",
               notes: "`missing field 'text' in cs.text`, `bad field 'text' in cs.text (string expected, got number)` (use `tostring(n)`)", required: true),
    OptionSpec("data", "cs.ChartSet", .any, "the set a template's fields read (at its window's last point)",
               notes: "**addition**: see [Text that follows time](#text-that-follows-time). Required when `text` has fields"),
    fontSize("`15`"), weight,
    OptionSpec("color", "string", .color, default: "`\"text\"`", "text colour: a colour or a theme colour name"),
    OptionSpec("align", "cs.TextAlign", .choice(TextAlign.allCases.map(\.rawValue)), default: "`\"left\"` (`\"right\"` for a right-to-left text)", "alignment within the frame",
               notes: "it matters when the frame is wider than the text, e.g. with `frame = { width = }`"),
  ])

  // MARK: Data

  /// The options of `cs.data.csv` and `cs.data.json` (which has no `delimiter`).
  static let tableOptions: [OptionSpec] = [
    OptionSpec("name", "string", .string, default: "the file name without its extension", "the set's name"),
    OptionSpec("x", "string|integer", .any, default: "the first column whose values read as times", "the time column: a header name or a 1-based index", notes: "`x = \"Date\"` (exact, else any case), `x = 2`"),
    OptionSpec("timeFormat", "string", .string, default: "found from the column", "a strftime-style pattern such as \"%d/%m/%Y %H:%M\"", notes: "`%Y` year, `%y` two-digit year (69–99 → 19xx, else 20xx), `%m` month, `%d`/`%e` day, `%H` hour, `%I` hour 1–12 with `%p` AM/PM, `%M` minute, `%S` second, `%f` fraction of a second, `%b`/`%B`/`%h` month name or abbreviation, `%a`/`%A` weekday name (skipped), `%j` day of the year, `%q` quarter 1–4 (its first month; `timeFormat = \"%YQ%q\"`), `%z` offset (`Z`, `+hh:mm`, `+hhmm`), `%s` UNIX seconds, `%F` = `%Y-%m-%d`, `%T` = `%H:%M:%S`, `%D` = `%m/%d/%y`, `%%` a `%`; a `%Y` that ends the pattern also reads a year written as a float (`1700.0`); a space matches any run of spaces, other characters themselves. Without `x`, the time column is the first that reads with it. `timeFormat = \"%d/%m/%Y %H:%M\"`"),
    OptionSpec("columns", "string|integer|(string|integer)[]", .any, default: "every column of numbers", "the columns that become lines", notes: "in this order: names or indices, `columns = { \"Open\", \"Close\" }`, `columns = { 2, 5 }` (or one: `columns = \"Close\"`)"),
    OptionSpec("series", "string|integer", .any, default: "none", "long data: the column whose values name the lines", notes: "(\"tidy\" data) one line per distinct value of the `series` column, in order of first appearance, with the numbers of the `value` column: `{ series = \"symbol\", value = \"price\" }`. The times are all the rows' times; a time missing for one series is a gap in its line. Both must be given, and not with `columns`"),
    OptionSpec("value", "string|integer", .any, default: "none", "long data: the column of numbers", notes: "with `series`: see `series`"),
    OptionSpec("missing", "string|string[]", .any, default: "`{ \"\", \"NA\", \"N/A\", \"NaN\", \"nan\", \"null\", \"NULL\", \"-\" }`", "cell texts that mean no value (a gap)", notes: "a list, or one string. `missing = { \"\", \"n/a\", \"--\" }` replaces the default. A marker that reads as a number is a gap too: with `missing = { \"\", \"-999\" }` a cell `-999` is a gap and `-999.5` a value"),
    OptionSpec("sort", "boolean", .boolean, default: "`true`", "sort the rows by time", notes: "`false`: times must already increase (`line 3: times must increase ('2000-01-01' is before the previous row's); pass sort = true to sort the rows`)"),
    OptionSpec("gaps", "boolean", .boolean, default: "`true`", "a row missing from regularly stepped data is a gap in the lines", notes: "`false`: the lines bridge it, as the rows say"),
    OptionSpec("names", "string[]|table<string, string>", .any, default: "the header cells (the series values)", "line names in order, or by column or series name", notes: "`names = { \"Apple\", \"Microsoft\" }`, `names = { AAPL = \"Apple\" }`"),
    OptionSpec("colors", "string[]|table<string, string>", .any, default: "the palette", "line colours in order, or by column or series name", notes: "`\"#RRGGBB\"`; after a list the palette continues; `colors = { Oslo = \"#3497ED\" }`"),
  ]

  public static let csv = OptionTable("cs.data.csv", "cs.CSVOptions", "How a CSV file is read.", viewKeys: false, listsKeys: true,
                                      tableOptions.prefix(7) + [
    OptionSpec("delimiter", "string", .string, default: "found from the header line", "one character, or \"tab\"", notes: "`delimiter = \";\"`; `\"\\t\"` or `\"tab\"` for tab")
  ] + tableOptions.dropFirst(7))

  public static let json = OptionTable("cs.data.json", "cs.JSONOptions", "How JSON records are read.", viewKeys: false, listsKeys: true,
                                       documentedWith: "cs.data.csv", tableOptions)

  // MARK: Annotations

  static let time = "number|string"
  /// The keys every mark takes.
  static func markKeys(_ colour: String, appear: String = "") -> [OptionSpec] {
    [
      OptionSpec("text", "string", .string, "the label"),
      OptionSpec("color", "string", .color, default: colour, "the mark's colour"),
      .number("appear", .closed(0...86_400), "scene seconds when it fades in (over 0.3 s)"),
      .number("disappear", .closed(0...86_400), "scene seconds when it fades out (over 0.3 s), after `appear`",
              notes: "`bad field 'disappear' in cs.note (must be after 'appear', got 1 and 2)`"),
    ]
  }

  public static let note = OptionTable("cs.note", "cs.NoteOptions", "A point of a chart's data with a label.", viewKeys: false, [
    OptionSpec("at", time, .any, "the time: UNIX ms or \"YYYY-MM-DD[THH:MM[:SS]]\" (UTC)",
               notes: "`missing field 'at' in cs.note (a time: UNIX ms or 'YYYY-MM-DD[THH:MM]')`", required: true),
    OptionSpec("value", "number", .any, default: "on `line`: its value at `at`", "the value (required unless line is given)",
               notes: "`missing field 'value' in cs.note (a number, or line = ID to sit on that line)`"),
    OptionSpec("line", "string", .string, "a line id or name: the note sits on it (its value at `at`) in its colour",
               notes: "on a two-axis chart a line of the right axis is measured on that axis; `bad field 'line' in cs.note (no line 'nope' in 'Sign-ups'; lines are 'signups', 'paid')`"),
  ] + markKeys("the line's, else `accent`"))

  public static let band = OptionTable("cs.band", "cs.BandOptions", "A span of time shaded over a chart's plot.", viewKeys: false, [
    OptionSpec("from", time, .any, "the start: UNIX ms or \"YYYY-MM-DD[THH:MM[:SS]]\"",
               notes: "`bad field 'from' in cs.band (a time expected: UNIX ms or 'YYYY-MM-DD[THH:MM[:SS]]', got 'soon')`", required: true),
    OptionSpec("to", time, .any, "the end, after from", notes: "`bad field 'to' in cs.band (must be after 'from')`", required: true),
  ] + markKeys("`accent` (shaded 12 %)"))

  public static let rule = OptionTable("cs.rule", "cs.RuleOptions", "A dashed line across a chart's plot at a value or a time.", viewKeys: false, [
    OptionSpec("value", "number", .any, "a horizontal line at this value (or at)",
               notes: "`cs.rule takes 'value' (a horizontal line) or 'at' (a vertical one), one of them`"),
    OptionSpec("at", time, .any, "a vertical line at this time (or value)"),
  ] + markKeys("`secondaryText`"))

  // MARK: The scene

  public static let scene = OptionTable("cs.scene", "cs.SceneOptions", "A scene: the root view, its size, theme and time.", viewKeys: false, [
    OptionSpec("root", "cs.View", .view, "the view to draw", notes: "`missing field 'root' in cs.scene (the view to draw, e.g. cs.chart{...})`", required: true),
    .number("width", .closed(1...side), default: "`720`", "scene pixels", notes: "`bad field 'width' in cs.scene (must be between 1 and 16384, got 0)`"),
    .number("height", .closed(1...side), default: "`1280`", "scene pixels"),
    OptionSpec("theme", "cs.ThemeName|cs.Theme|string", .any, default: "`\"day\"`", "\"day\", \"night\" or a theme table", notes: "see [Themes](#themes-and-presets)"),
    OptionSpec("background", "string", .color, default: "the theme's `background`", "painted under the whole scene", notes: "a colour (`\"#RRGGBB\"`, `\"#RRGGBBAA\"`, `\"#RGB\"` or a theme colour name) painted under the whole scene; a transparent one gives an RGBA PNG"),
    .number("fps", .closed(1...240), default: "`60`", "frames per second of an animated scene", notes: "accepted and reported by `scene.fps`, unused by stills"),
    .number("duration", .closed(0...3600), default: "`0`", "seconds; above 0 the scene is animated", notes: "when above 0 and no `-o` is given, the default output is `SCRIPT.mp4` (see [Command line](#command-line))"),
    OptionSpec("timeline", "cs.Event[]", .any, "gestures and calls at set times", notes: "see [motion.md](motion.md)"),
    OptionSpec("update", "fun(t: number, dt: number)", .function, "called on every tick of an animated scene with the time and the step"),
    OptionSpec("preset", "string", .string, "a preset for the whole scene", notes: "a preset name or path ([Themes and presets](#themes-and-presets)): its colours become the scene's theme unless `theme` is given, its `scene.background` applies unless `background` is given, and its view settings fill in every view option the script did not set"),
    OptionSpec("locale", "string", .string, default: "`\"en\"`", "how dates and numbers are written", notes: "`\"en\"`, `\"es\"`, `\"fr\"`, `\"de\"`, `\"pt-BR\"`, `\"ru\"`, `\"uk\"`, `\"zh-Hans\"`, `\"ja\"`, `\"ko\"`, `\"ar\"`, `\"he\"`, `\"hi\"` (a region variant such as `\"ru-RU\"` finds its language); see [locales.md](locales.md); `unknown locale 'russian' (nearest: 'ru', 'en', 'es'; all: ...) in cs.scene`"),
    OptionSpec("timezone", "string", .string, default: "`\"UTC\"`", "the IANA time zone dates are shown in, e.g. \"Europe/Oslo\"", notes: "read from `/usr/share/zoneinfo`; see [locales.md](locales.md); `unknown time zone 'Europe/Olso' (nearest: 'Europe/Oslo', ...) in cs.scene`"),
    OptionSpec("fonts", "string[]", .any, "font files (.ttf, .otf, .ttc) next to the script, put in front of the bundled fonts", notes: "a list of font files (`.ttf`, `.otf`, `.ttc`, at most 32), relative to the script and read under the rules of data files, put in front of the bundled fonts ([Languages and fonts](languages.md)): `cannot read font 'fonts/Brand.ttf' in cs.scene: no such file`, `'logo.png' in cs.scene is not a font file fontconfig can read (expected .ttf, .otf or .ttc)`"),
    OptionSpec("font", "string", .string, default: "`\"Inter\"`", "the family of every text of the scene (one of `fonts` or a bundled one)", notes: "from `fonts` or the bundled ones; characters it lacks still come from the bundled fonts: `unknown font family 'Brnad' in cs.scene (did you mean 'Brand'?)`"),
    OptionSpec("audio", "string|cs.AudioClip|cs.AudioClip[]", .any, "sound mixed into an MP4 or WebM: a file next to the script, a clip or a list of clips", notes: "see [Sound and captions](#sound-and-captions-audio-captions)"),
    OptionSpec("captions", "string|cs.Caption[]|table[]", .any, "subtitles: a .srt or .vtt file next to the script, or a list of cues", notes: "drawn into the frames, and a subtitle track and .vtt beside a video"),
    OptionSpec("title", "string", .string, default: "the first chart's title", "the document's title (SVG `<title>`, PDF Title, PNG Title)", notes: "**addition**: never drawn; see [Outputs for every reader](#outputs-for-every-reader)"),
    OptionSpec("description", "string", .string, default: "the charts' descriptions", "what the scene shows, for readers who do not see it (SVG `<desc>`, PDF Subject, PNG Description)", notes: "**addition**: never drawn; `bad field 'description' in cs.scene (string expected, got number)`"),
  ])

  // MARK: Custom views

  public static let canvas = OptionTable("cs.canvas", "cs.CanvasOptions", "Custom drawing.", [
    OptionSpec("draw", "fun(g: cs.Graphics, w: number, h: number, t: number)", .function, "draws the canvas: called at render time with the graphics object, the content size and the time",
               notes: "see [Renderer](#renderer-inside-cscanvas). `missing field 'draw' in cs.canvas (a function(g, w, h, t))`, `bad field 'draw' in cs.canvas (function expected, got number)`", required: true),
  ])

  public static let composition = OptionTable("cs.view", "cs.ViewOptions", "A composition written in Lua: its state, a layout that places the children from it, and handlers.", arrayOf: "cs.View", [
    OptionSpec("kind", "string", .string, default: "`\"view\"`", "the name --inspect shows; a preset's section of the same name fills `options`", notes: "letters, digits, `_`, `-` (at most 64); `list = { spacing = 8 }` in a preset fills a list's"),
    OptionSpec("state", "table", .table, default: "`{}`", "the composition's own table (numbers, strings, booleans, tables of them): self.state", notes: "copied"),
    OptionSpec("animates", "boolean|string[]", .any, default: "none: a change inside `cs.animate` moves the children",
               "state keys whose numbers move by value inside `cs.animate` (SwiftUI's animatableData); `true`: every key",
               notes: "**addition**: each a key of the state holding a number or a table of numbers; the layout then runs every frame while they move, with the numbers as shown (a carousel's turn travels its arc). Any other change inside `cs.animate` lays out once for the new state and moves each child from where it is drawn to its new place. `bad field 'animates' in cs.view ('name' is a string in the state, not a number or a table of numbers)`"),
    OptionSpec("layout", "fun(self: cs.LayoutView, w: number, h: number)", .function, default: "none (every child fills the content frame)",
               "places each self.children[i] (frame, offset, scale, opacity, rotation3d, z, hidden, clip) from self.state as shown", notes: "`function(self, w, h)`: `w`, `h` are the content size; sets fields of `self.children[i]` (below). Called when the state or the size changes and while a number of `animates` moves, never on a frame where nothing moved nor while the children move by identity"),
    OptionSpec("options", "table<string, number|string|boolean>", .table, default: "`{}`", "settings a preset may fill: self.options"),
    .boolean("clip", default: "`false`", "clip the children to the content frame"),
    OptionSpec("scrolls", "cs.ScrollAxis", .choice(ScrollAxis.allCases.map(\.rawValue)), "its drag handler takes drags along this axis that begin on a chart's plot or a view inside",
               notes: "without a drag handler of their own, and the wheel"),
    OptionSpec("inspect", "fun(self: cs.View): table", .function, "more fields for --inspect (cs.null for null)", notes: "keys sorted"),
    OptionSpec("draw", "fun(self: cs.View, g: cs.Graphics, w: number, h: number, t: number)", .function, "draws the view itself, behind its children, in content coordinates",
               notes: "with the canvas API (the tab bar of `cs.tabs`)"),
  ])

  // MARK: Inline data

  public static let series = OptionTable("cs.data.series", "cs.SeriesOptions", "A ChartSet from inline tables.", viewKeys: false, listsKeys: true, [
    OptionSpec("name", "string", .string, default: "`\"Series\"`", "the set's name"),
    OptionSpec("x", "number[]", .any, "times in UNIX milliseconds, increasing", notes: "`missing field 'x' in cs.data.series (a list of times in ms)`", required: true),
    OptionSpec("lines", "cs.SeriesLine[]", .any, "the lines", notes: "`missing field 'lines' in cs.data.series`", required: true),
  ])

  /// One line of `cs.data.series` (checked with the owner `cs.data.series lines[N]`).
  public static let seriesLine = OptionTable("cs.data.series lines", "cs.SeriesLine", "One line of cs.data.series.", viewKeys: false, listsKeys: true, [
    OptionSpec("id", "string", .string, default: "`y0`, `y1`, ... in order", "the line's id"),
    OptionSpec("name", "string", .string, default: "its id", "the line's name"),
    OptionSpec("color", "string", .any, default: "the palette", "\"#RRGGBB\"", notes: "`bad colour 'red' in cs.data.series lines[1] (expected '#RRGGBB')`"),
    OptionSpec("values", "number[]", .any, "one value per x; nan is a gap", notes: "`missing field 'values' in cs.data.series lines[1]`", required: true),
    OptionSpec("type", "cs.LineType", .choice(SeriesKind.allCases.map(\.rawValue)), default: "`\"line\"`", "how the data asks to be drawn"),
  ])

  // MARK: The timeline

  /// The keys of every pointer event: when, and where.
  static func eventKeys(_ target: String = "a node id or a part like \"views.minimap.window\"") -> [OptionSpec] {
    [
      {
        var o = OptionSpec.number("at", .closed(0...Double.infinity), "seconds into the scene", notes: "`missing field 'at' in cs.tap (seconds)`", required: true)
        o.outOfRange = { _ in "must not be negative" }
        return o
      }(),
      OptionSpec("target", "string", .string, target, notes: "or `pos`: `cs.tap takes 'target' or 'pos', not both`"),
      OptionSpec("pos", "number[]", .any, "{x, y} in scene pixels instead of a target"),
    ]
  }

  static func seconds(_ key: String, _ d: String, _ doc: String) -> OptionSpec { .number(key, .closed(0...3600), default: d, doc) }

  public static let tap = OptionTable("cs.tap", "cs.TapOptions", "A tap at a time.", viewKeys: false, eventKeys())
  public static let longpress = OptionTable("cs.longpress", "cs.LongpressOptions", "A long press.", viewKeys: false,
                                            eventKeys() + [seconds("duration", "`0.5`", "how long it is held")])
  public static let drag = OptionTable("cs.drag", "cs.DragOptions", "A drag.", viewKeys: false, eventKeys() + [
    OptionSpec("by", "number[]", .any, "{dx, dy}", notes: "`by` or `to`: `cs.drag takes 'by' or 'to' (one of them)`"),
    OptionSpec("to", "number[]", .any, "{x, y} where it ends"),
    OptionSpec("from", "number[]", .any, "{x, y} where it starts"),
    seconds("duration", "`0.4`", "seconds the movement takes"),
    seconds("hold", "`0`", "seconds held before moving (a long press then drag: the cards' sequenced gesture)"),
    .boolean("flick", default: "`false`", "move at one speed and let go while moving, so what it drags carries on",
             notes: "**addition**; by default the hand slows to a stop before letting go"),
    OptionSpec("velocity", "number[]", .any, "{vx, vy}: the speed (px/s) it lets go at, what `--record` measured when the hand let go while moving; implies `flick`",
               notes: "**addition** (issue 36); `bad field 'velocity' in cs.drag (px/s, -1000000 to 1000000)`"),
  ])
  public static let scroll = OptionTable("cs.scroll", "cs.ScrollOptions", "A wheel scroll.", viewKeys: false, eventKeys() + [
    OptionSpec("by", "number[]", .any, "{dx, dy}", notes: "`missing field 'by' in cs.scroll ({dx, dy})`", required: true),
    seconds("duration", "`0.3`", "seconds the scroll takes"),
  ])
  public static let call = OptionTable("cs.call", "cs.CallOptions", "Calls a function at a time.", viewKeys: false, [
    .number("at", .closed(0...Double.infinity), "seconds into the scene", notes: "`missing field 'at' in cs.call (seconds)`", required: true),
    OptionSpec("fn", "fun(scene: cs.Scene)", .function, "the function, called with the scene", notes: "`missing field 'fn' in cs.call (a function(scene))`", required: true),
  ])

  public static let animate = OptionTable("cs.animate", "cs.AnimateOptions", "How the changes inside cs.animate move.", viewKeys: false, [
    .number("duration", .closed(0...3600), default: "the curve's own", "seconds"),
    OptionSpec("curve", "cs.Curve", .choice(Curve.names), default: "`\"easeInOut\"`", "the timing curve",
               notes: "**addition**: `\"decay\"` is a flick gliding to a stop (time constant a quarter of `duration`). `invalid curve 'bouncy' in cs.animate, expected one of: 'linear', 'easeInOut', 'spring', 'decay'`"),
    .number("delay", .closed(0...3600), default: "`0`", "seconds before the motion starts"),
    .number("response", .closed(0.01...600), default: "`duration` / 1.6", "a spring's period in seconds",
            notes: "`duration` then defaults to 1.6 periods; with a shorter `duration` the spring is made stiffer to settle in time; only with `curve = \"spring\"`"),
    .number("velocity", .closed(-1e9...1e9), "the speed, per second, the state numbers changed inside start with (a flick's)",
            notes: "`-e.vy` for a scroll offset; kept continuous by the curve"),
  ])

  // MARK: Drawing

  /// A font size, for `cs.text`, `g:text` and `cs.measure` alike.
  static func fontSize(_ d: String) -> OptionSpec { .number("size", .above(0, atMost: 1000), default: d, "font size in scene pixels") }
  static let weight = OptionSpec("weight", "cs.Weight", .choice(Font.Weight.allCases.map(\.rawValue)), default: "`\"regular\"`", "font weight")

  public static let graphicsText = OptionTable("g:text", "cs.GraphicsTextOptions", "Options of g:text.", viewKeys: false, [
    fontSize("`14`"),
    OptionSpec("align", "cs.TextAlign", .choice(TextAlign.allCases.map(\.rawValue)), default: "`\"left\"`", "x is the text's left edge, centre or right edge"),
    weight,
    OptionSpec("color", "string", .color, default: "the canvas's colour", "this text's colour", notes: "**addition**"),
    .number("opacity", .closed(0...1), default: "`1`", "times the colour's", notes: "**addition**"),
  ])

  public static let graphicsImage = OptionTable("g:image", "cs.GraphicsImageOptions", "Options of g:image.", viewKeys: false, [
    .number("opacity", .closed(0...1), default: "`1`", "the picture's opacity"),
  ])

  public static let measure = OptionTable("cs.measure", "cs.MeasureOptions", "The font cs.measure measures with.", viewKeys: false, [
    fontSize("`14`"), weight,
  ])

  // MARK: Tables inside the common keys

  public static let frame = OptionTable("frame", "cs.Frame", "A fixed size.", viewKeys: false, [
    .number("width", .closed(0...side), "a fixed width: the view stops being flexible on that axis"),
    .number("height", .closed(0...side), "a fixed height: the view stops being flexible on that axis"),
  ])

  public static let rotation3d = OptionTable("rotation3d", "cs.Rotation3D", "A 3D turn.", viewKeys: false, [
    .number("angle", .closed(-80...80), "degrees; a positive angle brings the left (or top) edge nearer",
            notes: "`missing field 'angle' in cs.text rotation3d (degrees)`, `bad field 'angle' in cs.text rotation3d (must be between -80 and 80, got 90)`", required: true),
    OptionSpec("axis", "number[]", .any, default: "`{0, 1, 0}`", "{0,1,0} (vertical, the default) or {1,0,0}",
               notes: "`bad field 'axis' in cs.text rotation3d (a turn about {0, 1, 0} or {1, 0, 0} expected)`"),
    .number("perspective", .closed(1...1_000_000), default: "`1000`", "distance of the eye in pixels"),
  ])

  public static let handlers = OptionTable("on", "cs.Handlers", "Gesture handlers of a view, each called with the view and the event.", viewKeys: false,
[
    ("tap", "a tap the view's children did not take"), ("longpress", "a press held for 0.5 s"),
    ("drag", "a drag: e.phase began, changed, ended or cancelled"), ("press", "the pointer went down (before any gesture is known)"),
    ("scroll", "a wheel scroll: e.dx, e.dy"),
  ].map { OptionSpec($0.0, "fun(self: cs.View, e: cs.GestureEvent)", .function, $0.1) })

  // MARK: Files

  public static let telegram = OptionTable("cs.data.telegram", "cs.TelegramOptions", "How a Telegram contest file is read.", viewKeys: false, listsKeys: true, [
    OptionSpec("days", "string", .string, "the folder of the day files (YYYY-MM-DD.json or YYYY-MM/DD.json), for zooming into a day",
               notes: "`bad field 'days' in cs.data.telegram (no folder 'nope')`"),
  ])

  public static let audioClip = OptionTable("audio", "cs.AudioClip", "A sound clip of a scene.", viewKeys: false, listsKeys: true, [
    OptionSpec("file", "string", .string, "the sound file (WAV, FLAC, Ogg, MP3, M4A, WebM, AIFF), next to the script", required: true),
    .number("at", .closed(0...3600), default: "`0`", "when it starts, seconds into the scene", notes: "before the scene's end"),
    .number("gain", .closed(0...16), default: "`1`", "its samples times this"),
  ])

  public static let caption = OptionTable("captions", "cs.Caption", "A caption: { from, to, text } (or named fields).", viewKeys: false, arrayOf: "number|string", listsKeys: true, [
    .number("from", nil, "when it appears, seconds"),
    .number("to", nil, "when it goes, seconds (after from, before the next cue's from)"),
    OptionSpec("text", "string", .string, "the text; \\n starts a line"),
  ])
}
