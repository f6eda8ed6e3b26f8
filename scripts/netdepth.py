#!/usr/bin/env python3
"""netdepth.py - logic depth of a flat Yosys netlist (write_json) between registers and ports.

Usage: netdepth.py JSON TOP generic|ice40|gates [--ends MIN | --path END]

  generic: the netlist after `abc -g AND` (an AND-inverter graph): a path's depth is its number of
           $_AND_ cells; $_NOT_ and $_BUF_ cost 0 (inverters fold into NAND/NOR gates).
  ice40:   the netlist after `synth_ice40`: a path's depth is its number of SB_LUT4 cells; the SB_CARRY
           cells on it are counted too (reported, not added: a carry is a dedicated fast path).
  gates:   a netlist of Yosys's fine gates before ABC (`synth -flatten -noabc`, no `abc`), which
           keeps the RTL's net names: AND / OR / NAND / NOR / ANDNOT / ORNOT cost 1, XOR / XNOR /
           MUX / AOI3 / OAI3 / AOI4 / OAI4 2 (their AND-inverter depth), NOT / BUF 0. A guide to where
           a path runs (ABC's mapping then restructures it), used with --path.

Start points: module inputs, constants and flip-flop outputs; end points: module outputs and
flip-flop inputs (D, enable, reset). Flip-flops: generic cells whose type contains DFF, SR or
DLATCH; iCE40 cells SB_DFF*. Any other cell type of an unknown kind is an error (named).

Prints one line:  depth=N carries=C cells=L start=NAME end=NAME
With --ends MIN: instead, one line per end point (a register or an output port, its bits together)
whose longest path has MIN levels or more, deepest first: "depth name from start", the start of
that register's longest path; so the depth of each stage of a pipelined unit can be read.
With --path END: the longest path into END (a register's name or an output port, as --ends prints
it), from its start: one line per public net on it, "depth name" (hidden nets skipped, repeats of
one name folded), so a path can be read in the RTL's own names (the gates flow keeps most of them).
NAME is a public net name of the start bit (a register's output or an input port) and, for the end,
the register the path loads (its output's name) or the output port.
"""
import json
import signal
import sys

signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the output quietly


USAGE = "netdepth: usage: netdepth.py JSON TOP generic|ice40|gates [--ends MIN | --path END]"


