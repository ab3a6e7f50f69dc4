#!/usr/bin/env python3
"""Benchmark workload W1 drawn with matplotlib (Agg), for comparison with bench/w1.lua.

The five round-1 sets of the Telegram contest (assets/data/chart_data.json) stacked on one
1080x3200 px canvas (dpi 100), each panel 640 px tall: a title, the main plot of the window
[0.75, 1.0] with 2 px lines, a Y grid of 5-6 lines with compact labels, ~6 date labels, a
1048x72 mini-map with all lines and the outside of the window shaded, and one coloured
rounded chip with a check mark and the line's name per line. White background.

Usage: w1_matplotlib.py [-o OUT.png] [DATA.json]
"""
import json
import math
import os
import subprocess
import sys

try:
    import matplotlib
except ImportError:  # install quietly on first use
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "matplotlib"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402  (comes with matplotlib)
import matplotlib.dates as mdates  # noqa: E402
from matplotlib import font_manager  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import FancyBboxPatch, Rectangle  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter  # noqa: E402
from matplotlib.transforms import IdentityTransform  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

W, H, DPI = 1080, 3200, 100
PANEL_H = 640
PT = 72.0 / DPI  # points per pixel: every size below is given in pixels, like chartscene's
WINDOW = (0.75, 1.0)
TITLES = ["Followers", "Views", "Shares", "Joined", "Messages"]

# The day theme of chartscene.
TEXT = "#222222"
AXIS_TEXT = "#96A2AA"
GRID = (0x18 / 255, 0x2D / 255, 0x3B / 255, 0x1A / 255)
ZERO = (0x18 / 255, 0x2D / 255, 0x3B / 255, 0x33 / 255)
DIM = (0xE2 / 255, 0xEE / 255, 0xF9 / 255, 0xA0 / 255)
FRAME = "#C0D1E1"

# Layout of one panel (chartscene's ChartParts for a 1080x640 chart with one row of chips).
PAD_X, PAD_TOP, PAD_BOTTOM = 16, 12, 12
TITLE_H = 21 + 8
X_AXIS_H = 24
MINIMAP_H, MINIMAP_GAP = 72, 10
CHIP_H, CHIP_GAP, CHIP_TOP = 32, 8, 14
HEADROOM = 20
HANDLE_W = 10


def use_inter():
    """The font chartscene draws with (bundled Inter); matplotlib's default when missing."""
    fonts = os.path.join(REPO, "assets", "fonts")
    try:
        for name in ("Inter-Regular.otf", "Inter-SemiBold.otf", "Inter-Bold.otf"):
            font_manager.fontManager.addfont(os.path.join(fonts, name))
        matplotlib.rcParams["font.family"] = "Inter"
    except (OSError, RuntimeError):
        pass


def nice_scale(lo, hi):
    """chartscene's YScale.nice: the tightest nice bounds with 4 or 5 intervals."""
    if hi - lo < max(abs(hi), abs(lo)) * 1e-9 or hi == lo:
        pad = 1 if lo == 0 else abs(lo) * 0.1
        lo, hi = lo - pad, hi + pad
    span = hi - lo
    exp = math.floor(math.log10(span / 5))
    best, best_score = None, math.inf
    for e in range(exp - 1, exp + 2):
        p = 10.0 ** e
        for m, penalty in ((1, 0), (2, .02), (5, .02), (2.5, .05), (4, .08), (3, .1), (6, .1), (8, .12)):
            step = m * p
            tlo = math.floor(lo / step) * step
            n = math.ceil((hi - tlo) / step - 1e-9)
            if n > 5:
                continue
            n = max(n, 4)
            thi = tlo + n * step
            score = (thi - tlo - span) / (thi - tlo) + penalty
            if score < best_score:
                best, best_score = (tlo, thi, step), score
    return best


def compact(value, step):
    """chartscene's CompactNumber.format: 950, 1.2K, 4.5M."""
    if value == 0 or abs(value) < step * 1e-9:
        return "0"
    ref = max(abs(value), abs(step))
    div, suffix = next(((d, s) for d, s in ((1e9, "B"), (1e6, "M"), (1e3, "K")) if ref >= d), (1, ""))
    decimals = 0
    s = step / div
    while decimals < 3 and abs(s * 10 ** decimals - round(s * 10 ** decimals)) > 1e-6:
        decimals += 1
    text = f"{value / div:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text + suffix


