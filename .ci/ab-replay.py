"""Replays A/B runs offline with other paired estimators, on the blocks ABGateBenchmark wrote.

Run the benchmark with every pair kept and each block's statistics written out:

    ./mvnw -q -pl core test-compile exec:java -Dexec.classpathScope=test \
        -Dexec.mainClass=dev.goodput.core.bench.ABGateBenchmark -Dexec.args="20 0 A/A" \
        -Dab.firstPairs=32 -Dab.maxPairs=32 -Dab.blocks=/tmp/blocks.csv

then `python3 .ci/ab-replay.py /tmp/blocks.csv` (numpy and scipy; `--synthetic` for PairedEstimatorTest's seeded
model). The looks at 8, 16 and 32 pairs (98 % each, 96 % for two one-sided tests) are replayed as a sequential run
takes them, on the statistics the file holds. It re-implements PairedEstimator in a few lines, so that
estimators can be compared before one is built; docs/ci-gates.md has what it found.
"""
import csv
import math
import sys
from collections import defaultdict

import numpy as np
from scipy import stats

# The statistic columns of the blocks file: every column but these (the file of 2026-11-29 held eight, later ones
# the thirteen an A/B run compares).
NOT_STATISTICS = {"case", "seed", "pair", "arm", "first", "measured"}
STATS = []
MIN_CHANGE = 0.04
LOOKS = [8, 16, 32]
LOOK_CONF = {1: 0.95, 2: 0.971, 3: 0.98}


def binom_ranks(n, conf):
    t = (1 - conf) / 2
    cdf = stats.binom.cdf(np.arange(0, n + 1), n, 0.5)  # cdf[k] = F(k)
    lower = None
    for k in range(1, n + 1):
        if cdf[k - 1] <= t:
            lower = k
    upper = None
    for k in range(1, n + 1):
        if cdf[k - 1] >= 1 - t:
            upper = k
            break
    return lower, upper


