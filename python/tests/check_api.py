"""The Python API of an installed chartscene wheel, run from a folder holding examples/.

    python check_api.py EXAMPLES_DIR OUT_DIR

Exits non-zero (an AssertionError naming the case) on the first failure; prints one `ok:` line
per case. scripts/check-wheel runs it on a clean Debian root, in a fresh venv holding only the
wheel (and the notebook's packages), where ffmpeg, cairo, Pango and Lua are not installed.
"""

import json
import os
import shutil
import struct
import sys
import zlib

import chartscene


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG: %r" % data[:16]
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def png_ok(data):
    """Every chunk's CRC is right and the image data inflates (a whole, readable PNG)."""
    w, h, _ = png_read(data)
    return w, h


def png_pixels(data):
    """The image's header and inflated rows: the picture, without its text chunks (a still
    carries Title, Description and Software; a sequence's frames carry none)."""
    _, _, raw = png_read(data)
    return data[8:33], raw


def png_read(data):
    pos, idat = 8, b""
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, "bad CRC in %r" % kind
        if kind == b"IDAT":
            idat += body
        pos += 12 + n
        if kind == b"IEND":
            break
    w, h = png_size(data)
    raw = zlib.decompress(idat)
    assert len(raw) in (h * (1 + 3 * w), h * (1 + 4 * w)), (len(raw), w, h)
    return w, h, raw


def expect_error(fn, *words):
    try:
        fn()
    except chartscene.ChartsceneError as e:
        assert "\n" not in str(e), "not one line: %r" % str(e)
        assert str(e).startswith("error: "), str(e)
        for w in words:
            assert w in str(e), "%r not in %r" % (w, str(e))
        return e
    raise AssertionError("no ChartsceneError for %s" % (words,))


