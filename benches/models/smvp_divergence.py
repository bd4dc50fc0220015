"""How much of a warp's time the SMVP's old nested loop spent adding points (results chapter,
"One loop, not two"). Each invocation takes K consecutive entries of a window; the entries are
grouped by bucket, bucket sizes Poisson with mean n_b / B. The nested loop ran its runs (the
pieces of buckets inside the chunk) one round at a time, and a warp's round lasts as long as
its longest run among its 32 threads, so its cost is the sum over rounds of that maximum; the
work is K additions per thread. Prints K / cost averaged over warps for the plans of the
measured sizes. Plain Python, no dependencies: python3 benches/models/smvp_divergence.py
"""
import bisect
import math
import random


def poisson(lam):
    if lam < 30:  # Knuth's method
        limit, k, p = math.exp(-lam), 0, 1.0
        while True:
            p *= random.random()
            if p <= limit:
                return k
            k += 1
    return max(0, round(random.gauss(lam, math.sqrt(lam))))


def efficiency(points, buckets, k, warps=300):
    offsets = [0]
    for _ in range(buckets):
        offsets.append(offsets[-1] + poisson(points / buckets))
    chunks = offsets[-1] // k
    ratios = []
    for w in range(warps):
        runs = []
        for t in range(32):
            start = ((w * 32 + t) % chunks) * k
            end = start + k
            b = bisect.bisect_right(offsets, start) - 1
            pieces = []
            while b < buckets and offsets[b] < end:
                lo, hi = max(offsets[b], start), min(offsets[b + 1], end)
                if hi > lo:
                    pieces.append(hi - lo)
                b += 1
            runs.append(pieces)
        rounds = max(len(r) for r in runs)
        cost = sum(max(r[i] if i < len(r) else 0 for r in runs) for i in range(rounds))
        ratios.append(k / cost)
    return sum(ratios) / len(ratios)


if __name__ == "__main__":
    random.seed(1)
    # (batch points, buckets per window, K) of the plans at 2^20, 2^22, 2^18, 2^16
    for n_b, b, k in [(2**19, 16384, 272), (2**21, 32768, 1024), (2**18, 4096, 80), (2**16, 1024, 24)]:
        print(f"batch {n_b:>8} points, {b:>5} buckets, K = {k:>4}: {efficiency(n_b, b, k):.2f}")