def merge_units(d, rule):
    units = np.asarray(d, dtype=float)
    while len(units) // 2 >= 8:
        r1 = lag1(units)
        limit = 0.1 if rule == "fixed" else stats.norm.ppf(0.95) / math.sqrt(len(units))
        if r1 <= limit:
            break
        units = (units[0:2 * (len(units) // 2):2] + units[1:2 * (len(units) // 2):2]) / 2
    return units


def lag1(v):
    m = v.mean()
    dev = v - m
    den = (dev * dev).sum()
    return 0.0 if den == 0 else (dev[1:] * dev[:-1]).sum() / den


def sign_interval(units, conf):
    s = np.sort(units)
    lo, up = binom_ranks(len(s), conf)
    if lo is None or up is None:
        return None
    return s[lo - 1], s[up - 1]


def yuen_interval(units, conf, trim=0.2):
    s = np.sort(units)
    n = len(s)
    g = int(math.floor(trim * n))
    h = n - 2 * g
    if h < 2:
        return None
    tm = s[g:n - g].mean()
    w = s.copy()
    w[:g] = s[g]
    w[n - g:] = s[n - g - 1]
    sw2 = w.var(ddof=1)
    se = math.sqrt(sw2) / ((1 - 2 * trim) * math.sqrt(n))
    q = stats.t.ppf(1 - (1 - conf) / 2, h - 1)
    return tm - q * se, tm + q * se


def verdict(est, lo, hi):
    # log scale -> change scale
    change, lower, upper = math.exp(est) - 1, math.exp(lo) - 1, math.exp(hi) - 1
    if lower > 0 and change >= MIN_CHANGE:
        return "REGRESSED"
    if upper < 0 and -change >= MIN_CHANGE:
        return "IMPROVED"
    if lower > -MIN_CHANGE and upper < MIN_CHANGE:
        return "UNCHANGED"
    return "INCONCLUSIVE"


def judge(d, conf, method):
    merge_rule, interval = method
    units = merge_units(d, merge_rule)
    est = float(np.median(units)) if interval == "sign" else float(stats.trim_mean(units, 0.2))
    make = sign_interval if interval == "sign" else yuen_interval
    iv = make(units, conf)
    if iv is None:
        return "INCONCLUSIVE", len(units)
    v = verdict(est, *iv)
    if v == "INCONCLUSIVE":
        tost = make(units, 2 * conf - 1)
        if tost is not None and verdict(est, *tost) == "UNCHANGED":
            v = "UNCHANGED"
    return v, len(units)


def run_verdict(pairs, method, looks=LOOKS):
    looks = [l for l in looks if l <= len(pairs)] or [len(pairs)]
    conf = LOOK_CONF[len(looks)]
    for i, look in enumerate(looks):
        verdicts = {}
        for stat in STATS:
            # A rate (goodput, throughput) regresses when it falls: its log ratio is turned so that worse is positive.
            worse = 1 if lower_is_better(stat) else -1
            d = [worse * math.log(p["B"][stat] / p["A"][stat]) for p in pairs[:look]]
            verdicts[stat] = judge(d, conf, method)[0]
        decided = all(v != "INCONCLUSIVE" for v in verdicts.values()) or "REGRESSED" in verdicts.values()
        if decided or i == len(looks) - 1:
            for overall in ["REGRESSED", "INCONCLUSIVE", "IMPROVED"]:
                if overall in verdicts.values():
                    return overall, look, verdicts
            return "UNCHANGED", look, verdicts


def lower_is_better(stat):
    return any(latency in stat.lower() for latency in ("ttft", "tpot", "itl", "e2el"))


def load(path):
    runs = defaultdict(lambda: defaultdict(dict))
    with open(path) as f:
        reader = csv.DictReader(f)
        STATS[:] = [column for column in reader.fieldnames if column not in NOT_STATISTICS]
        for row in reader:
            key = (row["case"], int(row["seed"]))
            arm = "A" if row["arm"] in ("BASELINE", "A") else "B"
            runs[key][int(row["pair"])][arm] = {s: float(row[s]) for s in STATS}
    out = {}
    for key, pairs in runs.items():
        out[key] = [pairs[p] for p in sorted(pairs) if "A" in pairs[p] and "B" in pairs[p]]
    return out


METHODS = {
    "current (median, sign test, merge r1>0.1)": ("fixed", "sign"),
    "median, sign test, merge r1 significant": ("significant", "sign"),
    "20% trimmed mean (Yuen), merge r1>0.1": ("fixed", "yuen"),
    "20% trimmed mean (Yuen), merge r1 significant": ("significant", "yuen"),
}

def synthetic(method, ratio, pairs=16, runs=2000, seed=1, phi=0.0, conf=0.95):
    """PairedEstimatorTest's model (shared drift, 2 % own noise, one block in ten 30-80 % slower), plus an AR(1)
    of coefficient phi in each arm's own noise, which correlates neighbouring pairs' differences."""
    rng = np.random.default_rng(seed)
    tally = defaultdict(int)
    covered = 0
    for _ in range(runs):
        drift = 0.0
        own_a = own_b = 0.0
        d = []
        for _ in range(pairs):
            drift = 0.8 * drift + 0.1 * rng.standard_normal()
            own_a = phi * own_a + math.sqrt(1 - phi * phi) * 0.02 * rng.standard_normal()
            own_b = phi * own_b + math.sqrt(1 - phi * phi) * 0.02 * rng.standard_normal()
            wa = 1.3 + 0.5 * rng.random() if rng.random() < 0.1 else 1
            wb = 1.3 + 0.5 * rng.random() if rng.random() < 0.1 else 1
            a = 10 * math.exp(drift) * math.exp(own_a) * wa
            b = 10 * math.exp(drift) * ratio * math.exp(own_b) * wb
            d.append(math.log(b / a))
        v, _ = judge(d, conf, method)
        tally[v] += 1
    return dict(tally)


def synthetic_report():
    for name, method in METHODS.items():
        print("==", name)
        for phi in (0.0, 0.5, 0.8):
            for ratio in (1.0, 1.04, 1.05):
                print(f"  phi {phi} ratio {ratio}: {synthetic(method, ratio, phi=phi)}")


def merge_report(path):
    runs = load(path)
    for rule in ("fixed", "significant"):
        print("merge rule", rule)
        for case in sorted({c for c, _ in runs}):
            counts = defaultdict(list)
            for (c, seed), pairs in sorted(runs.items()):
                if c != case:
                    continue
                for stat in STATS:
                    d = [math.log(p["B"][stat] / p["A"][stat]) for p in pairs[:32]]
                    counts[stat].append(len(merge_units(d, rule)))
            print("  ", case, {s: f"{sum(1 for u in v if u < 32)}/{len(v)} merged" for s, v in counts.items()})


if __name__ == "__main__":
    if sys.argv[1] == "--synthetic":
        synthetic_report()
        sys.exit()
    merge_report(sys.argv[1])
    runs = load(sys.argv[1])
    cases = sorted({c for c, _ in runs})
    for name, method in METHODS.items():
        print("==", name)
        for case in cases:
            tally = defaultdict(int)
            stops = []
            undecided = defaultdict(int)
            for (c, seed), pairs in sorted(runs.items()):
                if c != case:
                    continue
                v, look, verdicts = run_verdict(pairs, method)
                tally[v] += 1
                stops.append(look)
                for s, sv in verdicts.items():
                    if sv != "UNCHANGED" and v != "REGRESSED":
                        undecided[s + ":" + sv] += 1
            print(f"  {case:14s} {dict(tally)} mean pairs {np.mean(stops):.1f}  not unchanged: {dict(undecided)}")
