#!/usr/bin/env python3
"""Writes the W6 CSV: a header `date,Series 1,...,Series 30`, then 20 rows, one a year from
2001-01-01, of 30 values each: each series grows by its own trend with some noise (seeded,
so every run writes the same file), two decimals.

Usage: w6_data.py OUT.csv
"""
import random
import sys

random.seed(6)
names = [f"Series {i}" for i in range(1, 31)]
values = [100 + 900 * random.random() for _ in names]
trends = [-0.02 + 0.14 * random.random() for _ in names]
with open(sys.argv[1], "w") as f:
    f.write("date," + ",".join(names) + "\n")
    for k in range(20):
        if k > 0:
            values = [v * (1 + t + 0.12 * (random.random() - 0.5)) for v, t in zip(values, trends)]
        f.write(f"{2001 + k}-01-01," + ",".join(f"{v:.2f}" for v in values) + "\n")