def px_rect(x, y, w, h):
    """A rectangle given top-down in pixels as figure fractions for add_axes."""
    return [x / W, 1 - (y + h) / H, w / W, h / H]


def load(path):
    sets = []
    for chart in json.load(open(path)):
        cols = {c[0]: c[1:] for c in chart["columns"]}
        xid = next(k for k, t in chart["types"].items() if t == "x")
        xs = np.asarray(cols[xid], dtype="datetime64[ms]")
        lines = [(k, np.asarray(cols[k], dtype=float), chart["names"][k], chart["colors"][k])
                 for k, t in chart["types"].items() if t == "line"]
        sets.append((xs, lines))
    return sets


def panel(fig, renderer, index, title, xs, lines):
    top = index * PANEL_H + PAD_TOP
    x0, width = PAD_X, W - 2 * PAD_X
    plot_h = PANEL_H - PAD_TOP - PAD_BOTTOM - TITLE_H - X_AXIS_H - MINIMAP_H - MINIMAP_GAP - CHIP_H - CHIP_TOP
    plot_y = top + TITLE_H
    mm_y = plot_y + plot_h + X_AXIS_H + MINIMAP_GAP
    chip_y = mm_y + MINIMAP_H + CHIP_TOP

    fig.text(x0, H - top, title, transform=IdentityTransform(), va="top", ha="left",
             fontsize=17 * PT, fontweight="semibold", color=TEXT)

    # The window: the points inside plus one on each side, so lines run to the edges.
    t = xs.astype("int64").astype(float)
    t_lo = t[0] + WINDOW[0] * (t[-1] - t[0])
    t_hi = t[0] + WINDOW[1] * (t[-1] - t[0])
    a = max(0, int(np.searchsorted(t, t_lo - 1e-6, "left")) - 1)
    b = min(len(t), int(np.searchsorted(t, t_hi + 1e-6, "right")) + 1)
    # The Y range is that of the points inside the window (the extra two may overshoot).
    ia = int(np.searchsorted(t, t_lo - 1e-6, "left"))
    ib = max(ia, int(np.searchsorted(t, t_hi + 1e-6, "right")))
    ra, rb = (ia, ib) if ib > ia else (a, b)
    lo = min(v[ra:rb].min() for _, v, _, _ in lines)
    hi = max(v[ra:rb].max() for _, v, _, _ in lines)
    ylo, yhi, step = nice_scale(lo, hi)
    ticks = [ylo + k * step for k in range(int(round((yhi - ylo) / step)) + 1)]
    per_px = (yhi - ylo) / (plot_h - HEADROOM - 1)  # headroom above the top grid line for its label

    ax = fig.add_axes(px_rect(x0, plot_y, width, plot_h))
    ax.set_facecolor("none")
    for _, v, _, color in lines:
        ax.plot(xs[a:b], v[a:b], color=color, lw=2 * PT, solid_joinstyle="round", solid_capstyle="round")
    ax.set_xlim(np.datetime64(int(t_lo), "ms"), np.datetime64(int(t_hi), "ms"))
    ax.set_ylim(ylo - per_px, yhi + HEADROOM * per_px)
    for s in ax.spines.values():
        s.set_visible(False)
    ax.yaxis.set_major_locator(FixedLocator(ticks))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: compact(v, step)))
    ax.grid(axis="y", color=GRID, lw=1 * PT)
    ax.axhline(ticks[0], color=ZERO, lw=1 * PT)
    ax.tick_params(axis="y", length=0, pad=-2 * PT, labelsize=12 * PT, labelcolor=AXIS_TEXT)
    for label in ax.get_yticklabels():
        label.set_horizontalalignment("left")
        label.set_verticalalignment("bottom")
    # ~6 date labels, every k days counted back from the last point (as chartscene anchors them).
    days = (t_hi - t_lo) / 86_400_000
    k = max(1, round(days / 5.5))
    anchors = [t[-1] - j * k * 86_400_000 for j in range(int(days / k) + 2)]
    shown = sorted(v for v in anchors if t_lo - 1e-6 <= v <= t_hi + 1e-6)
    ax.xaxis.set_major_locator(FixedLocator([mdates.date2num(np.datetime64(int(v), "ms")) for v in shown]))
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%b %-d"))
    ax.tick_params(axis="x", length=0, pad=6 * PT, labelsize=12 * PT, labelcolor=AXIS_TEXT)
    labels = ax.get_xticklabels()  # keep the labels at the ends inside the plot
    if shown and (shown[-1] - t_lo) / (t_hi - t_lo) * width > width - 25:
        labels[-1].set_horizontalalignment("right")
    if shown and (shown[0] - t_lo) / (t_hi - t_lo) * width < 25:
        labels[0].set_horizontalalignment("left")

    # The mini-map: every point of every line, the outside of the window shaded and framed.
    mm = fig.add_axes(px_rect(x0, mm_y, width, MINIMAP_H))
    mm.set_axis_off()
    for _, v, _, color in lines:
        mm.plot(xs, v, color=color, lw=1 * PT)
    olo = min(v.min() for _, v, _, _ in lines)
    ohi = max(v.max() for _, v, _, _ in lines)
    pad = (ohi - olo) * 3 / (MINIMAP_H - 6)
    mm.set_xlim(xs[0], xs[-1])
    mm.set_ylim(olo - pad, ohi + pad)
    wl, wr = WINDOW
    for sx, sw in ((0, wl), (wr, 1 - wr)):
        if sw > 0:
            mm.add_patch(Rectangle((sx, 0), sw, 1, transform=mm.transAxes, color=DIM, lw=0, zorder=3))
    hw = HANDLE_W / width
    for bx in (wl, wr - hw):
        mm.add_patch(Rectangle((bx, 0), hw, 1, transform=mm.transAxes, color=FRAME, lw=0, zorder=4))
        mm.add_patch(Rectangle((bx + hw / 2 - 1 / width, 0.5 - 5 / MINIMAP_H), 2 / width, 10 / MINIMAP_H,
                               transform=mm.transAxes, color="white", lw=0, zorder=5))
    for by in (0, 1 - 1.5 / MINIMAP_H):
        mm.add_patch(Rectangle((wl, by), wr - wl, 1.5 / MINIMAP_H, transform=mm.transAxes, color=FRAME, lw=0, zorder=4))

    chips(fig, renderer, x0, H - (chip_y + CHIP_H / 2), lines)


