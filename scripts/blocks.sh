#!/usr/bin/env bash
# blocks.sh: reads hw/blocks.def (the RTL units, their files and their cosim harnesses).
#
#   blocks.sh units            every unit, one per line, in file order
#   blocks.sh files UNIT       UNIT's RTL files in dependency order (used units first), space separated
#   blocks.sh harnesses        every harness, one per line
#   blocks.sh harness NAME     "UNIT SHIM [SRC...]" of harness NAME
#   blocks.sh mk               all of it as make variables: UNITS, RTL_<unit>, HARNESSES, HARNESS_<name>
#                              (HARNESS_<name> = UNIT SHIM [SRC...])
#
# Paths are relative to the repository root. An unknown name or a malformed line is an error:
# one line "blocks.def:LINE: reason" (or "blocks.sh: ...") on stderr, exit status 1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
def=${SMK_BLOCKS_DEF:-$root/hw/blocks.def}
declare -A file=() uses=() hunit=() hshim=()
units=() harnesses=()
n=0
while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    line=${line%%#*}
    read -r -a f <<< "$line" || true
    [ ${#f[@]} -eq 0 ] && continue
    case ${f[0]} in
    unit)
        [ ${#f[@]} -ge 3 ] || { echo "blocks.def:$n: expected 'unit NAME FILE [USES...]'" >&2; exit 1; }
        [ -z "${file[${f[1]}]:-}" ] || { echo "blocks.def:$n: unit '${f[1]}' defined twice" >&2; exit 1; }
        for u in "${f[@]:3}"; do
            [ -n "${file[$u]:-}" ] || { echo "blocks.def:$n: unit '${f[1]}' uses '$u', not defined above" >&2; exit 1; }
        done
        file[${f[1]}]=${f[2]}; uses[${f[1]}]="${f[*]:3}"; units+=("${f[1]}") ;;
    harness)
        [ ${#f[@]} -ge 4 ] || { echo "blocks.def:$n: expected 'harness NAME UNIT SHIM [SRC...]'" >&2; exit 1; }
        [ -n "${file[${f[2]}]:-}" ] || { echo "blocks.def:$n: harness '${f[1]}' of unknown unit '${f[2]}'" >&2; exit 1; }
        hunit[${f[1]}]=${f[2]}; hshim[${f[1]}]="${f[*]:3}"; harnesses+=("${f[1]}") ;;
    *) echo "blocks.def:$n: expected 'unit' or 'harness', got '${f[0]}'" >&2; exit 1 ;;
    esac
done < "$def"

declare -A seen=()
out=()
collect() { # UNIT: its uses' files first, each file once
    local u
    for u in ${uses[$1]}; do collect "$u"; done
    [ -n "${seen[${file[$1]}]:-}" ] || { seen[${file[$1]}]=1; out+=("${file[$1]}"); }
}

case ${1:-} in
mk)
    echo "# generated from hw/blocks.def by scripts/blocks.sh mk: do not edit"
    echo "UNITS := ${units[*]}"
    for u in "${units[@]}"; do seen=(); out=(); collect "$u"; echo "RTL_$u := ${out[*]}"; done
    echo "HARNESSES := ${harnesses[*]}"
    for h in "${harnesses[@]}"; do echo "HARNESS_$h := ${hunit[$h]} ${hshim[$h]}"; done ;;
units) printf '%s\n' "${units[@]}" ;;
harnesses) printf '%s\n' "${harnesses[@]}" ;;
files)
    [ -n "${2:-}" ] && [ -n "${file[$2]:-}" ] || { echo "blocks.sh: no unit '${2:-}' in hw/blocks.def" >&2; exit 1; }
    collect "$2"; echo "${out[*]}" ;;
harness)
    [ -n "${2:-}" ] && [ -n "${hunit[$2]:-}" ] || { echo "blocks.sh: no harness '${2:-}' in hw/blocks.def" >&2; exit 1; }
    echo "${hunit[$2]} ${hshim[$2]}" ;;
*) echo "usage: blocks.sh units | files UNIT | harnesses | harness NAME | mk" >&2; exit 1 ;;
esac
