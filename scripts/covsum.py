#!/usr/bin/env python3
"""covsum.py MERGED.dat ROOT OUT.md HOLES.txt - per-file line, toggle and cover-point coverage of a
Verilator coverage file (scripts/coverage.sh).

A point of the file: C '<key>' COUNT, the key's fields \\x01NAME\\x02VALUE: f file, l line, page
v_line/..|v_branch/..|v_toggle/..|v_user/.., o comment (the signal of a toggle point, the label of a
cover point), h hierarchy. A point of a module counts once, hit if any instance of the module (in any
harness, any generate iteration) hit it: the key without h.
line = Verilator's line and branch points; toggle = every bit of every signal of the design (not the
cover points' own wires cv_*, g_cv_*), hit if it changed;
cover = the RTL's labelled `cover property` points of the spec rules (built with --coverage-user
+define+SMK_COVER), hit if its condition held at some clock edge.
"""
import collections
import os
import sys

dat, root, md, holes_path = sys.argv[1:5]
hit = {}
for ln in open(dat, encoding="latin-1"):
    if not ln.startswith("C '"):
        continue
    key, cnt = ln[3:].rstrip("\n").rsplit("' ", 1)
    f = dict(x.split("\x02", 1) for x in key.split("\x01") if "\x02" in x)
    f.pop("h", None)
    k = tuple(sorted(f.items()))
    hit[k] = hit.get(k, False) or int(cnt) > 0
pts = collections.defaultdict(lambda: [0, 0])
holes = []
for k, h in hit.items():
    f = dict(k)
    path = os.path.relpath(f.get("f", "?"), root)
    page = f.get("page", "")
    kind = "toggle" if page.startswith("v_toggle") else "cover" if page.startswith("v_user") else "line"
    if kind == "toggle" and any(p.startswith(("cv_", "g_cv_")) for p in f.get("o", "").split(".")):
        continue  # a wire of the cover points (cv_*, g_cv_*: SMK_COVER only), not of the design
    p = pts[(path, kind)]
    p[0] += 1
    p[1] += h
    if not h:
        holes.append((path, int(f.get("l", 0)), kind, f.get("o", "")))


def pc(p):
    return "%.1f" % (100.0 * p[1] / p[0]) if p[0] else "-"


with open(md, "w") as o:
    o.write("| RTL file | line points hit | line % | toggle points hit | toggle % | cover points hit | cover % |\n"
            "|---|--:|--:|--:|--:|--:|--:|\n")
    for fn in sorted({k[0] for k in pts}):
        l, t, c = pts[(fn, "line")], pts[(fn, "toggle")], pts[(fn, "cover")]
        o.write("| %s | %d / %d | %s | %d / %d | %s | %s | %s |\n" % (fn, l[1], l[0], pc(l), t[1], t[0], pc(t),
                "%d / %d" % (c[1], c[0]) if c[0] else "-", pc(c)))
with open(holes_path, "w") as o:
    for h in sorted(holes):
        o.write("%s:%d %s %s\n" % h)