def chips(fig, renderer, x, cy, lines):
    """Check-mark chips from x along the figure row cy (pixels from the bottom): a rounded
    box in the line's colour, a white tick and the name."""
    for _, _, name, color in lines:
        label = fig.text(x + 36, cy, name, transform=IdentityTransform(), va="center_baseline", ha="left",
                         fontsize=14 * PT, fontweight="semibold", color="white", zorder=3)
        w = math.ceil(12 + 16 + 8 + label.get_window_extent(renderer).width + 14)
        fig.patches.append(FancyBboxPatch((x, cy - CHIP_H / 2), w, CHIP_H, boxstyle=f"round,pad=0,rounding_size={CHIP_H / 2}",
                                          transform=IdentityTransform(), fc=color, ec="none", zorder=1))
        cx = x + 20
        fig.lines.append(Line2D([cx - 5.5, cx - 1.5, cx + 5.5], [cy - 0.5, cy - 4.5, cy + 4], transform=IdentityTransform(),
                                color="white", lw=2.2 * PT, solid_capstyle="round", solid_joinstyle="round", zorder=2))
        x += w + CHIP_GAP


def main(argv):
    out = os.path.join(os.getcwd(), "w1_matplotlib.png")
    data = os.path.join(REPO, "assets", "data", "chart_data.json")
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("-o", "--output"):
            out = args.pop(0)
        else:
            data = a
    use_inter()
    fig = Figure(figsize=(W / DPI, H / DPI), dpi=DPI, facecolor="white")
    canvas = FigureCanvasAgg(fig)
    renderer = canvas.get_renderer()
    for i, (xs, lines) in enumerate(load(data)):
        panel(fig, renderer, i, TITLES[i] if i < len(TITLES) else f"Chart {i + 1}", xs, lines)
    fig.savefig(out, dpi=DPI, facecolor="white")


if __name__ == "__main__":
    main(sys.argv[1:])
