import ChartModel
import Drawing
import LuaKit
import SceneGraph

/// Installs the `chartscene` module into a Lua state: the global `cs`, and
/// `require("chartscene")`. Every binding sits in its own file beside this one.
public enum ChartSceneModule {
  /// The names the module defines (checked against the contract by the tests).
  public static let version = BuildInfo.version

  public static func install(_ lua: LuaState, context: BindingContext) {
    lua.maxStringBytes = TextLimits.maxBytes
    ChartSetBinding.register(lua, presentation: context.presentation)
    ViewBindings.register(lua, context: context)
    SceneBinding.register(lua)
    TimelineBindings.register(lua)
    AnnotationBinding.register(lua)
    CanvasBinding.register(lua)
    ImageBinding.register(lua)

    lua.newTable()
    let cs = lua.top
    lua.push(version)
    lua.rawSet(cs, "version")
    DataBinding.install(lua, into: cs, context: context)
    ArgsBinding.install(lua, into: cs, context: context)
    ViewBindings.install(lua, into: cs, context: context)
    SceneBinding.install(lua, into: cs, context: context)
    TimelineBindings.install(lua, into: cs, context: context)
    AnnotationBinding.install(lua, into: cs)
    GeometryBinding.install(lua, into: cs, context: context)
    ImageBinding.install(lua, into: cs, context: context)
    lua.pushValue(cs)
    lua.setGlobal("cs")
    RequireBinding.install(lua, module: cs, context: context)
    CompositionBindings.installBuiltIns(lua, into: cs, context)
    lua.pop()
  }

  /// A timeline file: its events, and how they go with the script (docs/lua-api.md, *The
  /// timeline file*).
  public struct TimelineFile {
    public var events: [TimelineEvent]
    /// `merge = true`: played with the script's own timeline (a `--live` recording: the
    /// session ran both); else in its place.
    public var merge = false
    /// `duration = S`: the replay of an animated scene lasts at least S seconds (a live
    /// session's length), so what happened after the scene's own end happens too.
    public var duration: Double?
  }

  /// Loads a timeline file (a chunk returning a table of cs.* events, with `merge` and
  /// `duration` fields) into the script's state.
  public static func timelineFile(from lua: LuaState, bytes: [UInt8], chunkName: String) throws -> TimelineFile {
    try lua.load(bytes, chunkName: chunkName)
    try lua.pcall(nargs: 0, nresults: 1)
    defer { lua.pop() }
    guard lua.type(at: -1) == .table else { throw LuaError("the timeline file must return a table of cs.* events (it returned \(lua.valueTypeName(at: -1)))", wantsLocation: false) }
    let fields = try LuaOptions(lua, -1, owner: "the timeline file", known: ["merge", "duration"], allowsArray: true)
    let merge = try fields.bool("merge") ?? false
    let duration = try fields.number("duration")
    if let duration, !(duration >= 0 && duration <= 3600) {
      throw LuaError("bad field 'duration' in the timeline file (seconds, 0 to 3600)", wantsLocation: false)
    }
    lua.newTable()
    lua.pushValue(-2)
    lua.rawSet(-2, "timeline")
    defer { lua.pop() }
    let o = try LuaOptions(lua, -1, owner: "the timeline file", known: ["timeline"])
    return TimelineFile(events: try TimelineBindings.timeline(lua, o), merge: merge, duration: duration)
  }

  /// The events of a timeline file.
  public static func timeline(from lua: LuaState, bytes: [UInt8], chunkName: String) throws -> [TimelineEvent] {
    try timelineFile(from: lua, bytes: bytes, chunkName: chunkName).events
  }

  /// The scene a script returned (on top of the stack), or an error saying what came back.
  public static func scene(from lua: LuaState, at index: Int32) throws(LuaError) -> Scene {
    if let s = lua.object(at: index, SceneBinding.typeName) as? Scene { return s }
    let got = lua.valueTypeName(at: index)
    throw LuaError("the script must return cs.scene{ ... } (it returned \(got == "no value" ? "nothing" : got))", wantsLocation: false)
  }
}
