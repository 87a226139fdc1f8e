#!/usr/bin/env python3
"""The paired difference of two arena matches played on the same seeds (docs/ENGINE.md, "The
arena"): each run's per-game lines (stderr, `game G seat S: ... score X, ...`) give the tested
agent's score in game G; with a node budget game G is the same game in both runs but for the
change, so the per-game differences measure it with less noise than two separate means.

    scripts/arena-paired.py after.err before.err
"""
import math
import re
import sys


def scores(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"game\s+(\d+) seat \d: .* score ([\d.]+),", line)
            if m:
                out[int(m.group(1))] = float(m.group(2))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: arena-paired.py AFTER.err BEFORE.err")
    a, b = scores(sys.argv[1]), scores(sys.argv[2])
    games = sorted(set(a) & set(b))
    if len(games) < 2:
        sys.exit("fewer than two games in common")
    diff = [a[g] - b[g] for g in games]
    n = len(diff)
    mean = sum(diff) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in diff) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    print(f"{n} paired games: {mean:+.3f} (95 % CI {mean - half:+.3f} to {mean + half:+.3f})")


if __name__ == "__main__":
    main()
