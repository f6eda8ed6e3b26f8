#!/usr/bin/env bash
# area.sh - Yosys area figures for the smk-qos RTL blocks.
#
# Usage: scripts/area.sh OUTDIR CONFIG...
#
#   Each CONFIG needs its generated include dir build/CONFIG/smk_cfg.vh (the Makefile makes it with
#   `build/hwgen hw/configs/CONFIG.cfg hw/regmap.def build/CONFIG`).  `make area` is the normal
#   entry point.
#
# For every block x config it runs Yosys (`yosys -q -l LOG`), one process per synthesis, at most
# $SMK_AREA_JOBS (default 2) at a time:
#   generic  `synth -flatten -top M; stat`  -> total cells, flip-flop bits (fine-grained $_*DFF*_
#                                              cells, each one bit)
#   ice40    `synth_ice40 -top M; stat`     -> SB_LUT4, SB_DFF* count
#   xilinx   `synth_xilinx -top M; stat`    -> LUT1..LUT6, FDRE/FDSE/FDCE/FDPE count
# Blocks with a style (third field of the entry, see below) use another generic flow and only the
# generic one (no iCE40 / XC7 columns):
#   hier     `synth -top M` without -flatten (each module synthesized once, however often it is
#            instantiated); cells and FF bits are the `stat -top M` hierarchy totals, and a breakdown
#            per submodule is written below the table (gpu_top: SMs / driver / manager / top glue).
#            Modules listed in HIER_BB[row] are black boxes in that synthesis (`blackbox M` after
#            read_verilog) and enter the totals with their own generic row of the same configuration
#            (a black-box instance counts 1 cell in `stat`: total = stat - 1 + the row's cells): the
#            driver is not synthesized twice (on pascal56 it alone takes 34 minutes of Yosys CPU and 6 GB).
# Every Yosys runs under `ulimit -v $SMK_AREA_VMEM_KB` (default 16000000 KB) and `nice`.
# Blocks listed in QGATE_BLOCKS are also synthesized with `chparam -set QGATE 0` (all three flows)
# to give the quota-gating overhead = count(QGATE=1) - count(QGATE=0), absolute and in percent of
# the QGATE=0 count.  Blocks listed in STORAGE_BLOCKS get "storage bits" (= generic FF bits) next
# to the thesis's estimate 4 x 32-bit counters per kernel slot = 128 x SMK_KSLOTS bits.  Blocks
# listed in DRIVER_STORAGE_BLOCKS get the same column with the driver's figures: generic FF bits,
# the per-SM per-kernel partition counters (cnt + part: NUM_SM x KERNELS x 2 x (TBS_W+1) bits) and
# the thesis's 7 32-bit counters per SM per kernel slot (NUM_SM x KSLOTS x 7 x 32; 448 x 32 on gtx980).
#
# Outputs: OUTDIR/area.csv, OUTDIR/area.md (the same data as a Markdown table with a header
# paragraph), OUTDIR/logs/BLOCK.CONFIG.FLOW.{ys,log,out,stat} and OUTDIR/logs/runtimes.txt
# (wall and CPU seconds and Yosys's peak memory per synthesis).
# Exit status is non-zero if any synthesis fails (the block, config and log are named); area.csv
# and area.md are then not written.
#
# Environment overrides:
#   SMK_AREA_JOBS=N                parallel Yosys processes (default 2: the build machine has 2 cores)
#   SMK_AREA_BLOCKS="e1;e2;..."    replace the BLOCKS list below (entries separated by ';')
#   SMK_AREA_VMEM_KB=N             virtual-memory limit of each Yosys (ulimit -v, KB; default 16000000)
#   SMK_AREA_CACHE=DIR|none        result cache (default build/area-cache): a synthesis whose key (its
#                                  Yosys script with the log paths masked, the sources it reads, the
#                                  INCLUDES, the configuration's smk_cfg.vh and the Yosys version) is in DIR is not
#                                  run again: its .stat, .log and .res are copied from DIR (logged as
#                                  "cached"; runtimes.txt and area.md say how many). Every successful
#                                  synthesis is stored there. none: no cache.
set -euo pipefail

