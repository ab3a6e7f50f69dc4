#!/usr/bin/env python3
"""Benchmark workload W5 drawn with matplotlib (Agg), for comparison with bench/w5.lua.

120 frames of 1280x720 of round-two chart 3 (seven stacked bar series, 365 days): the
window slides linearly from [0.00, 0.25] to [0.75, 1.00]; each frame has a title, the
stacked bars of the window (columns touching), a Y grid with compact labels fitted to the
stacked sums in the window, ~6 date labels, a mini-map of the stacked bars with the outside
of the window shaded and framed, and check-mark chips. matplotlib's best case: the bars of
the plot and of the mini-map are built once (`ax.bar` with `bottom=`), and per frame only
the limits, the ticks and the window shading move before `savefig`.

Usage: w5_matplotlib.py -o DIR [overview.json]
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # importing w1_matplotlib leaves no __pycache__ in bench/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import w1_matplotlib as w1  # noqa: E402  (shares the style, the scale rules and the chips)

import numpy as np  # noqa: E402
import matplotlib.dates as mdates  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter  # noqa: E402
from matplotlib.transforms import IdentityTransform  # noqa: E402

W, H, DPI = 1280, 720, 100
PT = w1.PT
FRAMES = 120
DAY = 86_400_000


def px_rect(x, y, w, h):
    return [x / W, 1 - (y + h) / H, w / W, h / H]


def load(path):
    chart = json.load(open(path))
    cols = {c[0]: c[1:] for c in chart["columns"]}
    xid = next(k for k, t in chart["types"].items() if t == "x")
    xs = np.asarray(cols[xid], dtype="datetime64[ms]")
    lines = [(c[0], np.asarray(c[1:], dtype=float), chart["names"][c[0]], chart["colors"][c[0]])
             for c in chart["columns"] if c[0] != xid]
    return xs, lines


def stacked(ax, xs, lines, width):
    bottom = np.zeros(len(xs))
    for _, v, _, color in lines:
        ax.bar(xs, v, width=width, bottom=bottom, color=color, linewidth=0, align="center")
        bottom = bottom + v
    return bottom


def main(argv):
    out = None
    data = os.path.join(w1.REPO, "examples", "data", "round2", "3", "overview.json")
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("-o", "--output"):
            out = args.pop(0)
        else:
            data = a
    if not out:
        sys.exit("usage: w5_matplotlib.py -o DIR [overview.json]")
    os.makedirs(out, exist_ok=True)
    w1.use_inter()
    xs, lines = load(data)
    t = xs.astype("int64").astype(float)
    day = np.timedelta64(DAY, "ms")

    fig = Figure(figsize=(W / DPI, H / DPI), dpi=DPI, facecolor="white")
    canvas = FigureCanvasAgg(fig)
    renderer = canvas.get_renderer()
    x0, width = w1.PAD_X, W - 2 * w1.PAD_X
    top = w1.PAD_TOP
    plot_h = H - w1.PAD_TOP - w1.PAD_BOTTOM - w1.TITLE_H - w1.X_AXIS_H - w1.MINIMAP_H - w1.MINIMAP_GAP - w1.CHIP_H - w1.CHIP_TOP
    plot_y = top + w1.TITLE_H
    mm_y = plot_y + plot_h + w1.X_AXIS_H + w1.MINIMAP_GAP
    chip_y = mm_y + w1.MINIMAP_H + w1.CHIP_TOP
    fig.text(x0, H - top, "Fruits", transform=IdentityTransform(), va="top", ha="left",
             fontsize=17 * PT, fontweight="semibold", color=w1.TEXT)

    ax = fig.add_axes(px_rect(x0, plot_y, width, plot_h))
    ax.set_facecolor("none")
    for s in ax.spines.values():
        s.set_visible(False)
    sums = stacked(ax, xs, lines, day)  # built once: only the limits move
    ax.set_axisbelow(False)
    ax.grid(axis="y", color=w1.GRID, lw=1 * PT)
    zero = ax.axhline(0, color=w1.ZERO, lw=1 * PT)
    ax.tick_params(axis="y", length=0, pad=-2 * PT, labelsize=12 * PT, labelcolor=w1.AXIS_TEXT)
    ax.tick_params(axis="x", length=0, pad=6 * PT, labelsize=12 * PT, labelcolor=w1.AXIS_TEXT)
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%b %-d"))

    mm = fig.add_axes(px_rect(x0, mm_y, width, w1.MINIMAP_H))
    mm.set_axis_off()
    stacked(mm, xs, lines, day)
    pad = sums.max() * 3 / (w1.MINIMAP_H - 6)
    mm.set_xlim(xs[0] - day / 2, xs[-1] + day / 2)
    mm.set_ylim(-pad, sums.max() + pad)
    hw = w1.HANDLE_W / width
    dims = [mm.add_patch(Rectangle((0, 0), 0, 1, transform=mm.transAxes, color=w1.DIM, lw=0, zorder=3)) for _ in range(2)]
    handles = [mm.add_patch(Rectangle((0, 0), hw, 1, transform=mm.transAxes, color=w1.FRAME, lw=0, zorder=4)) for _ in range(2)]
    grips = [mm.add_patch(Rectangle((0, 0.5 - 5 / w1.MINIMAP_H), 2 / width, 10 / w1.MINIMAP_H, transform=mm.transAxes,
                                    color="white", lw=0, zorder=5)) for _ in range(2)]
    borders = [mm.add_patch(Rectangle((0, by), 0, 1.5 / w1.MINIMAP_H, transform=mm.transAxes, color=w1.FRAME, lw=0, zorder=4))
               for by in (0, 1 - 1.5 / w1.MINIMAP_H)]

    w1.chips(fig, renderer, x0, H - (chip_y + w1.CHIP_H / 2), lines)

    for k in range(FRAMES):
        wl = 0.75 * k / (FRAMES - 1)
        wr = wl + 0.25
        t_lo = t[0] + wl * (t[-1] - t[0])
        t_hi = t[0] + wr * (t[-1] - t[0])
        # The columns reaching into the window (centred on their days).
        ia = int(np.searchsorted(t, t_lo - DAY / 2 - 1e-6, "left"))
        ib = max(ia + 1, int(np.searchsorted(t, t_hi + DAY / 2 + 1e-6, "right")))
        ylo, yhi, step = w1.nice_scale(0, sums[ia:ib].max())
        ticks = [ylo + i * step for i in range(int(round((yhi - ylo) / step)) + 1)]
        per_px = (yhi - ylo) / (plot_h - w1.HEADROOM)
        ax.set_xlim(np.datetime64(int(t_lo), "ms"), np.datetime64(int(t_hi), "ms"))
        ax.set_ylim(ylo, yhi + w1.HEADROOM * per_px)
        zero.set_ydata([ticks[0], ticks[0]])
        ax.yaxis.set_major_locator(FixedLocator(ticks))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _, step=step: w1.compact(v, step)))
        for label in ax.get_yticklabels():
            label.set_horizontalalignment("left")
            label.set_verticalalignment("bottom")
        days = (t_hi - t_lo) / DAY
        kd = max(1, round(days / 5.5))
        anchors = [t[-1] - j * kd * DAY for j in range(int((t[-1] - t_lo) / DAY / kd) + 2)]
        shown = sorted(v for v in anchors if t_lo - 1e-6 <= v <= t_hi + 1e-6)
        ax.xaxis.set_major_locator(FixedLocator([mdates.date2num(np.datetime64(int(v), "ms")) for v in shown]))
        labels = ax.get_xticklabels()
        for label in labels:
            label.set_horizontalalignment("center")
        if shown and (shown[-1] - t_lo) / (t_hi - t_lo) * width > width - 25:
            labels[-1].set_horizontalalignment("right")
        if shown and (shown[0] - t_lo) / (t_hi - t_lo) * width < 25:
            labels[0].set_horizontalalignment("left")
        dims[0].set_bounds(0, 0, wl, 1)
        dims[1].set_bounds(wr, 0, 1 - wr, 1)
        for h, g, bx in zip(handles, grips, (wl, wr - hw)):
            h.set_x(bx)
            g.set_x(bx + hw / 2 - 1 / width)
        for br in borders:
            br.set_x(wl)
            br.set_width(wr - wl)
        fig.savefig(os.path.join(out, f"f-{k:04d}.png"), dpi=DPI, facecolor="white")


if __name__ == "__main__":
    main(sys.argv[1:])
