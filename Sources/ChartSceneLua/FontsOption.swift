import Glibc
import LuaKit
import SceneGraph

/// `fonts = { "fonts/Brand.ttf", ... }` and `font = "Brand"` of a scene or a preset: the
/// files are read under the rules of data files (relative to the script or preset, inside
/// the folders it may read), checked to be fonts, and put in front of the bundled ones;
/// the family must be one of theirs or a bundled one.
enum FontsOption {
  /// At most this many font files in one scene.
  static let maxFiles = 32

  static func read(_ lua: LuaState, _ o: LuaOptions, into scene: Scene, context: BindingContext,
                   resolve: (String) throws -> String) throws {
    let files: [String]? = try o.with("fonts") { idx throws -> [String] in
      guard lua.type(at: idx) == .table else { throw o.fieldError("fonts", expected: "list of font files") }
      let n = lua.rawLength(idx)
      guard n <= maxFiles else { throw LuaError("bad field 'fonts' in \(o.owner) (at most \(maxFiles) files, got \(n))") }
      var out: [String] = []
      for i in 0..<n {
        lua.rawGet(idx, index: i + 1)
        defer { lua.pop() }
        guard let path = lua.toString(-1), lua.type(at: -1) == .string else {
          throw LuaError("bad fonts[\(i + 1)] in \(o.owner) (file name expected, got \(lua.valueTypeName(at: -1)))")
        }
        let full = try resolve(path)
        var st = stat()
        guard stat(full, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
          throw LuaError("cannot read font '\(path)' in \(o.owner): no such file")
        }
        if let families = context.fontFamilies, families(full) == nil {
          throw LuaError("'\(path)' in \(o.owner) is not a font file fontconfig can read (expected .ttf, .otf or .ttc)")
        }
        if !out.contains(full) { out.append(full) }
      }
      return out
    }
    if let files {
      context.files.insert(contentsOf: files)
      scene.fonts = files + scene.fonts.filter { !files.contains($0) }
    }
    if let family = try o.string("font") {
      var known = context.bundledFamilies
      for f in scene.fonts { known += context.fontFamilies?(f) ?? [] }
      if !known.isEmpty, !known.contains(where: { $0.lowercased() == family.lowercased() }) {
        var msg = "unknown font family '\(family)' in \(o.owner)"
        if let near = LuaOptions.nearest(family, in: known) { msg += " (did you mean '\(near)'?)" }
        else { msg += " (the fonts give: \(known.map { "'\($0)'" }.joined(separator: ", ")))" }
        throw LuaError(msg)
      }
      scene.font = family
    }
  }
}

extension FileLog {
  func insert(contentsOf paths: [String]) { for p in paths { insert(p) } }
}
