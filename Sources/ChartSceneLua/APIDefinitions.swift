import ChartModel
import Drawing
import LuaKit
import Motion
import SceneGraph

/// The whole `cs` API as declarations: every option table (its keys, their types and
/// enums), every function, every object's fields and methods. Two things are made from it:
/// the LuaLS definition file (`assets/types/chartscene.lua`, `chartscene definitions`), so
/// an editor completes and checks scripts; and the test that the bindings accept exactly
/// these keys, with these types and enums (`DefinitionTests`, which watches every
/// `LuaOptions` a corpus of scripts builds). A key added to a binding and not here fails
/// that test.
public enum APIDefinitions {
  public struct Field: Sendable {
    public var name: String
    /// A LuaLS type: `number`, `string`, `boolean`, `cs.View`, `number[]`, an alias, `A|B`.
    public var type: String
    public var doc: String
    public init(_ name: String, _ type: String, _ doc: String) { self.name = name; self.type = type; self.doc = doc }
  }

  /// An options table and the `LuaOptions` owner that validates it (`cs.chart`).
  public struct Options: Sendable {
    public var className: String
    public var owner: String
    public var doc: String
    public var fields: [Field]
    /// Children in the array part (`cs.vstack{ a, b }`).
    public var arrayOf: String?
  }

  public struct Function: Sendable {
    /// `cs.chart`, `cs.data.csv`, or `ChartSet:setRange` for a method.
    public var name: String
    public var params: [Field]
    public var returns: String?
    public var doc: String
  }

  /// String enums, from the Swift enums the bindings check against.
  public static let aliases: [(String, [String])] = [
    ("cs.Align", Alignment.allCases.map(\.rawValue)),
    ("cs.TextAlign", TextAlign.allCases.map(\.rawValue)),
    ("cs.Weight", Font.Weight.allCases.map(\.rawValue)),
    ("cs.TabIcon", choices(.tab, "icon")),
    ("cs.RaceKind", choices(.race, "kind")),
    ("cs.FollowCurve", choices(.follow, "curve")),
    ("cs.LineType", SeriesKind.allCases.map(\.rawValue)),
    ("cs.Curve", Curve.names),
    ("cs.ScrollAxis", ScrollAxis.allCases.map(\.rawValue)),
    ("cs.YLabels", YLabelPlacement.allCases.map(\.rawValue)),
    ("cs.ThemeName", Array(Theme.builtIn.keys).sorted()),
  ]

  static let color = "string"
  /// The common view keys (`OptionTable.view`).
  static let common: [Field] = OptionTable.view.options.map { Field($0.key, $0.type, $0.summary) }

  public static let options: [Options] = [
    declared(.scene),
    declared(.audioClip),
    declared(.caption),
    Options(className: "cs.Theme", owner: "theme", doc: "A theme table: a base theme and colours by name.",
            fields: [Field("base", "cs.ThemeName", "the theme the colours start from")]
              + Theme.colorKeys.map { Field($0.0, color, "theme colour '\($0.0)'") }),
    declared(.chart),
    declared(.card),
    declared(.vstack),
    declared(.hstack),
    declared(.zstack),
    declared(.spacer),
    declared(.text),
    declared(.note),
    declared(.band),
    declared(.rule),
    declared(.follow),
    declared(.canvas),
    declared(.list),
    declared(.carousel),
    declared(.composition),
    declared(.race),
    declared(.graphicsImage),
    declared(.measure),
    declared(.cards),
    declared(.tabs),
    declared(.tab),
    declared(.frame),
    declared(.handlers),
    declared(.rotation3d),
    declared(.tap),
    declared(.longpress),
    declared(.drag),
    declared(.scroll),
    declared(.call),
    declared(.animate),
    declared(.telegram),
    declared(.csv),
    declared(.json),
    declared(.series),
    declared(.seriesLine),
    declared(.graphicsText),
    Options(className: "cs.TimelineFile", owner: "the timeline file", doc: "What a --timeline file returns.", fields: [
      Field("timeline", "cs.Event[]", "the events"),
      Field("merge", "boolean", "true: the events play with the script's own timeline (a --live recording); else they replace it"),
      Field("duration", "number", "seconds, 0 to 3600: an animated scene lasts at least this long (a --live session's length)"),
    ]),
  ]

