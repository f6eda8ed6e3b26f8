#!/usr/bin/env bash
# setup.sh - install the Debian 12 packages smk-qos needs (only the missing ones).
#
# Usage: scripts/setup.sh
#
# `make run` and `make test` call this every time, so the common case (everything installed) is
# one dpkg-query call plus two version probes and prints exactly one line:
#     setup: all N packages present
# When packages are missing it runs, once, `apt-get update` and then
#     DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends <missing...>
# directly as root, or through `sudo -n` (never prompts) otherwise.  If neither is possible it
# prints the missing packages and the exact command to run, and exits 1.  A failed install exits
# non-zero naming the packages.
#
# After the check/install it verifies the tool versions the project is pinned to (Debian 12):
# Verilator 5.006 and Yosys 0.23.  A different version prints a warning line, not an error.
#
# Environment overrides (for testing the script itself):
#   SMK_SETUP_PKGS="pkg1 pkg2 ..."   replace the package list, e.g.
#                                    SMK_SETUP_PKGS="verilator nonexistent-pkg-xyz" scripts/setup.sh
#                                    exercises the install path and its failure message.
#
# Exit status: 0 = all packages present (possibly after installing), 1 = missing and could not
# install, or install failed.
set -euo pipefail

# clang and libclang-rt-14-dev (a recommendation of clang, not installed with --no-install-recommends):
# libFuzzer and the sanitizers' runtimes for make fuzz
readonly DEFAULT_PKGS="verilator yosys libcriterion-dev nextpnr-ice40 fpga-icestorm z3 gnuplot-nox pkg-config g++ make time clang libclang-rt-14-dev python3 iverilog lcov ccache"
readonly WANT_VERILATOR="5.006"
readonly WANT_YOSYS="0.23"

read -r -a pkgs <<<"${SMK_SETUP_PKGS:-$DEFAULT_PKGS}"
if [ "${#pkgs[@]}" -eq 0 ]; then
    echo "setup: ERROR: empty package list (SMK_SETUP_PKGS)" >&2
    exit 1
fi
for p in "${pkgs[@]}"; do
    if ! [[ "$p" =~ ^[a-z0-9][a-z0-9+.-]+$ ]]; then
        echo "setup: ERROR: invalid Debian package name '$p'" >&2
        exit 1
    fi
done

# Print the names of the packages of "$@" that are not installed (one dpkg-query call).
missing_pkgs() {
    local -A ok=()
    local name status
    # Unknown packages make dpkg-query print to stderr and exit 1; they simply stay "missing".
    while IFS=$'\t' read -r name status; do
        [ "$status" = "install ok installed" ] && ok[$name]=1
    done < <(dpkg-query -W -f='${Package}\t${Status}\n' "$@" 2>/dev/null || true)
    local p
    for p in "$@"; do
        [ -n "${ok[$p]:-}" ] || printf '%s\n' "$p"
    done
}

# Warn (do not fail) when a pinned tool reports another version.
check_versions() {
    local v
    if command -v verilator >/dev/null 2>&1; then
        v=$(verilator --version 2>/dev/null | head -n 1 || true)
        [[ "$v" =~ ^Verilator\ ${WANT_VERILATOR//./\\.}([^0-9]|$) ]] ||
            echo "setup: WARNING: expected Verilator $WANT_VERILATOR, found: ${v:-no version output}"
    fi
    if command -v yosys >/dev/null 2>&1; then
        v=$(yosys -V 2>/dev/null | head -n 1 || true)
        [[ "$v" =~ ^Yosys\ ${WANT_YOSYS//./\\.}([^0-9]|$) ]] ||
            echo "setup: WARNING: expected Yosys $WANT_YOSYS, found: ${v:-no version output}"
    fi
}

mapfile -t missing < <(missing_pkgs "${pkgs[@]}")

if [ "${#missing[@]}" -eq 0 ]; then
    echo "setup: all ${#pkgs[@]} packages present"
    check_versions
    exit 0
fi

echo "setup: missing ${#missing[@]} of ${#pkgs[@]} packages: ${missing[*]}"

# How to become root: directly, or via non-interactive sudo.
if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    echo "setup: ERROR: not root and 'sudo -n' is not available; cannot install: ${missing[*]}" >&2
    if command -v sudo >/dev/null 2>&1; then
        echo "setup: run:  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    else
        echo "setup: run as root:  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
    fi
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "setup: running ${as_root[*]:+${as_root[*]} }apt-get update"
if ! "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq; then
    echo "setup: WARNING: apt-get update failed; trying the install with the existing package lists"
fi

echo "setup: running ${as_root[*]:+${as_root[*]} }apt-get install -y --no-install-recommends ${missing[*]}"
if ! "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends "${missing[@]}"; then
    echo "setup: ERROR: apt-get install failed for: ${missing[*]} (see the apt-get output above)" >&2
    exit 1
fi

mapfile -t still < <(missing_pkgs "${pkgs[@]}")
if [ "${#still[@]}" -ne 0 ]; then
    echo "setup: ERROR: still not installed after apt-get install: ${still[*]}" >&2
    exit 1
fi
echo "setup: installed ${missing[*]}; all ${#pkgs[@]} packages present"
check_versions
