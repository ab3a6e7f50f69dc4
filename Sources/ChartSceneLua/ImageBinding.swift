import ChartModel
import Drawing
import Glibc
import LuaKit

/// `cs.image(path)`: a PNG file next to the script (read under the rules of data files),
/// decoded once; drawn with `g:image(img, x, y, w, h [, { opacity = }])`.
final class ImageHandle {
  let ref: ImageRef
  init(_ ref: ImageRef) { self.ref = ref }
}

enum ImageBinding {
  static let typeName = "Image"
  /// The largest picture: 4096 x 4096 pixels, a file of 32 MiB.
  static let maximumSide = 4096
  static let maximumBytes = 32 << 20

  static func register(_ lua: LuaState) {
    lua.register(LuaTypeInfo(
      name: typeName, of: ImageHandle.self,
      fields: [
        "width": { lua, i in lua.push(Double(i.ref.pixels.width)) },
        "height": { lua, i in lua.push(Double(i.ref.pixels.height)) },
      ],
      describe: { "Image \($0.ref.pixels.width)x\($0.ref.pixels.height)" }))
  }

  static func install(_ lua: LuaState, into cs: Int32, context: BindingContext) {
    var cache: [String: ImageHandle] = [:]
    lua.setFunction(cs, "image") { lua in
      let name = try lua.checkString(1, function: "image")
      let path = try context.confined(name)
      if let known = cache[path] { lua.push(object: known, as: typeName); return 1 }
      let fd: Int32, size: Int
      do { (fd, size) = try FileReader.openRegular(path) } catch let e as FileReader.ReadError { throw LuaError("cannot read '\(name)': \(e.reason)") } catch { throw LuaError("cannot read '\(name)'") }
      var head = [UInt8](repeating: 0, count: 24)
      let n = head.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, 24) }
      close(fd)
      let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
      guard n == 24, Array(head[0..<8]) == signature, Array(head[12..<16]) == Array("IHDR".utf8) else {
        throw LuaError("cannot use '\(name)' as an image: it is not a PNG file")
      }
      guard size <= maximumBytes else { throw LuaError("cannot use '\(name)' as an image: the file is larger than \(maximumBytes >> 20) MiB") }
      func be32(_ o: Int) -> Int { Int(head[o]) << 24 | Int(head[o + 1]) << 16 | Int(head[o + 2]) << 8 | Int(head[o + 3]) }
      let w = be32(16), h = be32(20)
      guard w >= 1, h >= 1, w <= maximumSide, h <= maximumSide else {
        throw LuaError("cannot use '\(name)' as an image: it is \(w)x\(h) pixels (at most \(maximumSide)x\(maximumSide))")
      }
      guard let decode = ImageRef.decode else { throw LuaError("cs.image needs the renderer (it is not loaded)") }
      guard let pixels = decode(path) else { throw LuaError("cannot use '\(name)' as an image: the PNG file is damaged") }
      context.files.insert(path)
      let handle = ImageHandle(ImageRef(path: BindingContext.realPath(path) ?? path, pixels: pixels))
      cache[path] = handle
      lua.push(object: handle, as: typeName)
      return 1
    }
  }
}