  /// The values of a declared choice (its alias's).
  static func choices(_ t: OptionTable, _ key: String) -> [String] {
    if case .choice(let values) = t.spec(key).kind { return values }
    preconditionFailure("\(t.owner).\(key) is not a choice")
  }

  /// The class of a declared options table (`OptionTable`): the common view keys, then its own.
  static func declared(_ t: OptionTable) -> Options {
    Options(className: t.className, owner: t.owner, doc: t.doc, fields: (t.viewKeys ? common : []) + t.options.map { Field($0.key, $0.type, $0.summary) },
            arrayOf: t.arrayOf)
  }

  /// The functions of `cs` and the methods of its objects.
  public static let functions: [Function] = [
    Function(name: "cs.scene", params: [Field("opts", "cs.SceneOptions", "")], returns: "cs.Scene", doc: "The scene a script returns."),
    Function(name: "cs.chart", params: [Field("opts", "cs.ChartOptions", "")], returns: "cs.View", doc: "A chart."),
    Function(name: "cs.card", params: [Field("opts", "cs.CardOptions", "")], returns: "cs.View", doc: "A chart on a card."),
    Function(name: "cs.vstack", params: [Field("opts", "cs.StackOptions", "")], returns: "cs.View", doc: "A vertical stack."),
    Function(name: "cs.hstack", params: [Field("opts", "cs.HStackOptions", "")], returns: "cs.View", doc: "A horizontal stack."),
    Function(name: "cs.zstack", params: [Field("opts", "cs.ZStackOptions", "")], returns: "cs.View", doc: "Views on top of each other."),
    Function(name: "cs.spacer", params: [Field("opts?", "cs.SpacerOptions", "")], returns: "cs.View", doc: "Flexible space."),
    Function(name: "cs.text", params: [Field("opts", "cs.TextOptions", "")], returns: "cs.View", doc: "A line of text."),
    Function(name: "cs.canvas", params: [Field("opts", "cs.CanvasOptions", "")], returns: "cs.View", doc: "Custom drawing."),
    Function(name: "cs.list", params: [Field("opts", "cs.ListOptions", "")], returns: "cs.View", doc: "A scrolling list."),
    Function(name: "cs.carousel", params: [Field("opts", "cs.CarouselOptions", "")], returns: "cs.View", doc: "A 3D carousel."),
    Function(name: "cs.race", params: [Field("opts", "cs.RaceOptions", "")], returns: "cs.View", doc: "A bar chart race (kind = \"line\": a line race)."),
    Function(name: "cs.image", params: [Field("path", "string", "a PNG file, next to the script (at most 4096x4096)")], returns: "cs.Image", doc: "A picture for g:image, read once."),
    Function(name: "cs.note", params: [Field("opts", "cs.NoteOptions", "")], returns: "cs.Annotation", doc: "A labelled point pinned to a chart's data (for `annotations`)."),
    Function(name: "cs.band", params: [Field("opts", "cs.BandOptions", "")], returns: "cs.Annotation", doc: "A shaded span of time (for `annotations`)."),
    Function(name: "cs.rule", params: [Field("opts", "cs.RuleOptions", "")], returns: "cs.Annotation", doc: "A line at a value or a time (for `annotations`)."),
    Function(name: "cs.follow", params: [Field("opts", "cs.FollowOptions", "")], returns: "fun(t: number, dt: number)",
             doc: "A camera: an update function that keeps the set's window on the newest data as time advances."),
    Function(name: "cs.view", params: [Field("opts", "cs.ViewOptions", "")], returns: "cs.View", doc: "A composition written in Lua."),
    Function(name: "cs.compose", params: [Field("t", "table", "the options the composition was called with"), Field("view", "cs.ViewOptions", "the composition's cs.view table")], returns: "cs.View",
             doc: "cs.view(view) with the caller's common view keys (id, padding, ..., transition) and its `on` merged with the view's own (both handlers run, the view's first)."),
    Function(name: "cs.options", params: [Field("owner", "string", "the constructor's name, for messages (\"cs.coverflow\")"), Field("t", "table", "the options given"),
                                          Field("schema?", "table<string, string|table>|string", "the name of a built-in's options (\"cs.tabs tab\"), or key → \"number\", {\"number\", lo, hi}, \"string\", \"boolean\", {\"choice\", ...}, \"table\", \"function\", \"view\" or \"any\"")],
             returns: "table", doc: "Checks a composition's options as the built-in views' are checked (the common view keys pass); returns t."),
    Function(name: "cs.error", params: [Field("message", "string", ""), Field("level?", "integer", "2: the caller of the function calling cs.error")],
             returns: nil, doc: "Raises an error placed at the script's line that called the composition."),
    Function(name: "cs.measure", params: [Field("text", "string", ""), Field("opts?", "cs.MeasureOptions", "")],
             returns: "number, number", doc: "The width and height of a line of text (once the scene is built: in layout, draw, handlers)."),
    Function(name: "cs.rubberband", params: [Field("x", "number", ""), Field("lo", "number", ""), Field("hi", "number", ""), Field("margin", "number", "")],
             returns: "number", doc: "x kept within lo…hi softly: past an end by at most margin, like a scroll view's edge."),
    Function(name: "cs.cards", params: [Field("opts", "cs.CardsOptions", "")], returns: "cs.View", doc: "A stack of cards."),
    Function(name: "cs.tabs", params: [Field("opts", "cs.TabsOptions", "")], returns: "cs.View", doc: "Tabs."),
    Function(name: "cs.tap", params: [Field("opts", "cs.TapOptions", "")], returns: "cs.Event", doc: "A tap on the timeline."),
    Function(name: "cs.longpress", params: [Field("opts", "cs.LongpressOptions", "")], returns: "cs.Event", doc: "A long press on the timeline."),
    Function(name: "cs.drag", params: [Field("opts", "cs.DragOptions", "")], returns: "cs.Event", doc: "A drag on the timeline."),
    Function(name: "cs.scroll", params: [Field("opts", "cs.ScrollOptions", "")], returns: "cs.Event", doc: "A wheel scroll on the timeline."),
    Function(name: "cs.call", params: [Field("opts", "cs.CallOptions", "")], returns: "cs.Event", doc: "A function called at a time."),
    Function(name: "cs.chartGeometry", params: [Field("id", "string", "a chart's or card's id"), Field("view?", "cs.View", "coordinates relative to this view's frame (default: the scene's)")],
             returns: "cs.ChartGeometry", doc: "Where a chart draws its data now: its plot and the mappings between data and pixels."),
    Function(name: "cs.animate", params: [Field("how", "number|cs.AnimateOptions", "seconds or options"), Field("fn", "fun()", "makes the changes")],
             returns: nil, doc: "Changes made inside fn move with this timing."),
    Function(name: "cs.data.telegram", params: [Field("path", "string", "a Telegram contest JSON file"), Field("opts?", "cs.TelegramOptions", "")],
             returns: "{ [integer]: cs.ChartSet }", doc: "The sets of a contest file."),
    Function(name: "cs.data.csv", params: [Field("path", "string", "a CSV file"), Field("opts?", "cs.CSVOptions", "")], returns: "cs.ChartSet", doc: "A set from a CSV file: wide or long data, the time format found."),
    Function(name: "cs.data.json", params: [Field("path", "string", "a JSON file: an array of records"), Field("opts?", "cs.JSONOptions", "")], returns: "cs.ChartSet", doc: "A set from JSON records."),
    Function(name: "cs.data.series", params: [Field("opts", "cs.SeriesOptions", "")], returns: "cs.ChartSet", doc: "A set from inline tables."),
    Function(name: "cs.data.sample", params: [], returns: "{ [integer]: cs.ChartSet }", doc: "The five sample sets shipped with chartscene."),
    Function(name: "ChartSet:range", params: [], returns: "number, number", doc: "The window as fractions lo, hi."),
    Function(name: "ChartSet:setRange", params: [Field("lo", "number", ""), Field("hi", "number", ""), Field("animate?", "boolean|number", "true, false or seconds")],
             returns: nil, doc: "Moves the window."),
    Function(name: "ChartSet:hide", params: [Field("id", "string", "a line id or name")], returns: nil, doc: "Hides a line (animated)."),
    Function(name: "ChartSet:show", params: [Field("id", "string", "a line id or name")], returns: nil, doc: "Shows a line (animated)."),
    Function(name: "ChartSet:toggle", params: [Field("id", "string", "a line id or name")], returns: nil, doc: "Hides or shows a line."),
    Function(name: "ChartSet:isHidden", params: [Field("id", "string", "a line id or name")], returns: "boolean", doc: "Whether a line is hidden."),
    Function(name: "ChartSet:zoom", params: [Field("day", "string", "\"YYYY-MM-DD\""), Field("animate?", "boolean|number", "true, false or seconds")],
             returns: nil, doc: "Zooms into a day: its detail file, or a pie for a percentage set."),
    Function(name: "ChartSet:zoomOut", params: [Field("animate?", "boolean|number", "true, false or seconds")], returns: nil,
             doc: "Back to the overview."),
    Function(name: "ChartSet:dataRange", params: [], returns: "number, number", doc: "min, max of the visible lines in the window."),
    Function(name: "ChartSet:valuesAt", params: [Field("fraction", "number", "0 to 1 of the time axis")],
             returns: "{time: number, values: table<string, number>}", doc: "The values at the nearest point."),
    Function(name: "Graphics:color", params: [Field("c", "string", "a colour")], returns: "cs.Graphics", doc: "The colour of what follows."),
    Function(name: "Graphics:lineWidth", params: [Field("w", "number", "")], returns: "cs.Graphics", doc: "The width of strokes."),
    Function(name: "Graphics:moveTo", params: [Field("x", "number", ""), Field("y", "number", "")], returns: "cs.Graphics", doc: "Starts a subpath."),
    Function(name: "Graphics:lineTo", params: [Field("x", "number", ""), Field("y", "number", "")], returns: "cs.Graphics", doc: "A line to a point."),
    Function(name: "Graphics:rect", params: [Field("x", "number", ""), Field("y", "number", ""), Field("w", "number", ""), Field("h", "number", ""), Field("radius?", "number", "")],
             returns: "cs.Graphics", doc: "A rectangle."),
    Function(name: "Graphics:circle", params: [Field("x", "number", ""), Field("y", "number", ""), Field("r", "number", "")], returns: "cs.Graphics", doc: "A circle."),
    Function(name: "Graphics:close", params: [], returns: "cs.Graphics", doc: "Closes the subpath."),
    Function(name: "Graphics:stroke", params: [], returns: "cs.Graphics", doc: "Strokes the path."),
    Function(name: "Graphics:fill", params: [], returns: "cs.Graphics", doc: "Fills the path."),
    Function(name: "Graphics:clip", params: [], returns: "cs.Graphics", doc: "Clips to the path."),
    Function(name: "Graphics:translate", params: [Field("dx", "number", ""), Field("dy", "number", "")], returns: "cs.Graphics", doc: "Moves the origin."),
    Function(name: "Graphics:scale", params: [Field("sx", "number", ""), Field("sy?", "number", "")], returns: "cs.Graphics", doc: "Scales what follows."),
    Function(name: "Graphics:save", params: [], returns: "cs.Graphics", doc: "Saves the state."),
    Function(name: "Graphics:restore", params: [], returns: "cs.Graphics", doc: "Restores the state."),
    Function(name: "Graphics:text", params: [Field("s", "string", ""), Field("x", "number", ""), Field("y", "number", ""), Field("opts?", "cs.GraphicsTextOptions", "")],
             returns: "cs.Graphics", doc: "Draws text."),
    Function(name: "Graphics:image", params: [Field("img", "cs.Image", "from cs.image"), Field("x", "number", ""), Field("y", "number", ""), Field("w", "number", ""), Field("h", "number", ""),
                                              Field("opts?", "cs.GraphicsImageOptions", "")],
             returns: "cs.Graphics", doc: "Draws a picture scaled to fit the box (proportions kept, centred)."),
  ]

