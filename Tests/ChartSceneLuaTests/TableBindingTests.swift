import ChartSceneHost
import XCTest

/// `cs.data.csv` and `cs.data.json` through real sessions: the options, lines addressed by
/// name everywhere (hide, isHidden, valuesAt, timeline targets), the warning for skipped
/// columns, and the exact error lines.
final class TableBindingTests: XCTestCase {
  var dir: ScriptFolder!
  override func setUp() { dir = ScriptFolder() }
  override func tearDown() { dir = nil }

  func testOptionsAndLinesByName() throws {
    dir.write("stocks.csv", "Date;Symbol;Close\n03.01.2000;AAPL;1,5\n03.01.2000;MSFT;30\n04.01.2000;AAPL;1,6\n")
    dir.write("r.json", "[{\"t\": \"Jan 2 2000\", \"a\": 1, \"b\": 2}, {\"t\": \"Jan 3 2000\", \"b\": null}]")
    dir.write("t.tsv", "date\tv\n2000-01-01\t--\n2000-01-02\t2\n")
    let s = try dir.session("""
      local d = cs.data.csv("stocks.csv", { series = "Symbol", value = "Close", names = { MSFT = "Microsoft" }, colors = { "#112233" } })
      assert(d.count == 2, d.count)
      assert(d.lines[1].name == "AAPL" and d.lines[2].name == "Microsoft" and d.lines[1].color == "#112233")
      d:hide("AAPL")
      assert(d:isHidden("AAPL") and d:isHidden("y0") and not d:isHidden("Microsoft"))
      local v = d:valuesAt(0)
      assert(v.values.AAPL == 1.5 and v.values.y0 == 1.5 and v.values.Microsoft == 30, "valuesAt by name")
      local w = d:valuesAt(1)
      assert(w.values.Microsoft == nil and w.values.AAPL == 1.6, "a gap")
      d:show("AAPL")
      local j = cs.data.json("r.json", { x = "t", timeFormat = "%b %e %Y", columns = { "b" }, sort = false })
      assert(j.count == 2 and #j.lines == 1 and j.lines[1].name == "b")
      local t = cs.data.csv("t.tsv", { delimiter = "tab", missing = { "--" }, name = "Tabs" })
      assert(t.name == "Tabs" and t:valuesAt(0).values.v == nil)
      return cs.scene{ width = 400, height = 300, duration = 1, root = cs.chart{ id = "c", data = d },
        timeline = { cs.tap{ at = 0.1, target = "c.legend.Microsoft" } } }
      """)
    let json = try s.inspect(at: 0.9)
    XCTAssertTrue(json.contains("\"hidden\": [\"y1\"]"), json)
  }

  func testTimelineTargetsByName() throws {
    dir.write("w.csv", "date,Oslo,Lisbon\n2000-01-01,1,5\n2000-01-02,2,6\n2000-01-03,3,7\n")
    let s = try dir.session("""
      local d = cs.data.csv("w.csv")
      return cs.scene{ width = 400, height = 300, duration = 1, root = cs.chart{ id = "c", data = d },
        timeline = { cs.tap{ at = 0.1, target = "c.legend.Oslo" } } }
      """)
    let json = try s.inspect(at: 0.9)
    XCTAssertTrue(json.contains("\"hidden\": [\"y0\"]"), json)
  }

  /// Issue 21: a day missing from daily data is a gap; `gaps = false` bridges it (CSV and JSON).
  func testGapsOption() throws {
    dir.write("g.csv", "date,v\n2023-01-01,1\n2023-01-02,2\n2023-01-04,4\n2023-01-05,5\n")
    dir.write("g.json", "[{\"date\": \"2023-01-01\", \"v\": 1}, {\"date\": \"2023-01-02\", \"v\": 2}, {\"date\": \"2023-01-04\", \"v\": 4}, {\"date\": \"2023-01-05\", \"v\": 5}]")
    _ = try dir.session("""
      local g = cs.data.csv("g.csv")
      assert(g.count == 5 and g:valuesAt(0.5).values.v == nil, "a gap on Jan 3")
      local b = cs.data.csv("g.csv", { gaps = false })
      assert(b.count == 4 and b:valuesAt(1).values.v == 5, "bridged")
      assert(cs.data.json("g.json").count == 5 and cs.data.json("g.json", { gaps = false }).count == 4)
      return cs.scene{ width = 200, height = 100, root = cs.chart{ data = g } }
      """)
  }

