#!/usr/bin/env python3
"""W6 with the `bar_chart_race` package (https://github.com/dexplo/bar_chart_race): the same
CSV, the ten largest of 30 series, 1280x720 (a 6.4 x 3.6 in figure at 200 dpi), 30 steps a
period of 1000 ms (30 fps), to an MP4 through matplotlib's ffmpeg writer.

bar_chart_race 0.1.0 (the last release) needs pandas < 2 (it calls fillna(method=...)) and a
matplotlib of its time (< 3.8): scripts/bench installs them in a virtual environment.

Usage: w6_bar_chart_race.py IN.csv OUT.mp4
"""
import sys
import warnings

warnings.simplefilter("ignore")
import bar_chart_race as bcr  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

df = pd.read_csv(sys.argv[1], index_col="date", parse_dates=["date"])
# Our own figure: given only figsize, bar_chart_race widens it to fit the labels (1352 px).
fig = plt.Figure(figsize=(6.4, 3.6), dpi=200)
fig.add_subplot()
bcr.bar_chart_race(df, filename=sys.argv[2], n_bars=10, steps_per_period=30, period_length=1000,
                   fig=fig, title="W6", period_fmt="%Y")