# ---------------------------------------------------------------------------------- blocks
# Each entry is "module[:chparam args[:style]]": module is a unit of hw/blocks.def, whose file list
# (scripts/blocks.sh files) is what Yosys reads; style is empty (generic + iCE40 + XC7) or hier
# (see above). The optional second field is passed to `chparam ARGS module` before synthesis, e.g.
# "gpu_top:-set NSM 2".
BLOCKS=(
    "warp_sched"
    "quota_unit"
    "preempt_engine"
    "sm_top"
    "sm_driver"
    "qos_mgr"
    "gpu_top::hier"
)
# Blocks synthesized only for some configurations, keyed by the row name (module, or
# module-style); the other configurations get a row with the NOT_DONE text (measured reasons in
# docs/area_notes.md).  None today: until issue 4 step 4 the driver (and so gpu_top) synthesized on
# small only (see the notes).
declare -A ONLY_CONFIGS=()
declare -A NOT_DONE=()
# Blocks synthesized with the generic flow only on some configurations (no FPGA columns there):
# the driver's flat one-cycle decision is 275K generic cells on gtx980 and about 3.5 times as much
# on pascal56, far beyond any iCE40 and a large share of an XC7; its generic count is the figure.
declare -A GENERIC_ONLY=([sm_driver]="gtx980 pascal56")
# hier rows: modules black-boxed there and counted from their own generic row (see the header)
declare -A HIER_BB=([gpu_top-hier]="sm_driver")
# Jobs started first (the longest; the rest keep the order below)
SLOW_FIRST=(sm_driver.pascal56.generic gpu_top-hier.pascal56.generic gpu_top-hier.gtx980.generic
            sm_driver.gtx980.generic)
# Blocks with a QGATE parameter: also synthesized with QGATE=0 for the gating-overhead columns.
QGATE_BLOCKS=(warp_sched)
# Blocks whose generic FF bits are compared with the thesis's 128 x KSLOTS storage estimate.
STORAGE_BLOCKS=(quota_unit)
# Driver rows whose storage column compares the partition counters with the thesis's 448 counters.
DRIVER_STORAGE_BLOCKS=(sm_driver)

readonly WANT_YOSYS="0.23"
readonly FLOWS=(xilinx ice40 generic) # job order: generic is the cheapest flow, so it goes last

