#!/usr/bin/env python3
"""Writes the W3 CSV: a header `time,value`, then ROWS rows (default 1,000,000) of a time every
minute from 2020-01-01T00:00:00 (ISO 8601) and a random walk with four decimals (seeded, so
every run writes the same file). About 30 bytes a row.

Usage: w3_data.py OUT.csv [ROWS]
"""
import datetime
import sys

import numpy as np

out = sys.argv[1]
rows = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
rng = np.random.default_rng(3)
values = 1000 + np.cumsum(rng.normal(0, 1, rows))
clock = [f"T{m // 60:02d}:{m % 60:02d}:00," for m in range(1440)]
day0 = datetime.date(2020, 1, 1)
with open(out, "w") as f:
    f.write("time,value\n")
    for start in range(0, rows, 1440):
        day = (day0 + datetime.timedelta(days=start // 1440)).isoformat()
        n = min(1440, rows - start)
        vs = values[start:start + n].tolist()
        f.write("".join(f"{day}{clock[m]}{vs[m]:.4f}\n" for m in range(n)))
