"""Zips a staged chartscene package into a wheel (used by scripts/wheel, before auditwheel).

    python3 python/build_wheel.py STAGE OUTDIR VERSION TAG

STAGE holds the package folder `chartscene/` (the Python modules, bin/, share/, lib/). This
writes OUTDIR/chartscene-VERSION-py3-none-TAG.whl with its .dist-info (METADATA, WHEEL,
entry_points.txt, RECORD), the files in a fixed order with a fixed date and their modes
(the binary stays executable), stored uncompressed (auditwheel writes the compressed wheel),
so the same stage gives the same bytes. Prints its path.
"""

import base64
import hashlib
import os
import sys
import zipfile

SUMMARY = "Chart scenes written in Lua, rendered to PNG, SVG, PDF, GIF, APNG and MP4 without a browser"

DESCRIPTION = """\
# chartscene

Chart scenes written as Lua scripts, rendered by a native binary (Swift, cairo, Pango): PNG,
SVG, PDF, GIF, APNG and MP4 (WebP and WebM with ffmpeg), with no browser and no system
packages. The wheel holds the `chartscene` binary, its fonts and presets and the C libraries
it loads.

    pip install chartscene
    chartscene scene.lua -o scene.png

From Python and Jupyter:

    import chartscene
    scene = chartscene.Scene("scene.lua", size=(720, 400), data={"sales": frame})
    scene.render("scene.mp4"); scene.png(at=2); scene.inspect(at=2)

`%load_ext chartscene` adds the `%%chartscene` cell magic. See docs/python.md.
"""


def digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def main():
    stage, outdir, version, tag = sys.argv[1:5]
    name = "chartscene"
    dist = "%s-%s.dist-info" % (name, version)
    files = []  # (archive name, bytes, mode)
    for root, dirs, names in os.walk(os.path.join(stage, name)):
        dirs.sort()
        for n in sorted(names):
            path = os.path.join(root, n)
            if "__pycache__" in path:
                continue
            with open(path, "rb") as f:
                files.append((os.path.relpath(path, stage), f.read(), os.stat(path).st_mode & 0o777))
    meta = {
        "METADATA": "Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\n"
                    "Requires-Python: >=3.8\nDescription-Content-Type: text/markdown\n\n%s"
                    % (name, version, SUMMARY, DESCRIPTION),
        "WHEEL": "Wheel-Version: 1.0\nGenerator: chartscene scripts/wheel\nRoot-Is-Purelib: false\n"
                 "Tag: py3-none-%s\n" % tag,
        "entry_points.txt": "[console_scripts]\nchartscene = chartscene.__main__:main\n",
    }
    for k, v in meta.items():
        files.append(("%s/%s" % (dist, k), v.encode("utf-8"), 0o644))
    record = "".join("%s,%s,%d\n" % (n, digest(b), len(b)) for n, b, _ in files) + "%s/RECORD,,\n" % dist
    files.append(("%s/RECORD" % dist, record.encode("utf-8"), 0o644))
    out = os.path.join(outdir, "%s-%s-py3-none-%s.whl" % (name, version, tag))
    # Stored, not deflated: auditwheel unpacks it and writes the compressed wheel.
    with zipfile.ZipFile(out + ".tmp", "w", zipfile.ZIP_STORED) as z:
        for n, b, mode in files:
            info = zipfile.ZipInfo(n, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            z.writestr(info, b)
    os.replace(out + ".tmp", out)
    print(out)


if __name__ == "__main__":
    main()
