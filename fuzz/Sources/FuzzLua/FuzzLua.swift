import ChartSceneLua
import Drawing
import LuaKit
import Render
import SceneGraph

/// Lua text evaluation: the bytes are loaded as a text chunk into a sandboxed state with
/// the chartscene module installed (as Session does) and run under a protected call with a
/// time and memory limit. A returned scene is laid out and drawn to a display list (its
/// draw callbacks run too) at up to three times, with `update` called before each; no
/// pixels, text measured with fixed widths.
///
/// Paths in scripts resolve against fuzz/corpus/lua/, as if the script were a seed there
/// (seeds load ../csv/*.csv and ../telegram/*.json); `cs.data.sample()` and presets use the
/// repository's assets/.
let repository: String = {
  var parts = "\(#filePath)".split(separator: "/").map(String.init)
  parts.removeLast(4)  // fuzz/Sources/FuzzLua/FuzzLua.swift
  return "/" + parts.joined(separator: "/")
}()

nonisolated(unsafe) let measurer = FixedWidthTextMeasurer()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLua(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
  let context = BindingContext(scriptDirectory: repository + "/fuzz/corpus/lua", assetsDirectory: repository + "/assets") { _ in }
  let lua = LuaState()
  ChartSceneModule.install(lua, context: context)
  // Far below the host's defaults (10 s, 1 GiB): a run must stay short for the fuzzer.
  lua.timeLimit = 0.5
  lua.memoryLimit = 256 << 20
  do {
    try lua.load(bytes, chunkName: "@fuzz.lua")
    try lua.pcall(nargs: 0, nresults: 1)
  } catch {
    return 0
  }
  guard let scene = try? ChartSceneModule.scene(from: lua, at: -1) else { return 0 }
  lua.pop()
  lua.timeLimit = 0.05
  // A few ticks of an animated scene: `update`, layout and the display list at each, so the
  // callbacks, the animated state and what they draw are reached too.
  let times = scene.duration > 0 ? [0, 0.5, 1.0].filter { $0 <= scene.duration } : [0]
  for t in times {
    scene.presentation.now = t
    if let update = scene.update, (try? update(t, 1.0 / 60)) == nil { break }
    if (try? Layout(measurer: measurer).layout(scene, at: t)) == nil { break }
    _ = try? DisplayListBuilder(measurer: measurer).build(scene, time: t)
  }
  return 0
}
