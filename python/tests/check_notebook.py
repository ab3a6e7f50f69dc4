"""A notebook run by a real Jupyter kernel (nbclient, ipykernel) that uses chartscene.

    python check_notebook.py EXAMPLES_DIR OUT_DIR [DOCS_PAGE]

The notebook imports chartscene, shows a still and an animated scene, loads the extension
and uses the `%%chartscene` cell magic (a still at a time, an animated cell, a script error).
Checks each cell's output MIME types, that each PNG decodes to the size asked for, and that
the error cell shows the one `error:` line; the `%%chartscene` blocks of DOCS_PAGE
(docs/python.md) run as cells too and must each show a picture or a video. Writes the
executed notebook to OUT_DIR.
"""

import base64
import os
import sys

import nbformat
from nbclient import NotebookClient

from check_api import png_ok

STILL = '''local cs = require("chartscene")
local set = cs.data.sample()[1]
set:setRange(0.75, 1.0)
return cs.scene { width = 640, height = 480, root = cs.chart { data = set, title = "Followers" } }'''

MOVING = '''local cs = require("chartscene")
local set = cs.data.sample()[2]
return cs.scene { width = 320, height = 240, fps = 10, duration = 1,
  root = cs.chart { id = "c", data = set },
  timeline = { cs.drag { at = 0.1, target = "c.minimap.window", by = { -80, 0 }, duration = 0.6 } } }'''


def main():
    examples, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    nb = nbformat.v4.new_notebook()
    code = nbformat.v4.new_code_cell
    nb.cells = [
        code("import os, chartscene\nos.chdir(%r)" % examples),
        code('chartscene.Scene("chart.lua", size=(480, 300))'),
        code('chartscene.Scene("cards.lua", size=(240, 300), fps=10)'),
        code("%load_ext chartscene"),
        code("%%%%chartscene --size 720x400 --at 2\n%s" % STILL),
        code("%%%%chartscene --name moving\n%s" % MOVING),
        code("moving.at(0.5)"),
        code('%%chartscene\nlocal cs = require("chartscene")\nreturn cs.scene { root = cs.chart { titel = "x" } }',
             metadata={"tags": ["raises-exception"]}),
    ]
    docs = []
    if len(sys.argv) > 3:
        from run_doc_blocks import blocks

        text = open(sys.argv[3], encoding="utf-8").read()
        docs = [(line, body) for line, lang, body, _ in blocks(text) if lang == "python" and body.startswith("%%chartscene")]
        assert docs, "%s has no %%%%chartscene block" % sys.argv[3]
        nb.cells += [code(body.rstrip("\n")) for _, body in docs]
    client = NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": out}})
    client.execute()
    nbformat.write(nb, os.path.join(out, "chartscene.ipynb"))

    def bundle(i):
        shown = [o for o in nb.cells[i].outputs if o.output_type in ("execute_result", "display_data")]
        assert len(shown) == 1, "cell %d shows %d outputs: %s" % (i, len(shown), nb.cells[i].outputs)
        return shown[0].data

    def png(data, size):
        got = png_ok(base64.b64decode(data["image/png"]))
        assert got == size, "a PNG of %s, expected %s" % (got, size)

    d = bundle(1)
    assert {"image/png", "image/svg+xml", "text/plain"} <= set(d) and "text/html" not in d, sorted(d)
    png(d, (480, 300))
    assert "<svg" in d["image/svg+xml"]
    d = bundle(2)
    assert {"text/html", "image/png"} <= set(d), sorted(d)
    assert d["text/html"].startswith("<video controls") and "data:video/mp4;base64," in d["text/html"]
    mp4 = base64.b64decode(d["text/html"].split("base64,")[1].split('"')[0])
    assert mp4[4:8] == b"ftyp", mp4[:16]
    png(d, (240, 300))
    assert nb.cells[3].outputs == [], nb.cells[3].outputs
    d = bundle(4)
    assert {"image/png", "image/svg+xml"} <= set(d) and "text/html" not in d, sorted(d)
    png(d, (720, 400))
    d = bundle(5)
    assert "text/html" in d and "<video" in d["text/html"], sorted(d)
    png(d, (320, 240))
    png(bundle(6), (320, 240))
    errors = [o for o in nb.cells[7].outputs if o.output_type == "error"]
    assert len(errors) == 1 and errors[0].ename == "ChartsceneError", nb.cells[7].outputs
    assert errors[0].traceback == ["error: stdin:2: unknown key 'titel' in cs.chart (did you mean 'title'?)"], \
        errors[0].traceback
    for k, (line, _) in enumerate(docs):
        d = bundle(8 + k)
        assert "image/png" in d or "text/html" in d, "docs block at line %d shows %s" % (line, sorted(d))
    print("ok: the notebook ran in a real kernel: %s" % ", ".join(
        "/".join(sorted(o.get("data", {"error": 0}).keys())) for c in nb.cells for o in c.outputs
        if o.output_type in ("execute_result", "display_data", "error")))


if __name__ == "__main__":
    main()