SELF=$(realpath "$0")
ROOT=$(cd "$(dirname "$SELF")/.." && pwd)
export ROOT
# Headers the RTL includes besides the configuration's smk_cfg.vh (paths from the repository root):
# snapshotted with the sources, read from the snapshot (-I) and part of every cache key.
INCLUDES=($(cd "$ROOT" && ls rtl/*.vh))

die() {
    echo "area: ERROR: $*" >&2
    exit 1
}

# ------------------------------------------------------------------ worker: one synthesis
# area.sh --job LOGDIR TAG  runs LOGDIR/TAG.ys and records "rc wall-ms cpu-s" in LOGDIR/TAG.res.
# It always exits 0 so that xargs keeps going; the parent checks the .res files.
if [ "${1:-}" = "--job" ]; then
    [ $# -eq 3 ] || die "usage: $0 --job LOGDIR TAG"
    logdir=$2
    tag=$3
    rm -f "$logdir/$tag.res"
    cdir=${SMK_AREA_CACHE:-$ROOT/build/area-cache}
    key=""
    [ "$cdir" = none ] || key=$(cat "$logdir/$tag.key")
    if [ -n "$key" ] && [ -s "$cdir/$key.res" ] && [ -s "$cdir/$key.stat" ]; then
        cp "$cdir/$key.stat" "$logdir/$tag.stat"
        cp "$cdir/$key.log" "$logdir/$tag.log" 2>/dev/null || true
        read -r _ ms cpu mem _ <"$cdir/$key.res"
        echo "0 $ms $cpu $mem cached $(date -u -r "$cdir/$key.stat" '+%Y-%m-%d')" >"$logdir/$tag.res"
        printf 'area: cached %-38s (key %s: %s s cpu when run)\n' "$tag" "${key:0:10}" "$cpu"
        exit 0
    fi
    t0=$(date +%s%N)
    rc=0
    (cd "$ROOT" && ulimit -v "${SMK_AREA_VMEM_KB:-16000000}" &&
        exec nice -n 10 yosys -q -l "$logdir/$tag.log" -s "$logdir/$tag.ys") >"$logdir/$tag.out" 2>&1 || rc=$?
    t1=$(date +%s%N)
    ms=$(((t1 - t0) / 1000000))
    # Yosys ends its log with "CPU: user 12.20s system 0.13s, MEM: 91.44 MB peak": keep the CPU
    # time too, since the wall time depends on the machine's load.
    cpu=$(sed -n 's/.*CPU: user \([0-9.]*\)s system \([0-9.]*\)s.*/\1 \2/p' "$logdir/$tag.log" 2>/dev/null |
        awk 'END { if (NR) printf "%.1f", $1 + $2; else printf "?" }')
    mem=$(sed -n 's/.*MEM: \([0-9.]*\) MB peak.*/\1/p' "$logdir/$tag.log" 2>/dev/null | tail -n 1)
    echo "$rc $ms $cpu ${mem:-?}" >"$logdir/$tag.res"
    if [ -n "$key" ] && [ "$rc" -eq 0 ] && [ -s "$logdir/$tag.stat" ]; then
        mkdir -p "$cdir"
        cp "$logdir/$tag.stat" "$cdir/$key.stat.tmp" && mv "$cdir/$key.stat.tmp" "$cdir/$key.stat"
        cp "$logdir/$tag.log" "$cdir/$key.log"
        cp "$logdir/$tag.res" "$cdir/$key.res"
    fi
    secs=$(awk -v ms="$ms" 'BEGIN { printf "%.1f", ms / 1000 }')
    if [ "$rc" -eq 0 ]; then
        printf 'area: done %-40s %7ss wall %7ss cpu %8s MB peak\n' "$tag" "$secs" "$cpu" "${mem:-?}"
    else
        printf 'area: FAIL %-40s %7ss (exit %s, log %s)\n' "$tag" "$secs" "$rc" "$logdir/$tag.log"
    fi
    exit 0
fi

# ---------------------------------------------------------------------------- arguments
[ $# -ge 2 ] || die "usage: $0 OUTDIR CONFIG...   (e.g. $0 build/area gtx980 pascal56 small)"
mkdir -p "$1"
OUTDIR=$(cd "$1" && pwd)
shift
CONFIGS=("$@")
LOGDIR=$OUTDIR/logs
# Yosys scripts split commands at blanks: paths written into them must not contain any.
[[ "$LOGDIR$ROOT" != *[[:space:]]* ]] || die "OUTDIR and the repository path must not contain blanks"
mkdir -p "$LOGDIR"

JOBS=${SMK_AREA_JOBS:-2}
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || die "SMK_AREA_JOBS must be a positive integer, got '$JOBS'"
if [ -n "${SMK_AREA_BLOCKS:-}" ]; then
    IFS=';' read -r -a BLOCKS <<<"$SMK_AREA_BLOCKS"
fi

command -v yosys >/dev/null 2>&1 || die "yosys not found (run scripts/setup.sh)"
YOSYS_VERSION=$(yosys -V | head -n 1)
[[ "$YOSYS_VERSION" =~ ^Yosys\ ${WANT_YOSYS//./\\.}([^0-9]|$) ]] ||
    echo "area: WARNING: expected Yosys $WANT_YOSYS, found: $YOSYS_VERSION" >&2

in_list() { # in_list WORD LIST...
    local w=$1 x
    shift
    for x in "$@"; do [ "$x" = "$w" ] && return 0; done
    return 1
}

# Parse the block entries once: B_MOD[i], B_FILES[i] (space separated), B_CHPARAM[i], B_STYLE[i]
# and B_NAME[i] (tag prefix and ONLY_CONFIGS key: module, or module-style; the table shows
# "module (style)").
# The sources are copied to LOGDIR/src/ first and synthesized from there, so that all runs of
# one invocation see the same RTL even if a file is edited meanwhile; SRC_SHA lists their sha1s.
B_MOD=()
B_FILES=()
SRC_SHA=()
declare -A SNAPPED=()
rm -rf "$LOGDIR/src"
B_CHPARAM=()
B_STYLE=()
B_NAME=()
for entry in "${BLOCKS[@]}"; do
    [ -n "$entry" ] || continue
    IFS=: read -r mod chp style extra <<<"$entry"
    [ -z "${extra:-}" ] || die "block entry '$entry' is not module[:chparam args[:style]]"
    [[ "$style" =~ ^(|hier)$ ]] || die "block entry '$entry': unknown style '$style' (hier)"
    [[ "$mod" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "block entry '$entry': bad module name '$mod'"
    [[ "$chp" != *[\;$'\n']* ]] || die "block entry '$entry': chparam args must not contain ';'"
    files=$(bash "$ROOT/scripts/blocks.sh" files "$mod") || die "block entry '$entry': no unit '$mod' in hw/blocks.def"
    read -r -a flist <<<"$files"
    for f in "${flist[@]}"; do
        [ -f "$ROOT/$f" ] || die "block $mod: $f not found (hw/blocks.def)"
    done
    snap=()
    for f in "${flist[@]}"; do
        if [[ "$f" == /* ]]; then src=$f dst=$LOGDIR/src/abs$f; else src=$ROOT/$f dst=$LOGDIR/src/$f; fi
        if [ -z "${SNAPPED[$dst]:-}" ]; then
            mkdir -p "$(dirname "$dst")"
            cp "$src" "$dst"
            SNAPPED[$dst]=1
            SRC_SHA+=("$f $(sha1sum "$dst" | cut -c1-10)")
        fi
        snap+=("$dst")
    done
    B_MOD+=("$mod")
    B_FILES+=("${snap[*]}")
    B_CHPARAM+=("$chp")
    B_STYLE+=("$style")
    B_NAME+=("$mod${style:+-$style}")
done
[ "${#B_MOD[@]}" -gt 0 ] || die "no blocks"
INC_SNAP=()
INC_I="" # -I of each snapshot include's directory
for f in "${INCLUDES[@]}"; do
    [ -f "$ROOT/$f" ] || die "include $f not found"
    mkdir -p "$(dirname "$LOGDIR/src/$f")"
    cp "$ROOT/$f" "$LOGDIR/src/$f"
    INC_SNAP+=("$LOGDIR/src/$f")
    [[ " $INC_I " == *" -I $(dirname "$LOGDIR/src/$f") "* ]] || INC_I="$INC_I -I $(dirname "$LOGDIR/src/$f")"
    SRC_SHA+=("$f $(sha1sum "$LOGDIR/src/$f" | cut -c1-10)")
done

declare -A KSLOTS=() NUM_SM=() KERNELS=() TBS_W=()
cfg_val() { # cfg_val VH NAME -> value of `define SMK_NAME
    awk -v n="SMK_$2" '$1 == "`define" && $2 == n { print $3 }' "$1"
}
for c in "${CONFIGS[@]}"; do
    [[ "$c" =~ ^[A-Za-z0-9_-]+$ ]] || die "bad config name '$c'"
    vh=$ROOT/build/$c/smk_cfg.vh
    [ -f "$vh" ] || die "build/$c/smk_cfg.vh missing; generate it with: make build/$c/smk_cfg.vh" \
        "(or build/hwgen hw/configs/$c.cfg hw/regmap.def build/$c)"
    k=$(awk '$1 == "`define" && $2 == "SMK_KSLOTS" { print $3 }' "$vh")
    [[ "$k" =~ ^[0-9]+$ ]] || die "no SMK_KSLOTS in $vh"
    KSLOTS[$c]=$k
    for v in NUM_SM KERNELS TBS_W; do
        x=$(cfg_val "$vh" "$v")
        [[ "$x" =~ ^[0-9]+$ ]] || die "no SMK_$v in $vh"
        eval "$v[\$c]=\$x"
    done
done

# -------------------------------------------------------------------- write the jobs
synth_cmd() { # synth_cmd FLOW MODULE [STYLE]
    case ${3:-} in
        hier) # synth without -flatten: each module once
            echo "synth -top $2"
            return ;;
    esac
    case $1 in
        generic) echo "synth -flatten -top $2" ;;
        ice40) echo "synth_ice40 -top $2" ;;
        xilinx) echo "synth_xilinx -top $2" ;;
    esac
}

TAGS=() # job order: slowest flow first, then configs and blocks in the given order
for flow in "${FLOWS[@]}"; do
    for c in "${CONFIGS[@]}"; do
        for i in "${!B_MOD[@]}"; do
            mod=${B_MOD[$i]}
            name=${B_NAME[$i]}
            style=${B_STYLE[$i]}
            if [ -n "${ONLY_CONFIGS[$name]:-}" ] && ! in_list "$c" ${ONLY_CONFIGS[$name]}; then continue; fi
            if [ -n "$style" ] && [ "$flow" != generic ]; then continue; fi
            if [ "$flow" != generic ] && [ -n "${GENERIC_ONLY[$name]:-}" ] && in_list "$c" ${GENERIC_ONLY[$name]}; then
                continue
            fi
            variants=(q1)
            if in_list "$mod" "${QGATE_BLOCKS[@]}"; then variants+=(q0); fi
            for v in "${variants[@]}"; do
                tag=$name.$c.$flow
                chp=${B_CHPARAM[$i]}
                if [ "$v" = q0 ]; then
                    tag=$tag.qgate0
                    chp="$chp -set QGATE 0"
                fi
                bb=${HIER_BB[$name]:-}
                {
                    echo "# area.sh: block $mod, config $c, flow $flow${style:+ ($style)}${chp:+, chparam ${chp# }}${bb:+, black boxes: $bb}"
                    echo "read_verilog -I $ROOT/build/$c$INC_I ${B_FILES[$i]}"
                    [ -z "$bb" ] || echo "blackbox $bb"
                    [ -z "${chp// /}" ] || echo "chparam ${chp# } $mod"
                    synth_cmd "$flow" "$mod" "$style"
                    echo "tee -o $LOGDIR/$tag.stat stat${style:+ -top $mod}"
                } >"$LOGDIR/$tag.ys"
                rm -f "$LOGDIR/$tag.res" "$LOGDIR/$tag.stat"
                # cache key: the script with this run's log directory masked, the sources, the includes
                { sed "s|$LOGDIR|@LOGDIR@|g" "$LOGDIR/$tag.ys"; cat ${B_FILES[$i]} "${INC_SNAP[@]}" "$ROOT/build/$c/smk_cfg.vh"
                  echo "$YOSYS_VERSION"; } | sha1sum | cut -c1-40 >"$LOGDIR/$tag.key"
                TAGS+=("$tag")
            done
        done
    done
done

# the SLOW_FIRST jobs to the front (only those this run has)
ORDERED=()
for tag in "${SLOW_FIRST[@]}"; do
    if in_list "$tag" "${TAGS[@]}"; then ORDERED+=("$tag"); fi
done
for tag in "${TAGS[@]}"; do
    if ! in_list "$tag" "${SLOW_FIRST[@]}"; then ORDERED+=("$tag"); fi
done
TAGS=("${ORDERED[@]}")

rm -f "$OUTDIR/area.csv" "$OUTDIR/area.md"
echo "area: ${#TAGS[@]} syntheses (${#B_MOD[@]} blocks x ${#CONFIGS[@]} configs), $JOBS in parallel, logs in $LOGDIR"
T0=$(date +%s)
printf '%s\n' "${TAGS[@]}" | xargs -P "$JOBS" -I{} "$SELF" --job "$LOGDIR" {}
T1=$(date +%s)

# ------------------------------------------------------------------- check the results
failed=0
: >"$LOGDIR/runtimes.txt"
NCACHED=0
CDATES=()
for tag in "${TAGS[@]}"; do
    IFS=. read -r mod c flow _ <<<"$tag"
    if ! [ -f "$LOGDIR/$tag.res" ]; then
        echo "area: ERROR: synthesis of block $mod, config $c ($tag) did not finish; log $LOGDIR/$tag.log" >&2
        failed=1
        continue
    fi
    read -r rc ms cpu mem cached cdate <"$LOGDIR/$tag.res"
    [ -z "${cached:-}" ] || { NCACHED=$((NCACHED + 1)); CDATES+=("${cdate:-?}"); }
    printf '%8.1f s wall %8s s cpu %9s MB peak  %s%s\n' "$(awk -v ms="$ms" 'BEGIN { print ms / 1000 }')" "$cpu" "${mem:-?}" "$tag" "${cached:+ (cached)}" >>"$LOGDIR/runtimes.txt"
    if [ "$rc" -ne 0 ]; then
        err=$(cat "$LOGDIR/$tag.out" "$LOGDIR/$tag.log" 2>/dev/null | grep -m 1 'ERROR' || true)
        echo "area: ERROR: synthesis of block $mod, config $c ($tag) failed (exit $rc); log $LOGDIR/$tag.log${err:+ -- $err}" >&2
        failed=1
    elif ! [ -s "$LOGDIR/$tag.stat" ]; then
        echo "area: ERROR: synthesis of block $mod, config $c ($tag) wrote no statistics; log $LOGDIR/$tag.log" >&2
        failed=1
    fi
done
sort -rn -o "$LOGDIR/runtimes.txt" "$LOGDIR/runtimes.txt"
[ "$failed" -eq 0 ] || exit 1

# ----------------------------------------------------------------------- parse stats
# stat_vals FILE FLOW -> "total lut ff other" from the last cell table in FILE.  For the generic
# flow lut is the latch count.  other lists the cells that are none of LUT, FF, carry, mux or I/O
# buffer as TYPE=N joined by '+', or '-' when there are none.
stat_vals() {
    awk -v flow="$2" '
        /Number of cells:/ { total = $NF; split("", cnt); n = 0; insec = 1; next }
        insec && NF == 0 { insec = 0; next }
        insec && NF == 2 && $2 ~ /^[0-9]+$/ { if (!($1 in cnt)) ord[++n] = $1; cnt[$1] += $2; next }
        insec { insec = 0 }
        END {
            lut = 0; ff = 0; other = ""
            for (i = 1; i <= n; i++) {
                t = ord[i]; v = cnt[t]
                if (flow == "generic") {
                    if (t ~ /^\$_.*DFF/) ff += v
                    else if (t ~ /^\$_.*(DLATCH|SR_)/) lut += v
                    else if (t !~ /^\$_/) other = other (other == "" ? "" : "+") t "=" v
                } else if (flow == "ice40") {
                    if (t == "SB_LUT4") lut += v
                    else if (t ~ /^SB_DFF/) ff += v
                    else if (t !~ /^SB_(CARRY|GB|IO)/) other = other (other == "" ? "" : "+") t "=" v
                } else {
                    if (t ~ /^LUT[1-6]$/) lut += v
                    else if (t ~ /^FD[RSCP]E(_1)?$/) ff += v
                    else if (t !~ /^(CARRY4|MUXF[78]|I?BUF[GH]?|OBUFT?|IOBUF|IBUFG)$/) other = other (other == "" ? "" : "+") t "=" v
                }
            }
            printf "%s %d %d %s\n", (total == "" ? "?" : total), lut, ff, (other == "" ? "-" : other)
        }' "$1"
}

share() { # share PART WHOLE -> 100 * PART / WHOLE with one decimal, or n/a
    awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.1f", 100 * a / b }'
}

pct() { # pct NEW BASE -> 100 * (NEW - BASE) / BASE with one decimal, or n/a
    awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.1f\n", 100 * (a - b) / b }'
}

CSV_HEADER="block,config,cells,ff_bits,ice40_lut4,ice40_ff,xc7_lut,xc7_ff,other_cells"
CSV_HEADER+=",qgate0_cells,qgate0_ice40_lut4,qgate0_xc7_lut"
CSV_HEADER+=",qgate_ovh_cells,qgate_ovh_cells_pct,qgate_ovh_ice40_lut4,qgate_ovh_ice40_pct,qgate_ovh_xc7_lut,qgate_ovh_xc7_pct"
CSV_HEADER+=",storage_bits,thesis_bits,partition_bits"

# hier_vals FILE -> one line per module of a hierarchical `stat`: "NAME OWN_CELLS OWN_FF", own =
# primitive cells ($...) of the module itself, not its submodule instances.
hier_vals() {
    awk '
        /^=== .* ===$/ { mod = $2; insec = 0; next }
        mod == "design" { next }
        /Number of cells:/ { insec = 1; names[++n] = mod; next }
        insec && NF == 0 { insec = 0; next }
        insec && NF == 2 && $2 ~ /^[0-9]+$/ {
            if ($1 ~ /^\$/ && $1 !~ /^\$paramod/) { own[mod] += $2; if ($1 ~ /DFF/) ff[mod] += $2 }
            next
        }
        END { for (i = 1; i <= n; i++) printf "%s %d %d\n", names[i], own[names[i]], ff[names[i]] }' "$1"
}
brk_rows=()

csv_rows=()
md_rows=()
warnings=()
for i in "${!B_MOD[@]}"; do
    mod=${B_MOD[$i]}
    name=${B_NAME[$i]}
    style=${B_STYLE[$i]}
    label=$mod${style:+ ($style)}
    for c in "${CONFIGS[@]}"; do
        if [ -n "${ONLY_CONFIGS[$name]:-}" ] && ! in_list "$c" ${ONLY_CONFIGS[$name]}; then
            s_md=""
            if in_list "$name" "${DRIVER_STORAGE_BLOCKS[@]}"; then
                # the RTL's partition counters are known without synthesis
                s_md="cnt+part $((NUM_SM[$c] * KERNELS[$c] * 2 * (TBS_W[$c] + 1))) (thesis $((NUM_SM[$c] * KSLOTS[$c] * 7)) x 32 = $((NUM_SM[$c] * KSLOTS[$c] * 7 * 32)))"
            fi
            md_rows+=("| $label | $c | ${NOT_DONE[$name]:-not synthesized (only ${ONLY_CONFIGS[$name]}: see the notes)} | | | | | | | | | $s_md | |")
            continue
        fi
        read -r g_cells g_latch g_ff g_other < <(stat_vals "$LOGDIR/$name.$c.generic.stat" generic)
        declare -A bb_c=() bb_f=()
        for bm in ${HIER_BB[$name]:-}; do # black boxes: 1 cell each in the stat, their own row instead
            [ -s "$LOGDIR/$bm.$c.generic.stat" ] ||
                die "$label/$c: black box $bm needs its own generic row on $c (add $bm to the blocks)"
            read -r bc _ bf _ < <(stat_vals "$LOGDIR/$bm.$c.generic.stat" generic)
            n_bb=$(grep -c "^ *$bm  *1\$" "$LOGDIR/$name.$c.generic.stat" || true)
            [ "$n_bb" -ge 1 ] || die "$label/$c: no instance of black box $bm in $LOGDIR/$name.$c.generic.stat"
            bb_c[$bm]=$bc bb_f[$bm]=$bf
            g_cells=$((g_cells - 1 + bc)) g_ff=$((g_ff + bf))
        done
        [ "$g_latch" -eq 0 ] || warnings+=("$label/$c: $g_latch latch cells after generic synth (see $name.$c.generic.log)")
        for bm in ${HIER_BB[$name]:-}; do # the black boxes are not unmapped cells
            g_other=$(echo "$g_other" | tr '+' '\n' | { grep -v "^$bm=" || true; } | paste -sd+ -)
            [ -n "$g_other" ] || g_other=-
        done
        [ "$g_other" = "-" ] || warnings+=("$label/$c: unmapped coarse cells after generic synth: $g_other")
        other=""
        if [ -n "$style" ] || { [ -n "${GENERIC_ONLY[$name]:-}" ] && in_list "$c" ${GENERIC_ONLY[$name]}; }; then
            # generic only (see the header and GENERIC_ONLY): no FPGA columns
            i_lut=- i_ff=- x_lut=- x_ff=-
        else
            read -r _ i_lut i_ff i_other < <(stat_vals "$LOGDIR/$name.$c.ice40.stat" ice40)
            read -r _ x_lut x_ff x_other < <(stat_vals "$LOGDIR/$name.$c.xilinx.stat" xilinx)
            [ "$i_other" = "-" ] || other+="ice40: ${i_other//+/ } "
            [ "$x_other" = "-" ] || other+="xc7: ${x_other//+/ }"
        fi
        other=${other% }
        if [ "$style" = hier ]; then
            # breakdown of the hierarchy total: top glue, the driver, the manager, the rest (SMs)
            declare -A h_c=() h_f=()
            while read -r hm hc hf; do
                h_c[$hm]=$hc
                h_f[$hm]=$hf
            done < <(hier_vals "$LOGDIR/$name.$c.generic.stat")
            t_c=${h_c[$mod]:-0} t_f=${h_f[$mod]:-0}
            d_c=${bb_c[sm_driver]:-${h_c[sm_driver]:-0}} d_f=${bb_f[sm_driver]:-${h_f[sm_driver]:-0}}
            m_c=${h_c[qos_mgr]:-0} m_f=${h_f[qos_mgr]:-0}
            s_c=$((g_cells - t_c - d_c - m_c)) s_f=$((g_ff - t_f - d_f - m_f))
            brk_rows+=("| $label | $c | $g_cells / $g_ff | ${NUM_SM[$c]} SMs: $s_c ($(share "$s_c" "$g_cells")%) / $s_f ($(share "$s_f" "$g_ff")%) | $((s_c / NUM_SM[$c])) / $((s_f / NUM_SM[$c])) | $d_c ($(share "$d_c" "$g_cells")%) / $d_f ($(share "$d_f" "$g_ff")%) | $m_c ($(share "$m_c" "$g_cells")%) / $m_f ($(share "$m_f" "$g_ff")%) | $t_c / $t_f |")
            unset h_c h_f
        fi
        unset bb_c bb_f
        q_csv=",,,,,,,,"
        q_md="- | - | -"
        if in_list "$mod" "${QGATE_BLOCKS[@]}"; then
            read -r g0_cells _ _ _ < <(stat_vals "$LOGDIR/$mod.$c.generic.qgate0.stat" generic)
            read -r _ i0_lut _ _ < <(stat_vals "$LOGDIR/$mod.$c.ice40.qgate0.stat" ice40)
            read -r _ x0_lut _ _ < <(stat_vals "$LOGDIR/$mod.$c.xilinx.qgate0.stat" xilinx)
            oc=$((g_cells - g0_cells)) oc_p=$(pct "$g_cells" "$g0_cells")
            oi=$((i_lut - i0_lut)) oi_p=$(pct "$i_lut" "$i0_lut")
            ox=$((x_lut - x0_lut)) ox_p=$(pct "$x_lut" "$x0_lut")
            q_csv="$g0_cells,$i0_lut,$x0_lut,$oc,$oc_p,$oi,$oi_p,$ox,$ox_p"
            q_md="$(printf '%+d (%s%%) | %+d (%s%%) | %+d (%s%%)' "$oc" "$oc_p" "$oi" "$oi_p" "$ox" "$ox_p")"
        fi
        s_csv=",,"
        s_md="-"
        if in_list "$mod" "${STORAGE_BLOCKS[@]}"; then
            thesis=$((128 * KSLOTS[$c]))
            s_csv="$g_ff,$thesis,"
            s_md="$g_ff ($thesis)"
        fi
        if in_list "$mod" "${DRIVER_STORAGE_BLOCKS[@]}"; then
            thesis=$((NUM_SM[$c] * KSLOTS[$c] * 7 * 32))
            pbits=$((NUM_SM[$c] * KERNELS[$c] * 2 * (TBS_W[$c] + 1)))
            s_csv="$g_ff,$thesis,$pbits"
            s_md="$g_ff; cnt+part $pbits (thesis $((NUM_SM[$c] * KSLOTS[$c] * 7)) x 32 = $thesis)"
        fi
        [ "$i_lut" != - ] || { i_lut="" i_ff="" x_lut="" x_ff=""; }
        csv_rows+=("$name,$c,$g_cells,$g_ff,$i_lut,$i_ff,$x_lut,$x_ff,\"$other\",$q_csv,$s_csv")
        [ -n "$i_lut" ] || { i_lut=- i_ff=- x_lut=- x_ff=-; }
        md_rows+=("| $label | $c | $g_cells | $g_ff | $i_lut | $i_ff | $x_lut | $x_ff | $q_md | $s_md | ${other:--} |")
    done
done

# ---------------------------------------------------------------------------- outputs
{
    echo "$CSV_HEADER"
    printf '%s\n' "${csv_rows[@]}"
} >"$OUTDIR/area.csv.tmp"

TABLE=$(
    echo "| block | config | cells | FF bits | iCE40 LUT4 | iCE40 FF | XC7 LUT | XC7 FF | QGATE ovh: cells | QGATE ovh: iCE40 LUT4 | QGATE ovh: XC7 LUT | storage bits (thesis) | other cells |"
    echo "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|"
    printf '%s\n' "${md_rows[@]}"
)
BRK=""
if [ "${#brk_rows[@]}" -gt 0 ]; then
    BRK=$(
        echo "Hierarchical totals split by submodule (cells / FF bits; each part's own primitive cells, SMs = the rest):"
        echo
        echo "| block | config | total | SMs (sm_top + warp_sched + quota_unit + preempt_engine) | per SM | driver (sm_driver) | manager (qos_mgr) | top glue |"
        echo "|---|---|--:|--:|--:|--:|--:|--:|"
        printf '%s\n' "${brk_rows[@]}"
    )
fi

{
    echo "# smk-qos area figures"
    echo
    echo "Generated $(date '+%Y-%m-%d %H:%M %Z') with $YOSYS_VERSION by"
    echo "\`scripts/area.sh <outdir> ${CONFIGS[*]}\`; reproduce with \`make area\`."
    echo "Per-synthesis logs and Yosys scripts are in \`logs/\`, the synthesized RTL snapshot in \`logs/src/\`"
    echo "(sha1: $(printf '%s, ' "${SRC_SHA[@]}" | sed 's/, $//')); the same data is in \`area.csv\`."
    if [ "$NCACHED" -gt 0 ]; then
        echo "$NCACHED of the ${#TAGS[@]} syntheses were reused from the result cache: runs of $(printf '%s\n' "${CDATES[@]}" | sort -u | paste -sd, - | sed 's/,/, /g')"
        echo "with the same Yosys script, sources, configuration include and Yosys version (marked in \`logs/runtimes.txt\`;"
        echo "\`SMK_AREA_CACHE=none\` runs them all)."
    fi
    echo
    echo "- cells, FF bits: generic \`synth -flatten -top M; stat\` (all cells; flip-flop bits)."
    echo "- (hier): \`synth -top M\` without -flatten; cells and FF bits are the hierarchy totals of \`stat -top M\`"
    echo "  (each module synthesized once, counted once per instance); generic cells only; split below the table."
    echo "  gpu_top's driver is a black box there (\`blackbox sm_driver\`) counted with the sm_driver row of the"
    echo "  same configuration (one synthesis of the driver instead of two)."
    echo "- iCE40: \`synth_ice40 -top M\` (SB_LUT4, SB_DFF*). XC7: \`synth_xilinx -top M\` (LUT1-LUT6, FDRE/FDSE/FDCE/FDPE)."
    echo "- QGATE ovh: count with quota gating (QGATE=1) minus count with \`chparam -set QGATE 0\`, and in percent of the QGATE=0 count."
    echo "- storage bits: the block's FF bits from the generic synthesis; in parentheses the thesis's estimate,"
    echo "  4 x 32-bit counters per kernel slot per SM = 128 x SMK_KSLOTS bits. sm_driver: its FF bits; the per-SM"
    echo "  per-kernel partition counters cnt + part = NUM_SM x KERNELS x 2 x (TBS_W+1) bits (state bits of the RTL);"
    echo "  the thesis's 7 32-bit counters per SM per kernel slot, NUM_SM x KSLOTS x 7 x 32 (448 x 32 on gtx980)."
    echo "- other cells: cells that are none of LUT, FF, carry, wide mux or I/O buffer (e.g. RAM, DSP); '-' = none."
    echo "  XC7 INV cells are listed here, not under XC7 LUT (LUT1-LUT6 only); each occupies a LUT in the device."
    echo
    echo "$TABLE"
    [ -z "$BRK" ] || printf '\n%s\n' "$BRK"
} >"$OUTDIR/area.md.tmp"

mv "$OUTDIR/area.csv.tmp" "$OUTDIR/area.csv"
mv "$OUTDIR/area.md.tmp" "$OUTDIR/area.md"

for w in "${warnings[@]}"; do echo "area: WARNING: $w" >&2; done
CPU_TOTAL=$(awk '!/\(cached\)/ { s += $4 } END { printf "%.0f", s }' "$LOGDIR/runtimes.txt")
echo "area: ${#TAGS[@]} syntheses ($NCACHED from the cache) in $((T1 - T0)) s wall, $CPU_TOTAL s Yosys CPU (per run: logs/runtimes.txt); wrote $OUTDIR/area.csv and $OUTDIR/area.md"
echo
echo "$TABLE"
[ -z "$BRK" ] || printf '\n%s\n' "$BRK"