  /// Readable fields of the objects.
  public static let objects: [(String, String, [Field])] = [
    ("cs.ChartSet", "A data set, shared by reference.", [
      Field("name", "string", "the title"), Field("count", "integer", "number of points"),
      Field("lines", "{id: string, name: string, color: string, hidden: boolean}[]", "the lines in column order"),
      Field("zoomed", "string?", "the day zoomed into (\"YYYY-MM-DD\"), or nil"),
    ]),
    ("cs.View", "A view.", [
      Field("id", "string?", "nil when generated"), Field("kind", "string", "\"chart\", \"vstack\", ..."),
      Field("width", "number", "its content width as last laid out"), Field("height", "number", "its content height as last laid out"),
      Field("frameWidth", "number?", "the width its frame option fixes"), Field("frameHeight", "number?", "the height its frame option fixes"),
      Field("state", "table", "cs.view: its state (in layout: as shown, numbers of animates mid-motion)"),
      Field("shown", "table", "cs.view: its state as shown now (read-only)"),
      Field("add", "fun(self: cs.View, view: cs.View, index?: integer)", "cs.view: a new child (inside cs.animate it enters with its transition)"),
      Field("remove", "fun(self: cs.View, id: string)", "cs.view: the child with that id goes (inside cs.animate it leaves with its transition)"),
      Field("target", "table", "cs.view: its state as set (where moving numbers are heading)"),
      Field("children", "cs.ChildLayout[]|cs.View[]", "cs.view: in layout the records to place, elsewhere the child views"),
      Field("options", "table", "cs.view: its options, a preset's filled in"),
    ]),
    ("cs.Scene", "A scene.", [
      Field("width", "number", ""), Field("height", "number", ""), Field("fps", "number", ""), Field("duration", "number", ""),
      Field("theme", "string", "\"day\", \"night\" or \"custom\""), Field("root", "cs.View", ""),
      Field("locale", "string", "the locale's name (\"en\" by default)"), Field("timezone", "string", "the time zone's name (\"UTC\" by default)"),
    ]),
    ("cs.LayoutView: cs.View", "A view as its layout function sees it: its children are the records to place.", [
      Field("children", "cs.ChildLayout[]", "the records to place, in the order of the children"),
    ]),
    ("cs.ChildLayout", "What a layout may set on self.children[i] (and id, kind, view, index to read).", [
      Field("id", "string?", "the child's id (read only)"),
      Field("kind", "string", "the child's kind (read only)"),
      Field("view", "cs.View", "the child view (read only)"),
      Field("index", "integer", "the child's place among the children (read only)"),
      Field("frame", "number[]|{x?: number, y?: number, width?: number, height?: number}", "{x, y, width, height} in the view's content coordinates (default: all of it)"),
      Field("offset", "number[]", "{dx, dy}: drawn moved by this much"),
      Field("scale", "number", "drawn scaled about its centre, 0 to 1000000"),
      Field("opacity", "number", "0 to 1"),
      Field("rotation3d", "number|cs.Rotation3D", "degrees about the vertical axis, -80 to 80, or a turn"),
      Field("z", "number", "draw and hit order, higher in front (equal: the later child)"),
      Field("hidden", "boolean", "not drawn and not hit"),
      Field("clip", "boolean", "drawn clipped to its frame"),
      Field("depth", "number", "place in a stack, 0 = front: a card is dimmed by it"),
      Field("passing", "number", "0 to 1: drawn once more over the front child, dissolving into it"),
      Field("sheet", "number", "0 to 1: a chart shown full-size in a sheet over the scene, slid up this far"),
      Field("modal", "boolean", "the sheet is open: it takes every press (e.sheet, e.inside)"),
    ]),
    ("cs.Event", "A timeline event.", []),
    ("cs.Annotation", "A mark for a chart's `annotations` (cs.note, cs.band, cs.rule).", []),
    ("cs.ChartGeometry", "Where a chart draws its data at the moment of the call.", [
      Field("plot", "{x: number, y: number, width: number, height: number}", "the plot"),
      Field("window", "{from: number, to: number}", "the times (UNIX ms) at the plot's left and right edges"),
      Field("data", "cs.ChartSet", "the set the chart was given"),
      Field("x", "fun(time: number): number", "the x of a time"),
      Field("y", "fun(value: number, side?: \"left\"|\"right\"): number", "the y of a value (on the right axis of a two-axis chart with \"right\")"),
      Field("timeAt", "fun(x: number): number", "the time at an x"),
      Field("valueAt", "fun(y: number, side?: \"left\"|\"right\"): number", "the value at a y"),
    ]),
    ("cs.GestureEvent", "What a gesture handler is told.", [
      Field("kind", "\"tap\"|\"longpress\"|\"drag\"|\"press\"|\"scroll\"", "the gesture"),
      Field("x", "number", "where, in the view's coordinates (0, 0 at its top left)"), Field("y", "number", ""),
      Field("child", "integer?", "the index of the child under the point where it began, or nil"),
      Field("time", "number", "the scene's time (s)"),
      Field("phase", "\"began\"|\"changed\"|\"ended\"|\"cancelled\"|nil", "a drag's phase"),
      Field("dx", "number?", "a drag's translation since it began"), Field("dy", "number?", ""),
      Field("vx", "number?", "a drag's velocity (px/s)"), Field("vy", "number?", ""),
      Field("held", "boolean?", "true when a long press began the drag"),
      Field("sheet", "boolean?", "true when an open sheet of the view (modal) took the press"),
      Field("inside", "boolean?", "with sheet: the press is inside the sheet"),
    ]),
    ("cs.Graphics", "What a canvas draws with; every method returns it, so calls chain.", []),
    ("cs.Null", "JSON's null, as an inspect function returns it (cs.null).", []),
    ("cs.Image", "A PNG picture read by cs.image.", [
      Field("width", "integer", "pixels"), Field("height", "integer", "pixels"),
    ]),
  ]

