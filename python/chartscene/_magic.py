"""`%%chartscene`: a notebook cell that is a scene script.

    %%chartscene --size 720x400 --at 2
    local cs = require("chartscene")
    return cs.scene { root = cs.chart { data = cs.data.sample()[1] } }

Options (as the command line's): --size WxH, --at T (one frame), --theme, --preset,
--scale, --fps, --arg KEY=VALUE (repeatable), --data NAME=VARIABLE (a table of the
notebook, read as cs.args.NAME), -o FILE (also write it; the format from its extension),
--name VARIABLE (keep the Scene in the notebook). Without --at a still shows as a picture
and an animated scene as a video.
"""

import argparse
import shlex

from ._scene import ChartsceneError, Scene


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise ChartsceneError("error: %%%%chartscene: %s" % message)


def _parser():
    p = _Parser(prog="%%chartscene", add_help=False)
    p.add_argument("--size")
    p.add_argument("--at", type=float)
    p.add_argument("--theme")
    p.add_argument("--preset")
    p.add_argument("--scale", type=float)
    p.add_argument("--fps", type=int)
    p.add_argument("--arg", action="append", default=[])
    p.add_argument("--data", action="append", default=[])
    p.add_argument("-o", "--output")
    p.add_argument("--name")
    return p


def cell(line, cell, namespace):
    """What the cell shows: a Frame (with --at) or the Scene."""
    opts = _parser().parse_args(shlex.split(line))
    args = {}
    for a in opts.arg:
        k, eq, v = a.partition("=")
        if not eq:
            raise ChartsceneError("error: %%%%chartscene: bad --arg '%s' (expected KEY=VALUE)" % a)
        args[k] = v
    data = {}
    for d in opts.data:
        k, eq, var = d.partition("=")
        var = var or k
        if var not in namespace:
            raise ChartsceneError("error: %%%%chartscene: --data %s: the notebook has no variable '%s'" % (d, var))
        data[k] = namespace[var]
    scene = Scene(lua=cell, args=args, size=opts.size, theme=opts.theme, preset=opts.preset,
                  scale=opts.scale, fps=opts.fps, data=data or None)
    scene.animated  # runs the script once: its error is the cell's one error, not the display's
    if opts.name:
        namespace[opts.name] = scene
    if opts.output:
        scene.render(opts.output, at=opts.at)
    return scene if opts.at is None else scene.at(opts.at)


def register(ipython):
    from IPython.core.magic import register_cell_magic  # noqa: F401 (IPython must be there)

    def chartscene(line, cell_text):
        return cell(line, cell_text, ipython.user_ns)

    chartscene.__doc__ = __doc__
    ipython.register_magic_function(chartscene, magic_kind="cell", magic_name="chartscene")
