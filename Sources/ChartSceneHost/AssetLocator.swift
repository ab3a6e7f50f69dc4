import Glibc
import CAssets
import Platform

/// Finds the `assets/` folder (fonts, presets, sample data, editor definitions), in order:
///
/// 1. `$CHARTSCENE_ASSETS` — it must hold the assets, or every run fails saying so;
/// 2. `PREFIX/share/chartscene/assets` next to `PREFIX/bin/chartscene` (`scripts/install`);
/// 3. the nearest `assets/` above the executable (a build inside the repository);
/// 4. the copy embedded in the executable (`CAssets`), unpacked once into a cache folder
///    (`$XDG_CACHE_HOME/chartscene`, else `~/.cache/chartscene`, else
///    `/tmp/chartscene-UID`) named by a hash of its bytes, so a lone copy of the binary works
///    and two versions never share a folder.
public enum AssetLocator {
  /// The file every assets folder holds.
  static let marker = "fonts/Inter-Regular.otf"

  /// The assets folder, or the one line that says why there is none.
  public static func locate() throws(HostError) -> String {
    switch located {
    case .success(let dir): return dir
    case .failure(let e): throw e
    }
  }

  /// The assets folder, or nil when it cannot be found (see `locate()` for the reason).
  public static func assetsDirectory() -> String? { try? locate() }

  private static let located: Result<String, HostError> = {
    if let env = getenv("CHARTSCENE_ASSETS").map({ String(cString: $0) }), !env.isEmpty {
      if isFile(env + "/" + marker) { return .success(env) }
      return .failure(HostError("CHARTSCENE_ASSETS is '\(env)', which holds no chartscene assets (\(marker) is missing); unset it to use the assets built into chartscene"))
    }
    if let exe = executablePath() {
      var dir = Paths.directory(of: exe)
      let share = Paths.directory(of: dir) + "/share/chartscene/assets"
      if isFile(share + "/" + marker) { return .success(share) }
      for _ in 0..<8 {
        let candidate = dir + "/assets"
        if isFile(candidate + "/" + marker) { return .success(candidate) }
        let up = Paths.directory(of: dir)
        if up == dir { break }
        dir = up
      }
    }
    do throws(HostError) { return .success(try unpackEmbedded()) } catch { return .failure(error) }
  }()

  // MARK: - The embedded copy

  /// The files embedded in the executable: path relative to assets/, and bytes.
  public static func embedded() -> [(path: String, bytes: UnsafeBufferPointer<UInt8>)] {
    var count = 0
    guard let table = cs_embedded_assets(&count) else { return [] }
    return (0..<count).map { i in
      let a = table[i]
      return (String(cString: a.path), UnsafeBufferPointer(start: a.bytes, count: a.end - a.bytes))
    }
  }

  /// Unpacks the embedded assets into a cache folder named by their hash (once: a later run
  /// finds the folder complete and uses it as it is).
  static func unpackEmbedded() throws(HostError) -> String {
    let files = embedded()
    let name = "assets-" + String(digest(files), radix: 16)
    var bases: [String] = []
    if let x = env("XDG_CACHE_HOME"), x.hasPrefix("/") { bases.append(x + "/chartscene") }
    if let home = env("HOME"), home.hasPrefix("/") { bases.append(home + "/.cache/chartscene") }
    bases.append("/tmp/chartscene-\(getuid())")
    var reasons: [String] = []
    for base in bases {
      let dir = base + "/" + name
      if isFile(dir + "/.complete") && ownedPrivately(base) { return dir }
      if let reason = makePrivateFolder(base) { reasons.append(reason); continue }
      if let reason = unpack(files, into: dir, base: base) { reasons.append(reason); continue }
      return dir
    }
    throw HostError("cannot unpack chartscene's built-in assets (\(reasons.joined(separator: "; "))); set CHARTSCENE_ASSETS to a folder holding fonts/, presets/ and data/ (the repository's assets/)")
  }