  /// Objects whose every field is declared: a field not among them (`c.rotaton3d = 1` in a
  /// layout) is flagged by a language server (emmylua_ls: inject-field).
  static let exact: Set<String> = ["cs.ChildLayout"]

  /// The LuaLS definition file.
  public static func luaLS() -> String {
    var out = """
    ---@meta chartscene
    -- LuaLS definitions of the chartscene API (cs \(ChartSceneModule.version)), generated by
    -- `chartscene definitions` from the declarations the bindings validate with. Do not edit.

    """
    for (name, values) in aliases {
      out += "\n---@alias \(name) " + values.map { "\"\($0)\"" }.joined(separator: "|") + "\n"
    }
    for o in options {
      out += "\n---\(o.doc)\n---@class (exact) \(o.className)\(o.arrayOf.map { ": { [integer]: \($0) }" } ?? "")\n"
      for f in o.fields { out += "---@field \(f.name)? \(f.type) \(f.doc)\n" }
    }
    for (name, doc, fields) in objects {
      out += "\n---\(doc)\n---@class \(exact.contains(name) ? "(exact) " : "")\(name)\n"
      for f in fields { out += "---@field \(f.name) \(f.type) \(f.doc)\n" }
      if name == "cs.ChartSet" || name == "cs.Graphics" { out += "local \(name.dropFirst(3)) = {}\n" }
    }
    out += "\n---The chartscene module: the global `cs`, also `require(\"chartscene\")`.\n---@class cs\n---@field version string\n---@field null cs.Null JSON's null, for what an inspect function returns\n---@field args table<string, string> The command line's `--arg KEY=VALUE` pairs (always a table).\ncs = {}\n"
    out += "\n---Data sources.\n---@class cs.data\ncs.data = {}\n"
    for f in functions {
      out += "\n---\(f.doc)\n"
      for p in f.params {
        // A container's table holds its children too: `cs.zstack{a, b}` is a list of views to
        // the checker. Written `{[integer]: cs.View}`: as `cs.View[]` emmylua_ls 0.23 checked
        // a table-valued option beside the children (`padding = {10, 20}`) as a view.
        let elements = options.first { $0.className == p.type }?.arrayOf
        out += "---@param \(p.name) \(p.type)\(elements.map { "|{[integer]: \($0)}" } ?? "")\(p.doc.isEmpty ? "" : " " + p.doc)\n"
      }
      if let r = f.returns { out += "---@return \(r)\n" }
      let names = f.params.map { $0.name.hasSuffix("?") ? String($0.name.dropLast()) : $0.name }.joined(separator: ", ")
      out += "function \(f.name)(\(names)) end\n"
    }
    out += "\nreturn cs\n"
    return out
  }
}