def main():
    examples, out = sys.argv[1], sys.argv[2]
    os.chdir(examples)

    # A still scene: PNG, SVG, PDF, the inspect JSON, the size it was given.
    chart = chartscene.Scene("chart.lua")
    assert not chart.animated and chart.frame_count == 1
    assert png_ok(chart.png()) == (720, 640)
    small = chartscene.Scene("chart.lua", size=(480, 360), theme="night", scale=2)
    assert png_ok(small.png()) == (960, 720)
    tree = small.inspect()
    assert tree["size"] == [480, 360] and tree["theme"] == "night" and tree["root"]["kind"] == "chart", tree["size"]
    assert chartscene.__version__ in (tree["version"], "0+source"), (tree["version"], chartscene.__version__)
    assert chart.svg().lstrip().startswith("<?xml") and chart.pdf().startswith(b"%PDF-")
    assert chart._repr_png_()[:4] == b"\x89PNG" and "<svg" in chart._repr_svg_() and chart._repr_html_() is None
    print("ok: a still scene as PNG, SVG, PDF and --inspect")

    # An animated one: frames, a frame at a time, the whole video as MP4 through the carried
    # libx264 (no ffmpeg here), GIF and APNG written by chartscene itself.
    assert chartscene.Scene("cards.lua").frame_count == 285  # 9.5 s at 30 fps
    cards = chartscene.Scene("cards.lua", size=(360, 450), fps=10)
    assert cards.animated and cards.frame_rate == 10 and cards.frame_count == 95, (cards.frame_rate, cards.frame_count)
    assert png_size(cards.png(at=5)) == (360, 450)
    assert cards.inspect(at=5)["time"] == 5.0
    frames = list(cards.frames(0, 4))
    assert len(frames) == 5 and all(png_ok(f) == (360, 450) for f in frames)
    assert png_pixels(frames[0]) == png_pixels(cards.png(at=0)), "frame 0 differs from the still at 0"
    mp4 = cards.render(os.path.join(out, "cards.mp4"))
    head = open(mp4, "rb").read(64)
    assert head[4:8] == b"ftyp" and os.path.getsize(mp4) > 10000, head
    assert cards.render(os.path.join(out, "cards.gif"), frames=(0, 9)).stat().st_size > 1000
    assert cards.video("apng")[:8] == b"\x89PNG\r\n\x1a\n"
    html = cards._repr_html_()
    assert html.startswith("<video") and "data:video/mp4;base64," in html
    print("ok: an animated scene: frames, MP4 without ffmpeg, GIF, APNG, HTML video")

    # Without ffmpeg, WebM and WebP say so in one line (where there is one, they are written).
    webm = os.path.join(out, "cards.webm")
    if shutil.which("ffmpeg") is None:
        e = expect_error(lambda: cards.render(webm, frames=(0, 2)), "ffmpeg")
        assert not os.path.exists(webm)
        print("ok: WebM without ffmpeg: " + str(e))
    else:
        assert cards.render(webm, frames=(0, 2)).stat().st_size > 0
        print("ok: WebM (this system has ffmpeg)")

    # Arguments and data from Python: a list of dicts, anything with .to_csv, CSV text, stdin.
    with open(os.path.join(out, "sales.lua"), "w") as f:
        f.write('local cs = require("chartscene")\n'
                'local sales = cs.data.csv(cs.args.sales, { name = cs.args.title })\n'
                'return cs.scene { width = 400, height = 300,\n'
                '  root = cs.chart { id = "c", data = sales, title = cs.args.title } }\n')
    rows = [{"date": "2024-01-%02d" % d, "north": d * 3, "south": 40 - d} for d in range(1, 29)]
    s = chartscene.Scene(os.path.join(out, "sales.lua"), args={"title": "Sales"}, data={"sales": rows})
    node = s.inspect()["root"]
    assert node["title"] == "Sales" and node["dataRange"] == [3.0, 84.0], node["dataRange"]

    class Frame:  # what pandas offers: to_csv() without a path gives the text
        def to_csv(self, **kw):
            return "day,visits\n2024-03-01,5\n2024-03-02,7\n2024-03-03,6\n"

    s = chartscene.Scene(os.path.join(out, "sales.lua"), args={"title": "Visits"}, data={"sales": Frame()})
    assert s.inspect()["root"]["dataRange"] == [5.0, 7.0]
    with open(os.path.join(out, "stdin.lua"), "w") as f:
        f.write('local cs = require("chartscene")\n'
                'return cs.scene { width = 300, height = 200, root = cs.chart { data = cs.data.csv("-") } }\n')
    s = chartscene.Scene(os.path.join(out, "stdin.lua"), data=[
        {"t": "2024-01-01", "v": 4}, {"t": "2024-01-02", "v": 9}, {"t": "2024-01-03", "v": 2}])
    assert s.inspect()["root"]["dataRange"] == [2.0, 9.0]
    assert png_size(s.png()) == (300, 200)
    print("ok: args and data (list of dicts, .to_csv, standard input)")

    # Lua text, and errors: the one line, its file and line.
    s = chartscene.Scene(lua='local cs = require("chartscene")\nreturn cs.scene { width = 200, height = 100,'
                             ' root = cs.text { text = "hi" } }\n')
    assert png_size(s.png()) == (200, 100)
    bad = chartscene.Scene(lua='local cs = require("chartscene")\n\nreturn cs.scene { root = cs.chart { titel = "x" } }\n')
    e = expect_error(bad.png, "unknown key 'titel'", "did you mean 'title'")
    assert (e.file, e.line) == ("stdin", 3) and e.status == 1, (e.file, e.line, e.status)
    e = expect_error(lambda: chartscene.Scene(os.path.join(out, "sales.lua"), args={"title": "x"},
                                              data={"sales": "a,b\n1,2\nthree\n"}).png(), "sales.csv")
    assert e.file.endswith("sales.lua") and e.line == 2, (e.file, e.line)
    expect_error(lambda: chartscene.Scene("nope.lua"), "cannot read 'nope.lua'")
    expect_error(lambda: chart.render(os.path.join(out, "x.docx")), "unknown output format '.docx'")
    expect_error(lambda: chartscene.Scene("chart.lua", size=(0, 10)).png(), "--size")
    for bad_data in (42, object()):
        try:
            chartscene.Scene("chart.lua", data={"x": bad_data})
        except TypeError as t:
            assert "expected a table" in str(t)
        else:
            raise AssertionError("data=%r accepted" % (bad_data,))
    print("ok: Lua text; errors carry the one line, the file and the line")

    # The command line of the wheel: `chartscene` and `python -m chartscene`.
    result = json.loads(os.popen("python -m chartscene chart.lua --inspect --at 1").read())
    assert result["time"] == 1.0
    print("ok: python -m chartscene")


if __name__ == "__main__":
    main()
