# A model of partition_kernels.cuh tile starts (gpugb_partition_tile_start, pull-back as merged and
# "nearest" as in partition-nearest-tile.patch): every row covered exactly once, 3000 random
# partition layouts with empty and hot partitions.  python3 tile_cover_sim.py -> "cases 5904 bad 0".
import random, bisect
def part_at(bounds, n_parts, pos):
    return bisect.bisect_right(bounds, pos, 1, n_parts+1) - 1  # smallest q with bounds[q+1] > pos
def tile_start(bounds, n_parts, n, tile, split, t, nearest):
    pos = t*tile
    if pos >= n: return n
    q = part_at(bounds, n_parts, pos)
    b, e = bounds[q], bounds[q+1]
    if e - b > split: return pos
    if not nearest: return b
    return b if pos - b <= e - pos else e
bad=0; cases=0; maxseg=[0,0]
for seed in range(3000):
    rnd=random.Random(seed)
    n_parts = rnd.choice([1,2,3,7,64,512,1000])
    sizes=[]
    for q in range(n_parts):
        r=rnd.random()
        sizes.append(0 if r<0.1 else (rnd.randint(1,50000) if r<0.15 else rnd.randint(900,1100)))
    n=sum(sizes)
    if n==0: continue
    bounds=[0]
    for s in sizes: bounds.append(bounds[-1]+s)
    mean=(n+n_parts-1)//n_parts; tile=max(mean,256); split=2*tile
    for nearest in (False,True):
        cases+=1
        cover=[0]*n; ntiles=(n+tile-1)//tile
        per_tile=[]
        for t in range(ntiles):
            tb=tile_start(bounds,n_parts,n,tile,split,t,nearest); te=tile_start(bounds,n_parts,n,tile,split,t+1,nearest)
            if tb>=te: per_tile.append(0); continue
            q=part_at(bounds,n_parts,tb); parts=0
            while q<n_parts and bounds[q]<te:
                b=max(bounds[q],tb); e=min(bounds[q+1],te)
                if b<e:
                    parts+=1
                    for i in range(b,e): cover[i]+=1
                q+=1
            per_tile.append(parts)
        if any(c!=1 for c in cover): bad+=1; print('BAD',seed,nearest)
        if n_parts==512 and all(1000>=s>=900 for s in sizes): maxseg[nearest]=max(maxseg[nearest],max(per_tile))
print('cases',cases,'bad',bad)
