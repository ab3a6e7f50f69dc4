#!/usr/bin/env python3
"""Benchmark workload W3 drawn with matplotlib (Agg), for comparison with bench/w3.lua.

Reads the W3 CSV (bench/w3_data.py) with numpy (`np.loadtxt`, its C reader, the time column
as datetime64) and draws every point on one 1920x1080 px figure like chartscene's chart: a
title, the line 2 px wide, a Y grid with labels, date labels, a mini-map of the whole line
under the plot and a chip naming the line. matplotlib simplifies long paths itself (its
default `path.simplify`), the counterpart of chartscene's decimation.

Usage: w3_matplotlib.py [-o OUT.png] DATA.csv
"""
import subprocess
import sys

try:
    import matplotlib
except ImportError:  # install quietly on first use
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "matplotlib"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

args = sys.argv[1:]
out = "w3_matplotlib.png"
if len(args) >= 2 and args[0] == "-o":
    out, args = args[1], args[2:]
path = args[0]

data = np.loadtxt(path, delimiter=",", skiprows=1,
                  dtype={"names": ("t", "v"), "formats": ("datetime64[s]", "f8")})
t, v = data["t"], data["v"]

W, H, DPI = 1920, 1080, 100
fig = Figure(figsize=(W / DPI, H / DPI), dpi=DPI, facecolor="white")
FigureCanvasAgg(fig)
color = "#3DC23F"
# Plot, mini-map and chip placed in pixels as chartscene's ChartParts does for 1920x1080.
ax = fig.add_axes([16 / W, (12 + 32 + 14 + 72 + 10 + 24) / H, (W - 32) / W, (H - 12 - 29 - 12 - 32 - 14 - 72 - 10 - 24 - 20) / H])
ax.plot(t, v, color=color, linewidth=2 * 72 / DPI)
ax.set_title("A million rows", loc="left", fontsize=16, color="#222222")
ax.grid(axis="y", color="#182D3B", alpha=0.1)
for s in ("top", "right", "left"):
    ax.spines[s].set_visible(False)
ax.tick_params(colors="#96A2AA", length=0)
mini = fig.add_axes([16 / W, (12 + 32 + 14) / H, (W - 32) / W, 72 / H])
mini.plot(t, v, color=color, linewidth=1)
mini.set_axis_off()
fig.patches.append(FancyBboxPatch((16 / W, 12 / H), 140 / W, 32 / H, boxstyle="round,pad=0,rounding_size=0.01",
                                  transform=fig.transFigure, facecolor=color, edgecolor=color))
fig.text(40 / W, 28 / H, "value", color="white", fontsize=12, va="center")
fig.savefig(out, dpi=DPI)