  func testWarningForSkippedColumns() throws {
    dir.write("s.csv", "date,symbol,open\n2000-01-01,AAPL,1\n2000-01-02,AAPL,2\n")
    let s = try dir.session("local d = cs.data.csv('s.csv')\nreturn cs.scene{ width = 200, height = 100, root = cs.chart{ data = d } }")
    XCTAssertEqual(s.warnings, ["s.csv: skipped column 'symbol': it holds text (like 'AAPL'); for long data pass series = 'symbol', value = 'open'"])
  }

  func testErrors() {
    dir.write("d.csv", "date,Views\n2019-01-01,10\n2019-01-02,20\n")
    dir.write("q.csv", "week,v\n2000-W01,1\n")
    XCTAssertEqual(dir.error("cs.data.csv('q.csv')"),
                   "s.lua:1: q.csv: '2000-W01' in column 'week' is not a time I know; pass timeFormat (strftime-style, e.g. \"%d/%m/%Y %H:%M\"), or x = the time column")
    XCTAssertEqual(dir.error("cs.data.csv('d.csv', { timeFormat = '%Q' })"),
                   "s.lua:1: bad field 'timeFormat' in cs.data.csv ('%Q' is not a strftime pattern: use %Y %m %d %e %H %I %M %S %f %p %b %B %a %y %j %q %z %s %F %T and other characters as they are)")
    XCTAssertEqual(dir.error("cs.data.csv('d.csv', { columns = { true } })"),
                   "s.lua:1: bad field 'columns[1]' in cs.data.csv (a column name or a 1-based column number expected, got boolean)")
    XCTAssertEqual(dir.error("cs.data.csv('d.csv', { x = 0 })"),
                   "s.lua:1: bad field 'x' in cs.data.csv (a column name or a 1-based column number expected)")
    XCTAssertEqual(dir.error("cs.data.csv('d.csv', { colums = { 2 } })"),
                   "s.lua:1: unknown key 'colums' in cs.data.csv (did you mean 'columns'? keys are 'name', 'x', 'timeFormat', 'columns', 'series', 'value', 'missing', 'delimiter', 'sort', 'gaps', 'names', 'colors')")
    XCTAssertEqual(dir.error("cs.data.json('d.csv', { delimiter = ';' })"),
                   "s.lua:1: unknown key 'delimiter' in cs.data.json (keys are 'name', 'x', 'timeFormat', 'columns', 'series', 'value', 'missing', 'sort', 'gaps', 'names', 'colors')")
    XCTAssertEqual(dir.error("cs.data.csv('d.csv', { delimiter = ';;' })"), "s.lua:1: bad field 'delimiter' in cs.data.csv (one character expected)")
    XCTAssertEqual(dir.error("cs.data.csv('d.csv', { x = 'nope' })"),
                   "s.lua:1: d.csv: x = 'nope': no such column; the columns are 'date' (text like '2019-01-01'), 'Views' (numbers like 10)")
    XCTAssertEqual(dir.error("local d = cs.data.csv('d.csv')\nd:hide('Visits')"),
                   "s.lua:2: bad argument #2 to 'hide' (no line 'Visits' in 'd'; lines are 'y0' ('Views'))")
    XCTAssertEqual(dir.error("cs.data.csv('missing.csv')"), "s.lua:1: cannot read 'missing.csv': no such file")
    XCTAssertEqual(dir.error("cs.data.json('missing.json')"), "s.lua:1: cannot read 'missing.json': no such file")
    // The columns count against --max-memory before they are read.
    var big = "t,v\n"
    for k in 0..<100_000 { big += "\(946684800 + k * 60),\(k % 10)\n" }
    dir.write("big.csv", big)
    XCTAssertEqual(dir.error("cs.data.csv('big.csv')", maxMemory: 1 << 20),
                   "s.lua:1: big.csv: the data needs about 1.5 MiB as columns of numbers, more than --max-memory leaves (0.9 MiB)")
  }

  func testSamePathAndOptionsIsTheSameSet() throws {
    dir.write("d.csv", "date,a,b\n2019-01-01,10,1\n2019-01-02,20,2\n")
    _ = try dir.session("""
      local a, b = cs.data.csv("d.csv"), cs.data.csv("d.csv")
      local c = cs.data.csv("d.csv", { columns = { "b" } })
      assert(a == b and a ~= c and #c.lines == 1)
      return cs.scene{ width = 200, height = 100, root = cs.spacer{} }
      """)
  }
}
