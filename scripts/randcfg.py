#!/usr/bin/env python3
"""randcfg.py: random legal smk-qos configurations (docs/verification.md "Configurations").

    randcfg.py [--seed S] [--hwgen build/hwgen] [--regmap hw/regmap.def] OUT.cfg [OUT2.cfg ...]

Draws every key of hw/hwgen.c across its legal range and the combinations hwgen allows, one
configuration per OUT file, from one seed (printed; default: drawn from the clock). Each draw
mirrors hwgen's consistency rules (docs/params.md); with --hwgen the draw is also given to
`hwgen --check`, and a draw hwgen refuses is drawn again from the same random stream (the
refusal is printed on stderr), so every file written is one hwgen accepts. The file names the
seed and its index, so `randcfg.py --seed S` with as many OUT files writes the same files again.

The edges are drawn on purpose, each with a fixed probability: 1 and many SMs, 1 and 3
schedulers, warp counts that are not powers of two, 1 and 16 kernel slots, one kernel GPU-wide,
the smallest and largest register files and shared memories (none at all too), every width at
its minimum.
"""
import argparse
import os
import random
import subprocess
import sys
import time

KEYS = ["num_sm", "warps_per_sm", "sched_per_sm", "kslots_per_sm", "kernels_gpu", "tb_slots_per_sm",
        "regs_per_sm", "smem_per_sm", "threads_per_sm", "warp_size", "cmpl_per_sched", "quota_width",
        "epoch_width", "stat_width", "pe_queue_depth", "ctx_line_bytes", "ctl_bytes_per_warp",
        "max_regs_per_thread", "pe_max_outstanding", "ctx_ptr_width", "ptbq_depth", "grid_width",
        "part_rotate", "drv_pipe"]


def clog2(v):
    """bits to index v items, at least 1 (hwgen's clog2)"""
    b = 0
    while (1 << b) < v:
        b += 1
    return max(b, 1)


def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def lcm(a, b):
    return a // gcd(a, b) * b


def edge(r, p, lo, hi, mid):
    """lo or hi with probability p each, else mid()"""
    x = r.random()
    if x < p:
        return lo
    if x < 2 * p:
        return hi
    return mid()


