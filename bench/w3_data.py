#!/usr/bin/env python3
"""Writes the W3 CSV: a header `time,value`, then ROWS rows (default 1,000,000) of a time every
minute from 2020-01-01T00:00:00 (ISO 8601) and a random walk with four decimals (seeded, so
every run writes the same file). About 30 bytes a row.

Usage: w3_data.py OUT.csv [ROWS]
"""
import sys

import numpy as np

out = sys.argv[1]
rows = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
rng = np.random.default_rng(3)
values = 1000 + np.cumsum(rng.normal(0, 1, rows))
times = np.datetime64("2020-01-01T00:00:00") + np.arange(rows).astype("timedelta64[m]")
with open(out, "w") as f:
    f.write("time,value\n")
    step = 1_000_000
    for k in range(0, rows, step):
        t = np.datetime_as_string(times[k:k + step], unit="s")
        v = np.char.mod("%.4f", values[k:k + step])
        f.write("\n".join(np.char.add(np.char.add(t, ","), v)))
        f.write("\n")
