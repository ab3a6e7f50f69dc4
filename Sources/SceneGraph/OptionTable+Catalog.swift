/// The declared options of the `cs.*` constructors (see `OptionSchema.swift`). A constructor
/// declared here is validated from here from Lua and from presets, and its LuaLS class and its
/// table in docs/lua-api.md are generated from here.
extension OptionTable {
  /// Every declared table, in the order of the LuaLS file.
  public static let all: [OptionTable] = [carousel]

  static let side = Scene.maximumSide

  public static let carousel = OptionTable("cs.carousel", "cs.CarouselOptions", "A horizontal carousel, each item turned in 3D.", arrayOf: "cs.View", preset: "carousel", [
    .number("spacing", .closed(0...1000), default: "`16`", "space between items", preset: true),
    .number("itemWidth", .closed(1...side), default: "75 % of the carousel's width", "width of an item", notes: "at most the width: `bad field 'itemWidth' in cs.carousel (must be between 1 and 16384, got 0)`",
            preset: true),
    .number("angle", .closed(-80...80), default: "`30`", "degrees of turn one place from the centre",
            notes: "`bad field 'angle' in cs.carousel (must be between -80 and 80, got 90)`", preset: true),
    .number("scroll", .closed(-10000...10000), default: "`0`", "initial position in scene pixels",
            notes: "0 centres the first item, `itemWidth + spacing` centres the second; clamped to the items"),
  ])
}
