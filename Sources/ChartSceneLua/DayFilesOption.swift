import ChartModel
import Glibc
import LuaKit
import SceneGraph

/// `cs.data.telegram(path, { days = "FOLDER" })`: where the day files of round 2 are.
enum DayFilesOption {
  static func read(_ lua: LuaState, context: BindingContext) throws -> DayFiles? {
    if lua.isNil(2) { return nil }
    try lua.checkTable(2, function: "telegram")
    let o = try LuaOptions(lua, 2, .telegram)
    guard let folder = try o.string("days") else { return nil }
    let full = try context.confined(folder)
    var st = stat()
    guard stat(full, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
      throw LuaError("bad field 'days' in cs.data.telegram (no folder '\(folder)')")
    }
    return DayFiles(folder: full)
  }

  static func attach(_ days: DayFiles, to sets: [ChartSet], context: BindingContext) {
    let files = context.files
    for set in sets {
      set.dayFiles = days
      set.onRead = { files.insert($0) }
    }
  }
}
