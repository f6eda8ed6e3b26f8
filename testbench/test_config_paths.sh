#!/usr/bin/env bash
# test_config_paths.sh: the Makefile builds the configuration it is given (docs/params.md
# "Build directories"): a file given by path gets a directory of its own, never the one of the named
# configuration of the same base name nor the one of another file of that base name, and a target
# in the wrong directory is refused with the right command. Dry runs (make -n), and one header generated.
set -uo pipefail
cd "$(dirname "$0")/.."
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/a" "$t/b"
cp hw/configs/small.cfg "$t/a/small.cfg"; cp hw/configs/small.cfg "$t/b/small.cfg"
dir_of() { make -n CONFIG="$1" lint 2>&1 | sed -n 's#^build/hwgen .* \(build/[^ ]*\)$#\1#p' | head -1; }
da=$(dir_of "$t/a/small.cfg") db=$(dir_of "$t/b/small.cfg")
[[ "$da" == build/small-* ]] && ok || bad "a file small.cfg builds in '$da', expected build/small-HASH"
[ -n "$db" ] && [ "$da" != "$db" ] && ok || bad "two files small.cfg share '$da' / '$db'"
[ "$(dir_of "$t/a/small.cfg")" = "$da" ] && ok || bad "the same file gives another directory on a second call"
# the hwgen line names the user's file, not hw/configs/small.cfg
# (make's output taken whole first: grep -q leaving the pipe early makes make fail under pipefail)
l=$(make -n CONFIG="$t/a/small.cfg" lint 2>&1)
grep -q "^build/hwgen $t/a/small.cfg " <<<"$l" && ok || bad "hwgen does not read the user's file"
# a named configuration keeps build/NAME; lint with CONFIG lints that configuration only
l=$(make -n CONFIG=small lint 2>&1)
grep -q 'clean on small"$' <<<"$l" && ! grep -q 'gtx980' <<<"$l" && ok || bad "make -n CONFIG=small lint: '$l'"
l=$(make -n lint 2>&1)
grep -q 'clean on gtx980 pascal56 small"$' <<<"$l" && ok || bad "make -n lint: '$l'"
# the named configuration's directory with CONFIG=path: refused, with the command that builds the file
e=$(make CONFIG="$t/a/small.cfg" build/small/smk 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q "builds in $da/; build/small/ is another configuration's: make CONFIG=$t/a/small.cfg $da/smk" <<<"$e" \
  && ok || bad "build/small/smk with CONFIG=$t/a/small.cfg: rc $rc, '$e'"
# the generated header names its build directory (SMK_CFG_DIR: smk accepts --config FILE.cfg for the
# binary built from it, docs/smk.md); the header of a file is generated in the file's directory
make -s --no-print-directory CONFIG="$t/a/small.cfg" "$da/smk_cfg.h" > /dev/null 2>&1
grep -q "^#define SMK_CFG_DIR \"${da#build/}\"$" "$da/smk_cfg.h" 2> /dev/null && grep -q '^#define SMK_CFG_NAME "small"$' "$da/smk_cfg.h" &&
  ok || bad "$da/smk_cfg.h: SMK_CFG_DIR is not \"${da#build/}\": $(grep SMK_CFG_ "$da/smk_cfg.h" 2>&1)"
rm -rf "$da"
echo "config path tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