def draw(r):
    c = {}
    # SMs: 1, 2..4 (the GPU cosim runs there), up to 64
    c["num_sm"] = r.choice([1, 1, 2, 3, 3, 4, r.randint(5, 15), r.randint(5, 64), 64])
    c["sched_per_sm"] = r.choice([1, 1, 2, 3, 3, 4, 4, r.randint(5, 8)])
    s = c["sched_per_sm"]
    # warps: a multiple of the schedulers, often not a power of two
    lw = r.choice([1, r.randint(1, 64 // s), 64 // s, r.randint(1, 64 // s)])
    c["warps_per_sm"] = w = s * lw
    c["warp_size"] = ws = r.choice([32, 32, 32, 4, 8, 16, 64] if w * 64 <= 4096 else [32, 4, 8, 16])
    c["threads_per_sm"] = w * ws
    c["tb_slots_per_sm"] = edge(r, 0.15, 1, w, lambda: r.randint(1, w))
    c["kernels_gpu"] = k = r.choice([1, r.randint(1, 8), r.randint(2, 16), r.randint(1, 64), 64])
    c["kslots_per_sm"] = edge(r, 0.2, 1, min(16, k), lambda: r.randint(1, min(16, k)))
    c["cmpl_per_sched"] = r.randint(1, 4)
    # registers: one warp of one register at least; as 256..4M, mostly a multiple of the warp size
    lo = max(256, ws)
    regs = edge(r, 0.15, lo, 1 << 22, lambda: 1 << r.randint(8, 22))
    if r.random() < 0.3:
        regs = r.randint(lo, min(1 << 22, 4 * regs))
    c["regs_per_sm"] = regs
    c["max_regs_per_thread"] = edge(r, 0.2, 1, min(255, regs // ws), lambda: r.randint(1, min(255, regs // ws)))
    c["smem_per_sm"] = r.choice([0, 1, r.randint(1, 4096), 1 << r.randint(10, 17), r.randint(0, 1 << 22), 1 << 22])
    # widths: at the minimum one time in three
    decmax = s * c["cmpl_per_sched"] * ws
    db = clog2(decmax + 1)
    c["epoch_width"] = ew = edge(r, 0.3, 4, 31 - db, lambda: r.randint(4, 31 - db))
    need = ew + db
    c["quota_width"] = edge(r, 0.3, max(8, need + 1), 32, lambda: r.randint(max(8, need + 1), 32))
    c["stat_width"] = edge(r, 0.3, max(8, need), 32, lambda: r.randint(max(8, need), 32))
    c["pe_queue_depth"] = edge(r, 0.2, 1, 16, lambda: r.randint(1, 16))
    c["ctx_line_bytes"] = 4 * ws
    c["ctl_bytes_per_warp"] = edge(r, 0.15, 1, 4096, lambda: r.choice([r.randint(1, 512), 128, 4 * ws]))
    c["pe_max_outstanding"] = edge(r, 0.2, 1, 64, lambda: r.randint(1, 64))
    line = 4 * ws
    maxl = w * -(-c["ctl_bytes_per_warp"] // line) + regs // ws + -(-c["smem_per_sm"] // line)
    pmin = max(8, clog2(maxl + 1))
    c["ctx_ptr_width"] = pw = edge(r, 0.3, pmin, 48, lambda: r.randint(pmin, 48))
    c["ptbq_depth"] = edge(r, 0.2, 1, min(64, (1 << pw) // maxl), lambda: r.randint(1, min(64, (1 << pw) // maxl)))
    c["grid_width"] = edge(r, 0.2, 8, 24, lambda: r.randint(8, 24))
    c["part_rotate"] = edge(r, 0.2, 1, 1 << 20, lambda: r.choice([r.randint(1, 1000), 1 << r.randint(8, 20)]))
    return c


def legal(c):
    """hwgen's consistency rules (hw/hwgen.c read_config), as far as a draw can break them"""
    ws, line = c["warp_size"], c["ctx_line_bytes"]
    sl = -(-c["smem_per_sm"] // line)
    d = lcm(lcm(c["regs_per_sm"] // ws, c["warps_per_sm"]), c["tb_slots_per_sm"])
    if sl:
        d = lcm(d, sl)
    return d <= 1 << 20 and c["kslots_per_sm"] <= c["kernels_gpu"] and c["max_regs_per_thread"] * ws <= c["regs_per_sm"]


def text(c, seed, idx, tries):
    out = ["# random legal configuration: scripts/randcfg.py --seed %d, file %d (draw %d)" % (seed, idx, tries),
           "# replay: make test-configs CFGS=THIS_FILE; make CONFIG=THIS_FILE lint|cosim|..."]
    out += ["%-19s = %d" % (k, c[k]) for k in KEYS]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--hwgen", default=None, help="hwgen binary: every draw must pass hwgen --check")
    ap.add_argument("--regmap", default="hw/regmap.def")
    ap.add_argument("out", nargs="+")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int(time.time() * 1000) % 1000000007
    print("randcfg: seed %d" % seed)
    r = random.Random(seed)
    for idx, path in enumerate(a.out):
        tries = 0
        while True:
            tries += 1
            if tries > 1000:
                sys.exit("randcfg: no legal draw in 1000 tries for %s" % path)
            c = draw(r)
            if not legal(c):
                continue
            # from its own generator (seed, file, try): the main stream, and so every other key of a
            # seed's files, is what it was before the key existed
            c["drv_pipe"] = random.Random("%d-%d-%d-drv_pipe" % (seed, idx, tries)).randint(0, 1)
            body = text(c, seed, idx, tries)
            tmp = path + ".tmp"
            with open(tmp, "w") as f:
                f.write(body)
            if a.hwgen:
                p = subprocess.run([a.hwgen, "--check", tmp, a.regmap], capture_output=True, text=True)
                if p.returncode:
                    sys.stderr.write("randcfg: redrawn, hwgen refused: %s" % p.stderr.replace(tmp, path))
                    os.unlink(tmp)
                    continue
            if os.path.exists(path) and open(path).read() == body:
                os.unlink(tmp)  # unchanged: its build stays up to date
            else:
                os.replace(tmp, path)
            print("randcfg: %s: num_sm %d warps %d sched %d kslots %d kernels %d warp_size %d"
                  % (path, c["num_sm"], c["warps_per_sm"], c["sched_per_sm"], c["kslots_per_sm"],
                     c["kernels_gpu"], c["warp_size"]))
            break


if __name__ == "__main__":
    main()