  /// A digest of the files (paths and contents) that names their cache folder: FNV-1a over
  /// 8-byte words in four lanes, one word each in turn, folded at the end of each file (the
  /// fonts make ~10 MB: a byte at a time cost 10 ms a run, one lane of words 2 ms, which
  /// every chartscene process paid; four lanes multiply side by side).
  static func digest(_ files: [(path: String, bytes: UnsafeBufferPointer<UInt8>)]) -> UInt64 {
    let prime: UInt64 = 0x100_0000_01b3
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for f in files {
      for b in f.path.utf8 { h = (h ^ UInt64(b)) &* prime }
      let words = f.bytes.count / 8, quads = words / 4
      if let base = f.bytes.baseAddress {
        let raw = UnsafeRawPointer(base)
        var l0 = h, l1 = (h ^ 1) &* prime, l2 = (h ^ 2) &* prime, l3 = (h ^ 3) &* prime
        for q in 0..<quads {
          let o = q * 32
          l0 = (l0 ^ raw.loadUnaligned(fromByteOffset: o, as: UInt64.self)) &* prime
          l1 = (l1 ^ raw.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self)) &* prime
          l2 = (l2 ^ raw.loadUnaligned(fromByteOffset: o + 16, as: UInt64.self)) &* prime
          l3 = (l3 ^ raw.loadUnaligned(fromByteOffset: o + 24, as: UInt64.self)) &* prime
        }
        if quads > 0 {
          h = l0
          for l in [l1, l2, l3] { h = (h &* prime ^ l) &* prime }
        }
        for i in (quads * 4)..<words { h = (h ^ raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) &* prime }
      }
      for b in f.bytes[(words * 8)...] { h = (h ^ UInt64(b)) &* prime }
      h = (h ^ UInt64(f.bytes.count)) &* prime
    }
    return h
  }

  /// Writes the files into a new folder next to `dir` and renames it to `dir`. Nil when done.
  private static func unpack(_ files: [(path: String, bytes: UnsafeBufferPointer<UInt8>)], into dir: String, base: String) -> String? {
    var template = Array((base + "/.unpack-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { return "cannot create a folder in \(base): \(errorText())" }
    let tmp = String(cString: made)
    var failure: String? = nil
    for f in files where failure == nil {
      var sub = tmp
      for part in f.path.split(separator: "/").dropLast() {
        sub += "/" + part
        if mkdir(sub, 0o755) != 0 && errno != EEXIST { failure = "cannot create \(sub): \(errorText())" }
      }
      if failure == nil, !write(f.bytes, to: tmp + "/" + f.path) { failure = "cannot write \(tmp)/\(f.path): \(errorText())" }
    }
    if failure == nil, !write(UnsafeBufferPointer(start: nil, count: 0), to: tmp + "/.complete") { failure = "cannot write in \(tmp): \(errorText())" }
    if failure == nil, rename(tmp, dir) == 0 { return nil }
    removeTree(tmp)
    if failure == nil, isFile(dir + "/.complete") { return nil }  // another run unpacked it first
    return failure ?? "cannot rename \(tmp): \(errorText())"
  }

  /// Creates `path` (mode 0700) when missing; refuses one that another user owns or others
  /// may write to (a shared /tmp). Nil when it can be used.
  private static func makePrivateFolder(_ path: String) -> String? {
    let parentDir = Paths.directory(of: path)
    if !isDirectory(parentDir) { _ = makePrivateFolder(parentDir) }
    if mkdir(path, 0o700) != 0 && errno != EEXIST { return "cannot create \(path): \(errorText())" }
    return ownedPrivately(path) ? nil : "\(path) is not a folder of this user's that only it may write"
  }

  private static func ownedPrivately(_ path: String) -> Bool {
    var st = stat()
    guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { return false }
    return st.st_uid == getuid() && (st.st_mode & 0o022) == 0
  }

  private static func write(_ bytes: UnsafeBufferPointer<UInt8>, to path: String) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return writeAll(fd, UnsafeRawBufferPointer(bytes)) == 0
  }

  private static func removeTree(_ path: String) {
    guard let d = opendir(path) else { unlink(path); return }
    while let e = readdir(d) {
      let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
      if name == "." || name == ".." { continue }
      let child = path + "/" + name
      if isDirectory(child) { removeTree(child) } else { unlink(child) }
    }
    closedir(d)
    rmdir(path)
  }

  // MARK: - Paths

  static func env(_ name: String) -> String? {
    guard let v = getenv(name) else { return nil }
    let s = String(cString: v)
    return s.isEmpty ? nil : s
  }

  static func errorText() -> String { String(cString: strerror(errno)) }

  static func executablePath() -> String? {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  static func isFile(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
  }

  public static func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
  }

  /// One name for an output that may not exist yet: its folder's canonical path and its
  /// own name (`out/./a.png`, `out//a.png` and `../w/out/a.png` are one file).
  public static func canonicalOutput(_ path: String) -> String {
    if let whole = realPath(path) { return whole }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let folder = realPath(Paths.directory(of: path)) else { return path }
    return (folder == "/" ? "" : folder) + "/" + name
  }

  /// The canonical path of an existing file, for comparing two names of one file.
  public static func realPath(_ path: String) -> String? {
    guard let p = realpath(path, nil) else { return nil }
    defer { free(p) }
    return String(cString: p)
  }
}
