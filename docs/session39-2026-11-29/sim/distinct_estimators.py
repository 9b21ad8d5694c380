# Session 39: distinct-count estimators on the run-time check's sample (the first 2^20 of 2^28 rows),
# simulated with numpy (seed 1): the evenly-drawn model (src/heuristics.c), Chao1 (the default since
# session 39) and GEE (sqrt(N/n) f1 + the groups seen more than once), against the groups 2^28 rows
# of each distribution show (expected value). Run: python3 distinct_estimators.py (about 20 s).
import numpy as np, math
rng = np.random.default_rng(1)
N = 2**28; n = 2**20
def uniform_model(n, d, N):
    if d >= n: return N
    lo, hi = d, min(N, n*n/(2*(n-d)))
    hi = max(hi, lo)
    for _ in range(100):
        mid = (lo+hi)/2
        if mid * -math.expm1(-n/mid) < d: lo = mid
        else: hi = mid
    return (lo+hi)/2
for s, lg in [(0,20),(0,22),(0,24),(0,26),(0.5,22),(0.5,24),(1.0,18),(1.0,20),(1.0,22),(1.0,24),(1.0,26),(1.5,20),(1.5,22),(1.5,26)]:
    g = 2**lg
    k = np.arange(1, g+1, dtype=np.float64)
    p = k**(-s) if s > 0 else np.ones(g)
    p /= p.sum()
    truth = float(np.sum(-np.expm1(-N*p)))
    sample = rng.choice(g, size=n, p=p)
    cnt = np.bincount(sample, minlength=g)
    d = int((cnt>0).sum()); f1 = int((cnt==1).sum()); f2 = int((cnt==2).sum())
    um = uniform_model(n, d, N)
    chao1 = d + (f1*f1/(2*f2) if f2 > 0 else f1*(f1-1)/2)
    gee = math.sqrt(N/n)*f1 + (d - f1)
    print(f"s={s} g=2^{lg}: truth {truth:.3g} d {d} f1 {f1} f2 {f2} | uniform {um:.3g} chao1 {chao1:.3g} gee {gee:.3g} | chao1/uni {chao1/um:.2f} truth/chao1 {truth/chao1:.2f} truth/gee {truth/gee:.2f}")