def main():
    a = sys.argv
    if len(a) not in (4, 6) or a[3] not in ("generic", "ice40", "gates") or \
            (len(a) == 6 and (a[4] not in ("--ends", "--path") or (a[4] == "--ends" and not a[5].isdigit()))):
        sys.exit(USAGE)
    path, top, flow = a[1], a[2], a[3]
    try:
        with open(path) as f:
            mods = json.load(f)["modules"]
    except (OSError, ValueError, KeyError) as e:
        sys.exit("netdepth: %s: not a Yosys JSON netlist (%s)" % (path, e))
    if top not in mods:
        sys.exit("netdepth: %s: no module %s" % (path, top))
    mod = mods[top]
    names = {}  # bit -> best public name
    for n, info in mod["netnames"].items():
        hidden = info.get("hide_name", 0) or n.startswith("$")
        bits = info["bits"]
        for i, b in enumerate(bits):
            if isinstance(b, str):
                continue
            label = n if len(bits) == 1 else "%s[%d]" % (n, i + info.get("offset", 0))
            old = names.get(b)
            if old is None or (old[0] and not hidden) or (old[0] == hidden and len(label) < len(old[1])):
                names[b] = (hidden, label)

    def bname(b):
        return names[b][1] if b in names else "bit%s" % b

    if flow == "generic":
        weight = {"$_AND_": (1, 0), "$_NOT_": (0, 0), "$_BUF_": (0, 0)}
        is_ff = lambda t: "DFF" in t or t.startswith("$_SR") or "DLATCH" in t
    elif flow == "ice40":
        weight = {"SB_LUT4": (1, 0), "SB_CARRY": (0, 1)}
        is_ff = lambda t: t.startswith("SB_DFF")
    elif flow == "gates":
        weight = {t: (1, 0) for t in ("$_AND_", "$_OR_", "$_NAND_", "$_NOR_", "$_ANDNOT_", "$_ORNOT_")}
        weight.update({t: (2, 0) for t in ("$_XOR_", "$_XNOR_", "$_MUX_", "$_NMUX_", "$_AOI3_", "$_OAI3_",
                                            "$_AOI4_", "$_OAI4_")})
        weight.update({"$_NOT_": (0, 0), "$_BUF_": (0, 0)})
        is_ff = lambda t: "DFF" in t or t.startswith("$_SR") or "DLATCH" in t
    else:
        sys.exit(USAGE)

    driver = {}   # bit -> cell name (combinational cells only)
    comb = {}     # cell -> (weight, carry, input bits, output bits)
    ends = []     # (bit, end label)
    q_of = {}     # ff cell -> name of its Q
    for cn, c in mod["cells"].items():
        t = c["type"]
        dirs = c.get("port_directions")
        if dirs is None:
            sys.exit("netdepth: cell %s of type %s has no port directions" % (cn, t))
        ins = [b for p, bs in c["connections"].items() if dirs[p] == "input" for b in bs if not isinstance(b, str)]
        outs = [b for p, bs in c["connections"].items() if dirs[p] == "output" for b in bs if not isinstance(b, str)]
        if is_ff(t):
            qn = bname(outs[0]) if outs else cn
            for b in ins:
                ends.append((b, qn))
            continue
        if t not in weight:
            sys.exit("netdepth: unknown cell type %s (%s) in %s" % (t, cn, top))
        w, k = weight[t]
        comb[cn] = (w, k, ins, outs)
        for b in outs:
            driver[b] = cn
    for pn, p in mod["ports"].items():
        if p["direction"] == "output":
            for i, b in enumerate(p["bits"]):
                if not isinstance(b, str):
                    ends.append((b, pn if len(p["bits"]) == 1 else "%s[%d]" % (pn, i)))

    # longest path: iterative DFS over the drivers, memoised per cell
    depth = {}    # cell -> (depth, carries, cells, predecessor bit or None)
    def bit_depth(b):
        cn = driver.get(b)
        if cn is None:
            return (0, 0, 0, None)
        return depth[cn]

    for root in comb:
        if root in depth:
            continue
        stack = [(root, False)]
        onstack = set()
        while stack:
            cn, done = stack.pop()
            if cn in depth:
                continue
            w, k, ins, _ = comb[cn]
            if not done:
                if cn in onstack:
                    sys.exit("netdepth: combinational loop through %s" % cn)
                onstack.add(cn)
                stack.append((cn, True))
                for b in ins:
                    d = driver.get(b)
                    if d is not None and d not in depth:
                        if d in onstack:
                            sys.exit("netdepth: combinational loop through %s" % d)
                        stack.append((d, False))
                continue
            best = (0, 0, 0, None)
            for b in ins:
                d = bit_depth(b)
                if (d[0], d[1]) > (best[0], best[1]):
                    best = (d[0], d[1], d[2], b)
            if best[3] is None and ins:
                best = (0, 0, 0, ins[0])
            depth[cn] = (best[0] + w, best[1] + k, best[2] + 1, best[3])
            onstack.discard(cn)

    if len(a) == 6:
        if a[4] == "--path":
            path_report(ends, bit_depth, driver, depth, names, a[5])
        else:
            ends_report(ends, bit_depth, driver, depth, bname, int(a[5]))
        return
    worst = None
    for b, label in ends:
        d = bit_depth(b)
        if worst is None or (d[0], d[1]) > (worst[0][0], worst[0][1]):
            worst = (d, b, label)
    if worst is None:
        print("depth=0 carries=0 cells=0 start=- end=-")
        return
    (dp, ca, nc, _), b, label = worst
    # back to the start point
    while b in driver:
        nb = depth[driver[b]][3]
        if nb is None:
            break
        b = nb
    start = bname(b) if not isinstance(b, str) else "const"
    print("depth=%d carries=%d cells=%d start=%s end=%s" % (dp, ca, nc, start.replace(" ", ""), label.replace(" ", "")))


def path_report(ends, bit_depth, driver, depth, names, want):
    import re
    best = None
    for b, label in ends:
        if re.sub(r"\[\d+\]$", "", label).replace(" ", "") != want and label.replace(" ", "") != want:
            continue
        d = bit_depth(b)
        if best is None or d[0] > best[0][0]:
            best = (d, b)
    if best is None:
        sys.exit("netdepth: no end point named %s" % want)
    steps = []
    b = best[1]
    while True:
        cn = driver.get(b)
        dep = depth[cn][0] if cn is not None else 0
        nm = names.get(b)
        steps.append((dep, None if nm is None or nm[0] else nm[1]))
        if cn is None or depth[cn][3] is None:
            break
        b = depth[cn][3]
    print("%d %s (end)" % (best[0][0], want))
    last = None
    for dep, nm in reversed(steps):
        if nm is None:
            continue
        base = re.sub(r"\[\d+\]$", "", nm)
        if base == last:
            continue
        last = base
        print("%d %s" % (dep, nm.replace(" ", "")))


def ends_report(ends, bit_depth, driver, depth, bname, lo):
    import re
    grp = {}
    for b, label in ends:
        d = bit_depth(b)[0]
        g = re.sub(r"\[\d+\]$", "", label)
        if g not in grp or d > grp[g][0]:
            grp[g] = (d, b)
    for g, (dp, b) in sorted(grp.items(), key=lambda x: (-x[1][0], x[0])):
        if dp < lo:
            continue
        while b in driver:
            nb = depth[driver[b]][3]
            if nb is None:
                break
            b = nb
        print("%d %s from %s" % (dp, g.replace(" ", ""), (bname(b) if not isinstance(b, str) else "const").replace(" ", "")))


if __name__ == "__main__":
    main()
