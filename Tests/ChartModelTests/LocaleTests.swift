import ChartModel
import XCTest

/// Locales (assets/locales/*.json, from CLDR by scripts/locales) and time zones (TZif from
/// /usr/share/zoneinfo) as DisplayFormat writes them.
final class LocaleTests: XCTestCase {
  static let directory: String = {
    var parts = "\(#filePath)".split(separator: "/").map(String.init)
    parts.removeLast(3)  // Tests/ChartModelTests/LocaleTests.swift
    return "/" + parts.joined(separator: "/") + "/assets/locales"
  }()

  static func locale(_ name: String) throws -> ChartLocale {
    try ChartLocale(json: FileReader.read(directory + "/" + name + ".json"))
  }

  static func format(_ locale: String, _ zone: String? = nil) throws -> DisplayFormat {
    try DisplayFormat.resolve(locale: locale, timezone: zone, localesDirectory: directory)
  }

  static func ms(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> Double {
    (Double(ISODate.days(year: y, month: m, day: d)) * 86400 + Double(h * 3600 + mi * 60)) * 1000
  }

  /// Every listed locale has a file, every file is listed, and each parses.
  func testEveryLocaleFileParses() throws {
    let files = try FileManagerLite.list(LocaleTests.directory).filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
    XCTAssertEqual(Set(files), Set(ChartLocale.names))
    for name in ChartLocale.names {
      let l = try LocaleTests.locale(name)
      XCTAssertEqual(l.id, name)
      XCTAssertEqual(l.compact.map(\.magnitude), Array(3...14), name)
    }
  }

  /// The built-in English is en.json, and it writes what the pictures always had.
  func testEnglishIsTheFileAndUnchanged() throws {
    XCTAssertEqual(try LocaleTests.locale("en"), ChartLocale.english)
    let f = DisplayFormat(locale: try LocaleTests.locale("en"), zone: .utc)
    for t in [LocaleTests.ms(2019, 2, 28), LocaleTests.ms(2019, 3, 1), LocaleTests.ms(2019, 1, 1), LocaleTests.ms(2019, 2, 28, 14, 0)] {
      XCTAssertEqual(TimeScale.label(t), DisplayFormat(locale: ChartLocale.english, zone: try ChartTimeZone.load("Etc/UTC")).axisLabel(t))
    }
    for p in [TimePrecision.year, .quarter, .month, .week, .day, .time] {
      for t in [LocaleTests.ms(2004, 7, 1), LocaleTests.ms(2019, 2, 28, 14, 30)] {
        // The general path (a file's English) and the fast one agree.
        var general = f
        general.locale.id = "en-file"
        XCTAssertEqual(general.poster(t, precision: p), DateText.poster(t, precision: p), "\(p)")
      }
    }
    for v in [0.0, 950, 1200, 4_505_200, -1234, 0.0000015, 1.5e12, 12.5] {
      XCTAssertEqual(CompactNumber.format(v, step: 0, locale: f.locale), CompactNumber.format(v, step: 0))
      XCTAssertEqual(f.grouped(v), CompactNumber.grouped(v))
    }
    XCTAssertEqual(f.grouped(4_505_200), "4,505,200")
    XCTAssertEqual(f.axisNumber(1500, step: 500), "1.5K")
  }

  /// Each locale's names, separators and compact suffixes, checked against its file.
  func testEachLocaleWritesItsOwnData() throws {
    let t = LocaleTests.ms(2019, 2, 28)
    for name in ChartLocale.names {
      let f = try LocaleTests.format(name)
      let l = try LocaleTests.locale(name)
      XCTAssertEqual(f.locale, l)
      // The month at a month start is the stand-alone short name, with its pattern.
      XCTAssertEqual(f.axisLabel(LocaleTests.ms(2019, 3, 1)), f.format(TimeParts(year: 2019, month: 3, day: 1), cldr: l.patterns["month"]!))
      XCTAssertTrue(f.axisLabel(LocaleTests.ms(2019, 3, 1)).contains(l.standaloneMonthsShort[2]) || l.patterns["month"]!.contains("M"), name)
      if l.patterns["monthDay"]!.contains("MMM") { XCTAssertTrue(f.axisLabel(t).contains(l.monthsShort[1]), "\(name): \(f.axisLabel(t))") }
      XCTAssertTrue(f.axisLabel(t).contains("28"), name)
      // The poster of daily data names the weekday (Thursday) and the year.
      let poster = f.poster(t, precision: .day)
      XCTAssertTrue(poster.contains(l.weekdaysShort[4]) && poster.contains("2019"), "\(name): \(poster)")
      // Separators and grouping.
      let g = f.grouped(45_200.5)
      XCTAssertTrue(g.contains(l.group) && g.hasSuffix(l.decimal + "5"), "\(name): \(g)")
      // Compact suffixes: the file's form for a million.
      let million = l.compact.first { $0.magnitude == 6 }!
      let m = f.axisNumber(4_500_000, step: 500_000)
      XCTAssertTrue(m.hasSuffix(million.suffix) && m.hasPrefix(million.prefix), "\(name): \(m)")
      XCTAssertEqual(f.percent("42"), l.percentPrefix + "42" + l.percentSuffix)
    }
  }

  func testRussianJapaneseHindiSpanishGerman() throws {
    let ru = try LocaleTests.format("ru")
    XCTAssertEqual(ru.axisLabel(LocaleTests.ms(2019, 2, 10)), "10 февр.")
    XCTAssertEqual(ru.axisLabel(LocaleTests.ms(2019, 3, 1)), "март")
    XCTAssertEqual(ru.axisLabel(LocaleTests.ms(2019, 1, 1)), "2019")
    XCTAssertEqual(ru.poster(LocaleTests.ms(2019, 2, 28), precision: .day), "чт, 28 февр. 2019\u{202f}г.")
    XCTAssertEqual(ru.poster(LocaleTests.ms(2019, 2, 28, 14, 0), precision: .time), "чт, 28 февр. 2019\u{202f}г., 14:00")
    XCTAssertEqual(ru.axisNumber(1500, step: 500), "1,5\u{a0}тыс.")
    XCTAssertEqual(ru.axisNumber(4_000_000, step: 1_000_000), "4\u{a0}млн")
    XCTAssertEqual(ru.grouped(4_505_200), "4\u{a0}505\u{a0}200")
    XCTAssertEqual(ru.percent(42), "42\u{a0}%")
    let ja = try LocaleTests.format("ja")
    XCTAssertEqual(ja.axisLabel(LocaleTests.ms(2019, 4, 3)), "4月3日")
    XCTAssertEqual(ja.axisLabel(LocaleTests.ms(2019, 1, 1)), "2019年")
    XCTAssertEqual(ja.axisNumber(45_000, step: 5000), "4.5万")
    XCTAssertEqual(ja.axisNumber(300_000_000, step: 100_000_000), "3億")
    XCTAssertEqual(ja.axisNumber(1500, step: 500), "1,500")  // no short form below 万: written out
    XCTAssertEqual(try LocaleTests.format("zh-Hans").axisNumber(200_000_000, step: 100_000_000), "2亿")
    let hi = try LocaleTests.format("hi")
    XCTAssertEqual(hi.grouped(4_505_200), "45,05,200")
    XCTAssertEqual(hi.axisNumber(300_000, step: 100_000), "3\u{a0}लाख")
    let es = try LocaleTests.format("es")
    XCTAssertEqual(es.grouped(1234), "1234")
    XCTAssertEqual(es.grouped(12345), "12.345")
    let de = try LocaleTests.format("de")
    XCTAssertEqual(de.axisNumber(1500, step: 500), "1.500")  // no short form for thousands: written out
    XCTAssertEqual(de.axisNumber(500_000, step: 100_000), "500.000")
    XCTAssertEqual(de.axisNumber(2_500_000, step: 500_000), "2,5\u{a0}Mio.")
    XCTAssertEqual(de.axisNumber(-0.5, step: 0.25), "\u{2212}0,5")
    XCTAssertEqual(try LocaleTests.format("fr").grouped(12345.5), "12\u{202f}345,5")
    // strftime-like templates.
    XCTAssertEqual(ru.format(LocaleTests.ms(2019, 3, 1), strftime: "%B %Y"), "март 2019")
    XCTAssertEqual(try LocaleTests.format("en").format(LocaleTests.ms(2019, 3, 1, 15, 4), strftime: "%a %d %b %y %I:%M %p %q %%"), "Fri 01 Mar 19 03:04 PM 1 %")
  }

  /// Unknown or near names: one line with the nearest ones; region variants find their language.
  func testLocaleNames() {
    XCTAssertEqual(ChartLocale.resolve("ru-RU"), "ru")
    XCTAssertEqual(ChartLocale.resolve("pt_br"), "pt-BR")
    XCTAssertEqual(ChartLocale.resolve("zh"), "zh-Hans")
    XCTAssertEqual(ChartLocale.resolve("ZH-HANS"), "zh-Hans")
    XCTAssertNil(ChartLocale.resolve("rus"))
    XCTAssertThrowsError(try ChartLocale.load("rus", directory: LocaleTests.directory)) { e in
      let m = (e as! ChartLocale.LoadError).message
      XCTAssertTrue(m.hasPrefix("unknown locale 'rus' (nearest: 'ru'"), m)
      XCTAssertFalse(m.contains("\n"))
    }
    XCTAssertThrowsError(try ChartLocale(json: Array("{\"locale\": \"x\"}".utf8)))
    XCTAssertThrowsError(try ChartLocale(json: Array("[1,".utf8)))
  }
}

/// IANA zones read from the system's tz database.
final class TimeZoneTests: XCTestCase {
  static func ms(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> Double { LocaleTests.ms(y, m, d, h, mi) }

  func testOffsetsAcrossDaylightSaving() throws {
    let oslo = try ChartTimeZone.load("Europe/Oslo")
    XCTAssertEqual(oslo.offsetMs(atUTC: Self.ms(2021, 1, 15)), 3_600_000)
    XCTAssertEqual(oslo.offsetMs(atUTC: Self.ms(2021, 7, 15)), 7_200_000)
    // 2021-03-28 01:00 UTC: 02:00 CET becomes 03:00 CEST.
    XCTAssertEqual(oslo.offsetMs(atUTC: Self.ms(2021, 3, 28, 0, 59)), 3_600_000)
    XCTAssertEqual(oslo.offsetMs(atUTC: Self.ms(2021, 3, 28, 1, 0)), 7_200_000)
    // Past the file's transitions the POSIX rule goes on (2100: last Sunday of March, Mar 28).
    XCTAssertEqual(oslo.offsetMs(atUTC: Self.ms(2100, 3, 28, 0, 59)), 3_600_000)
    XCTAssertEqual(oslo.offsetMs(atUTC: Self.ms(2100, 3, 28, 1, 0)), 7_200_000)
    let ny = try ChartTimeZone.load("America/New_York")
    // 2021-03-14 07:00 UTC (02:00 EST → 03:00 EDT); 2021-11-07 06:00 UTC (02:00 EDT → 01:00 EST).
    XCTAssertEqual(ny.offsetMs(atUTC: Self.ms(2021, 3, 14, 6, 59)), -5 * 3_600_000)
    XCTAssertEqual(ny.offsetMs(atUTC: Self.ms(2021, 3, 14, 7, 0)), -4 * 3_600_000)
    XCTAssertEqual(ny.offsetMs(atUTC: Self.ms(2021, 11, 7, 5, 59)), -4 * 3_600_000)
    XCTAssertEqual(ny.offsetMs(atUTC: Self.ms(2021, 11, 7, 6, 0)), -5 * 3_600_000)
    let kolkata = try ChartTimeZone.load("Asia/Kolkata")
    XCTAssertEqual(kolkata.offsetMs(atUTC: Self.ms(2021, 6, 1)), 5.5 * 3_600_000)
    XCTAssertTrue(try ChartTimeZone.load("UTC").isUTC)
    XCTAssertTrue(try ChartTimeZone.load("Etc/UTC").isUTC)
    // A southern zone (daylight saving time over the new year).
    let sydney = try ChartTimeZone.load("Australia/Sydney")
    XCTAssertEqual(sydney.offsetMs(atUTC: Self.ms(2150, 1, 15)), 11 * 3_600_000)
    XCTAssertEqual(sydney.offsetMs(atUTC: Self.ms(2150, 7, 15)), 10 * 3_600_000)
  }

  /// Day ticks across the European and American changes: every local midnight once, none
  /// missing or doubled, 23- and 25-hour days where the clocks change.
  func testDayTicksAtLocalMidnight() throws {
    for (name, spring, autumn) in [("Europe/Oslo", (2021, 3, 28), (2021, 10, 31)), ("America/New_York", (2021, 3, 14), (2021, 11, 7)),
                                   ("America/Sao_Paulo", (2018, 11, 4), (2019, 2, 17))] {
      let zone = try ChartTimeZone.load(name)
      for (y, m, d) in [spring, autumn] {
        let lo = Self.ms(y, m, d) - 5 * 86_400_000, hi = Self.ms(y, m, d) + 5 * 86_400_000
        let ticks = TimeScale.ticks(from: lo, to: hi, TimeInterval(.day, 1), zone: zone)
        XCTAssertGreaterThanOrEqual(ticks.count, 9, name)
        var lengths: [Double] = []
        for (k, t) in ticks.enumerated() {
          let p = TimeParts(localMs: zone.local(t))
          // At local midnight, or at the day's first instant when the clocks skip midnight
          // (São Paulo went from 00:00 to 01:00).
          XCTAssertTrue(p.secondOfDay == 0 || (p.secondOfDay == 3600 && name == "America/Sao_Paulo"), "\(name): tick \(k) at local \(p)")
          XCTAssertNotEqual(TimeParts(localMs: zone.local(t - 1)).day, p.day, "\(name): tick \(k) starts its day")
          if k > 0 {
            let prev = TimeParts(localMs: zone.local(ticks[k - 1]))
            XCTAssertEqual(ISODate.days(year: p.year, month: p.month, day: p.day) - ISODate.days(year: prev.year, month: prev.month, day: prev.day), 1, "\(name): no doubled or missing day")
            lengths.append((t - ticks[k - 1]) / 3_600_000)
          }
        }
        XCTAssertTrue(lengths.contains(23) || lengths.contains(25), "\(name) \(y)-\(m)-\(d): \(lengths)")
        XCTAssertTrue(lengths.allSatisfy { $0 == 23 || $0 == 24 || $0 == 25 }, "\(lengths)")
        // The labels are the local dates.
        let f = DisplayFormat(locale: .english, zone: zone)
        let labels = ticks.map(f.axisLabel)
        XCTAssertEqual(Set(labels).count, labels.count, "\(labels)")
      }
    }
  }

  /// Hour ticks keep to whole local hours across the change; month ticks at local month starts.
  func testHourAndMonthTicks() throws {
    let oslo = try ChartTimeZone.load("Europe/Oslo")
    let day = Self.ms(2021, 3, 27, 23)  // 2021-03-28 00:00 CET
    let ticks = TimeScale.ticks(from: day, to: day + 23 * 3_600_000, TimeInterval(.hour, 3), zone: oslo)
    let f = DisplayFormat(locale: .english, zone: oslo)
    XCTAssertEqual(ticks.map(f.axisLabel), ["Mar 28", "03:00", "06:00", "09:00", "12:00", "15:00", "18:00", "21:00", "Mar 29"])
    let months = TimeScale.ticks(from: Self.ms(2021, 1, 1), to: Self.ms(2022, 1, 1), TimeInterval(.month, 1), zone: oslo)
    XCTAssertEqual(months.map(f.axisLabel), ["Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "2022"])
    let ny = try ChartTimeZone.load("America/New_York")
    let fall = TimeScale.ticks(from: Self.ms(2021, 11, 7, 4), to: Self.ms(2021, 11, 7, 9), TimeInterval(.hour, 1), zone: ny)
    XCTAssertEqual(fall.map(DisplayFormat(locale: .english, zone: ny).axisLabel), ["Nov 7", "01:00", "01:00", "02:00", "03:00", "04:00"])
  }

  /// Times with an offset are instants: the same point whatever zone shows it; the poster
  /// shows it in the zone.
  func testOffsetTimesAndPoster() throws {
    let text = Array("2019-03-01T00:00+03:00".utf8)
    let t = try XCTUnwrap(text.withUnsafeBufferPointer { TimeParsing.parse($0.baseAddress!, $0.count, .iso) })
    XCTAssertEqual(t, Self.ms(2019, 2, 28, 21))
    let moscow = DisplayFormat(locale: .english, zone: try ChartTimeZone.load("Europe/Moscow"))
    XCTAssertEqual(moscow.poster(t, precision: .day), "Fri, Mar 1 2019")
    XCTAssertEqual(DisplayFormat.standard.poster(t, precision: .time), "Thu, Feb 28 2019 21:00")
    XCTAssertEqual(moscow.precision(of: ChartSet(name: "s", xs: [t, t + 86_400_000, t + 2 * 86_400_000], lines: [])), .day)
  }

  func testUnknownZone() {
    XCTAssertThrowsError(try ChartTimeZone.load("Europe/Olso")) { e in
      let m = (e as! ChartTimeZone.LoadError).message
      XCTAssertTrue(m.hasPrefix("unknown time zone 'Europe/Olso' (nearest: 'Europe/Oslo'"), m)
    }
    XCTAssertThrowsError(try ChartTimeZone.load("../../etc/passwd"))
    XCTAssertThrowsError(try ChartTimeZone.load("right/Europe/Oslo"))  // leap-second timestamps
    XCTAssertThrowsError(try ChartTimeZone.load("Europe"))  // a folder
    XCTAssertThrowsError(try ChartTimeZone.load(""))
    XCTAssertThrowsError(try ChartTimeZone.load("Oslo")) { e in
      XCTAssertTrue((e as! ChartTimeZone.LoadError).message.contains("'Europe/Oslo'"), "\(e)")
    }
    // No database: UTC still works, anything else says what to install.
    XCTAssertTrue(try ChartTimeZone.load("UTC", directory: "/nonexistent").isUTC)
    XCTAssertThrowsError(try ChartTimeZone.load("Europe/Oslo", directory: "/nonexistent")) { e in
      XCTAssertTrue((e as! ChartTimeZone.LoadError).message.contains("install tzdata"), "\(e)")
    }
  }

  /// Offsets are looked up often (every tick, every label): cheap enough.
  func testLookupSpeed() throws {
    let oslo = try ChartTimeZone.load("Europe/Oslo")
    let start = clock()
    var sum = 0.0
    for k in 0..<200_000 { sum += oslo.offsetMs(atUTC: Double(k) * 3_600_000 * 7) }
    let seconds = Double(clock() - start) / Double(CLOCKS_PER_SEC)
    XCTAssertGreaterThan(sum, 0)
    XCTAssertLessThan(seconds, 1.0, "200000 lookups took \(seconds) s")
  }
}

/// Folder listing without Foundation's FileManager in ChartModel's tests.
enum FileManagerLite {
  static func list(_ dir: String) throws -> [String] {
    guard let d = opendir(dir) else { throw NSError(domain: "opendir", code: 1) }
    defer { closedir(d) }
    var out: [String] = []
    while let e = readdir(d) {
      let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
      if name != "." && name != ".." { out.append(name) }
    }
    return out.sorted()
  }
}

/// The zones agree with Foundation's (which reads the same database through ICU) over 1970-2060.
final class TimeZoneFoundationTests: XCTestCase {
  func testAgreesWithFoundation() throws {
    let names = ["Europe/Oslo", "America/New_York", "America/Sao_Paulo", "Australia/Sydney", "Asia/Kolkata", "Europe/Moscow",
                 "America/Santiago", "Asia/Tehran", "Pacific/Chatham", "America/St_Johns", "Europe/Dublin", "Asia/Gaza", "Pacific/Apia"]
    var mismatches: [String] = []
    var ours = 0.0, theirs = 0.0
    for name in names {
      let zone = try ChartTimeZone.load(name)
      let tz = try XCTUnwrap(Foundation.TimeZone(identifier: name))
      var s: Int64 = 0
      while s < 2_840_000_000 {  // to 2060
        var c = clock()
        let a = zone.offsetSeconds(atUTC: s)
        ours += Double(clock() - c)
        c = clock()
        let b = tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(s)))
        theirs += Double(clock() - c)
        if Int(a) != b && mismatches.count < 10 { mismatches.append("\(name) at \(s): \(a) vs Foundation \(b)") }
        s += 86400 * 5 + 3607
      }
    }
    XCTAssertEqual(mismatches, [])
    print("time zone lookups: ours \(ours / Double(CLOCKS_PER_SEC)) s, Foundation \(theirs / Double(CLOCKS_PER_SEC)) s")
  }
}
