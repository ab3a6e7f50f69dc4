"""chartscene from Python: chart scenes written in Lua, rendered by the chartscene binary.

    import chartscene
    scene = chartscene.Scene("cards.lua", size=(720, 400), theme="night")
    scene.render("cards.mp4")            # any format the command line writes
    png = scene.png(at=2)                # the frame at 2 s, as PNG bytes
    tree = scene.inspect(at=2)           # the scene as drawn at 2 s (--inspect), a dict

Everything goes through the `chartscene` binary shipped in this package (or the one
CHARTSCENE_BINARY names): one process a call, the same options, the same pictures, and a
failure raises ChartsceneError carrying the binary's one `error:` line. In Jupyter a scene
shows itself (a still as PNG/SVG, an animated scene as an inline MP4), and `%load_ext
chartscene` adds the `%%chartscene` cell magic. See docs/python.md.
"""

from ._scene import ChartsceneError, Frame, Scene, binary, run

__all__ = ["ChartsceneError", "Frame", "Scene", "binary", "run", "load_ipython_extension"]

try:  # the version of the wheel; a source checkout has none
    from ._version import __version__
except ImportError:  # pragma: no cover - only in a source tree
    __version__ = "0+source"


def load_ipython_extension(ipython):
    """`%load_ext chartscene`: registers the `%%chartscene` cell magic."""
    from ._magic import register

    register(ipython)
