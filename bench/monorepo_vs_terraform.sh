#!/usr/bin/env bash
# Issue 18's benchmark: a monorepo of ROOTS root modules (default 100) under
# live/<env>/<name>/, each calling 10 git repositories at 3 tags (30 git
# calls, git::file://.../repoK?ref=v1.x.0) and 20 shared local modules
# (../../../modules/mK, some calling each other: 35 records), terraform_data
# only (bench/gen_monorepo.py). Both tools work on identical copies.
#
#   1. cold init: `terraform init -backend=false -input=false` in each root in
#      turn (as CI would) against one `tofu-rs init -recursive` from the top
#      with an empty TF_MODULE_CACHE_DIR;
#   2. warm init: every .terraform removed, the git repositories moved away,
#      `tofu-rs init -recursive` again with the same cache (so it must not
#      fetch), against the terraform cold loop;
#   3. validate: `terraform validate` in each root against one
#      `tofu-rs validate -recursive`;
#   4. the peak RSS of every run (GNU time's %M, or the rusage of wait4);
#   5. SCALING=1: tofu-rs alone, cold / warm / validate at 10, 100 and 1000
#      roots (SCALING_ROOTS).
#
# Every run must exit 0 and leave each root's .terraform/modules/modules.json
# with 30 git and 35 local records (and no .terraform outside the roots).
# Best of RUNS kept: TF_RUNS (default 1) for the terraform loops, RS_RUNS
# (default 3) for tofu-rs; RUNS sets both; SCALING_RUNS (default 1) for the
# scaling table. The work directory is made by mktemp, so TMPDIR chooses the
# filesystem (each root's .terraform holds about 1,450 files, 6 MB).
# TOFU_RS_LOOP=1 runs tofu-rs once per root, like terraform, instead of
# -recursive (for binaries without the flag); TOFU_RS_BIN=path skips the
# cargo build; WARM_MAY_FAIL=1 reports a warm run that needed the
# repositories instead of aborting (for binaries without the module cache);
# SKIP_TERRAFORM=1 times tofu-rs alone; KEEP=1 keeps the work directory.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOTS=${ROOTS:-100}
TF_RUNS=${TF_RUNS:-${RUNS:-1}}
RS_RUNS=${RS_RUNS:-${RUNS:-3}}
SCALING=${SCALING:-0}
SCALING_ROOTS=${SCALING_ROOTS:-"10 100 1000"}
SCALING_RUNS=${SCALING_RUNS:-1}
TOFU_RS_LOOP=${TOFU_RS_LOOP:-0}
WARM_MAY_FAIL=${WARM_MAY_FAIL:-0}
SKIP_TERRAFORM=${SKIP_TERRAFORM:-0}
gen="$PWD/bench/gen_monorepo.py"
work=$(mktemp -d)
repos="$work/repos"
cleanup() {
  # The repositories are moved away during warm runs; put them back first.
  [ -d "$repos.away" ] && mv "$repos.away" "$repos"
  if [ "${KEEP:-0}" = 1 ]; then echo "work directory kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

if [ -n "${TOFU_RS_BIN:-}" ]; then
  bin=$TOFU_RS_BIN
else
  cargo build --release -q -p tofu-rs --bin tofu-rs
  bin="${CARGO_TARGET_DIR:-$PWD/target}/release/tofu-rs"
fi
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
[ -x "$bin" ] || { echo "no tofu-rs binary at $bin" >&2; exit 1; }
tf=""
if [ "$SKIP_TERRAFORM" != 1 ]; then
  tf=$(command -v terraform || true)
  [ -z "$tf" ] && echo "terraform not on PATH: timing tofu-rs alone"
fi
export CHECKPOINT_DISABLE=1 # no version check from terraform: no network
read -r rec_git rec_local < <(python3 "$gen" records)

# Per-root loop: LOOP ROOTS_FILE CMD... runs CMD in each listed root (paths
# relative to the current directory) in turn, stopping at the first failure.
cat >"$work/loop.sh" <<'EOF'
roots=$1
shift
while IFS= read -r r; do
  echo "== $r"
  (cd "$r" && "$@") || { echo "FAILED in $r (exit $?)"; exit 1; }
done <"$roots"
EOF

# timed LOG DIR CMD...: runs CMD in DIR, output to LOG; sets T_MS (wall
# time) and T_KB (peak RSS of the largest process: for a loop, the largest
# single root's run). Returns CMD's exit status.
if /usr/bin/time -f %M -o "$work/mem" true 2>/dev/null; then
  mem_how="GNU time %M"
  memcmd=(/usr/bin/time -f %M -o "$work/mem")
else
  mem_how="ru_maxrss from wait4"
  memcmd=(python3 -c 'import os, subprocess, sys
p = subprocess.Popen(sys.argv[2:])
_, st, ru = os.wait4(p.pid, 0)
open(sys.argv[1], "w").write("%d\n" % ru.ru_maxrss)
sys.exit(os.waitstatus_to_exitcode(st))' "$work/mem")
fi
timed() {
  local log=$1 dir=$2 s e rc=0
  shift 2
  s=$(date +%s%N)
  (cd "$dir" && "${memcmd[@]}" "$@") >"$log" 2>&1 || rc=$?
  e=$(date +%s%N)
  T_MS=$(((e - s) / 1000000))
  T_KB=$(tail -n 1 "$work/mem")
  return "$rc"
}

die() { # LOG message
  echo "$2" >&2
  [ -f "$1" ] && tail -n 30 "$1" >&2
  exit 1
}

clean() { # remove every .terraform under $1
  find "$1" -name .terraform -type d -prune -exec rm -rf {} +
}

verify() { # TOP ROOTS_FILE LOG WHAT: modules.json of every root, nothing else
  local n want
  python3 "$gen" check "$1" "$2" || die "$3" "$4: wrong module manifests"
  n=$(find "$1" -name .terraform -type d -prune | wc -l)
  want=$(wc -l <"$2")
  [ "$n" = "$want" ] || die "$3" "$4: $n .terraform directories, expected $want (one per root)"
}

# The tofu-rs command lines, -recursive from the top or a per-root loop.
rs_init() { # TOP ROOTS_FILE CACHE LOG
  if [ "$TOFU_RS_LOOP" = 1 ]; then
    timed "$4" "$1" env TF_MODULE_CACHE_DIR="$3" bash "$work/loop.sh" "$2" \
      "$bin" init -backend=false -input=false -no-color
  else
    timed "$4" "$1" env TF_MODULE_CACHE_DIR="$3" \
      "$bin" init -recursive -backend=false -input=false -no-color
  fi
}
rs_validate() { # TOP ROOTS_FILE LOG
  if [ "$TOFU_RS_LOOP" = 1 ]; then
    timed "$3" "$1" bash "$work/loop.sh" "$2" "$bin" validate -no-color
  else
    timed "$3" "$1" "$bin" validate -recursive -no-color
  fi
}

hide_repos() { mv "$repos" "$repos.away"; }
show_repos() { mv "$repos.away" "$repos"; }

# Best of N: B_MS is the best wall time, B_KB the highest peak RSS.
best_reset() { B_MS=999999999 B_KB=0; }
best_add() {
  ((T_MS < B_MS)) && B_MS=$T_MS
  ((T_KB > B_KB)) && B_KB=$T_KB
  return 0
}

# rs_cold TOP ROOTS CACHE: RS_RUNS cold runs (no .terraform, empty cache).
rs_cold() {
  local i log="$work/rs-cold.log"
  best_reset
  for i in $(seq "$RS_RUNS"); do
    clean "$1"
    rm -rf "$3" && mkdir -p "$3"
    rs_init "$1" "$2" "$3" "$log" || die "$log" "tofu-rs cold init failed (run $i)"
    verify "$1" "$2" "$log" "tofu-rs cold init"
    best_add
  done
}

# rs_warm TOP ROOTS CACHE: RS_RUNS warm runs (no .terraform, the cache of the
# cold runs, the git repositories moved away). Sets WARM_OK=0 when a run
# failed and WARM_MAY_FAIL=1; the tree is then initialised again, cold.
rs_warm() {
  local i log="$work/rs-warm.log"
  best_reset
  WARM_OK=1
  hide_repos
  for i in $(seq "$RS_RUNS"); do
    clean "$1"
    if ! rs_init "$1" "$2" "$3" "$log"; then
      show_repos
      if [ "$WARM_MAY_FAIL" = 1 ]; then
        echo "warm init failed with the git repositories moved away (WARM_MAY_FAIL=1: going on):" >&2
        grep -m 1 -iE 'error|fail' "$log" >&2 || true
        WARM_OK=0
        clean "$1"
        rs_init "$1" "$2" "$3" "$log" || die "$log" "tofu-rs init failed"
        verify "$1" "$2" "$log" "tofu-rs init"
        return 0
      fi
      die "$log" "tofu-rs warm init failed with the git repositories moved away: it tried to fetch (run $i)"
    fi
    verify "$1" "$2" "$log" "tofu-rs warm init"
    # A cache that tried the repositories and fell back would still succeed.
    # (-recursive's summary says "0 failed": look for a failed root's line
    # and for diagnostics instead.)
    if grep -qE '^[^ ]+: failed|Error:' "$log"; then
      die "$log" "tofu-rs warm init reported an error (run $i)"
    fi
    best_add
  done
  show_repos
}

rs_val() { # TOP ROOTS
  local i log="$work/rs-validate.log"
  best_reset
  for i in $(seq "$RS_RUNS"); do
    rs_validate "$1" "$2" "$log" || die "$log" "tofu-rs validate failed (run $i)"
    best_add
  done
}

# Control: with the repositories moved away and an empty cache, an init must
# fail, or the warm runs would prove nothing.
control() { # TOP ROOTS_FILE
  local r log="$work/control.log"
  r=$(head -n 1 "$2")
  mkdir -p "$work/empty-cache"
  hide_repos
  if (cd "$1/$r" && env TF_MODULE_CACHE_DIR="$work/empty-cache" \
    "$bin" init -backend=false -input=false -no-color) >"$log" 2>&1; then
    show_repos
    die "$log" "control: tofu-rs init succeeded in $r with the repositories moved away and no cache"
  fi
  show_repos
  rm -rf "$1/$r/.terraform" "$work/empty-cache"
}

ratio() { # terraform_ms tofu_ms target
  if [ -z "$1" ] || [ "$1" = - ] || [ -z "$2" ] || [ "$2" = - ]; then
    printf '%8s  %-7s' - "-"
    return
  fi
  awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { if (b < 1) b = 1; r = a / b
    printf "%7.1fx  %-7s", r, (r >= t ? "ok" : "BELOW") }'
}
mb() { awk -v k="$1" 'BEGIN { if (k == "" || k == "-") print "-"; else printf "%.1f MB", k / 1024 }'; }

mode="init -recursive / validate -recursive"
[ "$TOFU_RS_LOOP" = 1 ] && mode="per-root loop (TOFU_RS_LOOP=1)"
echo "tofu-rs: $bin ($mode)"
echo "peak RSS: $mem_how"
fs=$(stat -f -c %T "$work")
echo "work directory: $work ($fs)"
[ "$fs" = tmpfs ] || echo "  (deleting the .terraform trees between runs is disk-bound there; TMPDIR=/dev/shm puts it on tmpfs)"

python3 "$gen" repos "$repos"
python3 "$gen" tree "$work/mono" "$repos" "$ROOTS" >"$work/roots.txt"
cp -a "$work/mono" "$work/tf"
cp -a "$work/mono" "$work/rs"
echo "monorepo: $ROOTS roots under live/<env>/<name>, each $rec_git git + $rec_local local module records" \
  "($(find "$work/mono" -name '*.tf' | wc -l) .tf files)"

control "$work/rs" "$work/roots.txt"

# Terraform: cold init loop, then validate loop, on its own copy.
tf_cold=- tf_cold_kb=- tf_val=- tf_val_kb=-
if [ -n "$tf" ]; then
  log="$work/tf-cold.log"
  best_reset
  for i in $(seq "$TF_RUNS"); do
    clean "$work/tf"
    timed "$log" "$work/tf" bash "$work/loop.sh" "$work/roots.txt" \
      "$tf" init -backend=false -input=false -no-color || die "$log" "terraform init failed (run $i)"
    verify "$work/tf" "$work/roots.txt" "$log" "terraform init"
    best_add
  done
  tf_cold=$B_MS tf_cold_kb=$B_KB
  echo "terraform cold init loop: $tf_cold ms"
  log="$work/tf-validate.log"
  best_reset
  for i in $(seq "$TF_RUNS"); do
    timed "$log" "$work/tf" bash "$work/loop.sh" "$work/roots.txt" \
      "$tf" validate -no-color || die "$log" "terraform validate failed (run $i)"
    best_add
  done
  tf_val=$B_MS tf_val_kb=$B_KB
  echo "terraform validate loop: $tf_val ms"
fi

cache="$work/module-cache"
rs_cold "$work/rs" "$work/roots.txt" "$cache"
rs_cold_ms=$B_MS rs_cold_kb=$B_KB
echo "tofu-rs cold init: $rs_cold_ms ms; module cache: $(du -sh "$cache" | cut -f1), $(find "$cache" -type f | wc -l) files"
rs_warm "$work/rs" "$work/roots.txt" "$cache"
rs_warm_ms=- rs_warm_kb=-
if [ "$WARM_OK" = 1 ]; then
  rs_warm_ms=$B_MS rs_warm_kb=$B_KB
  echo "tofu-rs warm init (git repositories moved away): $rs_warm_ms ms"
fi
rs_val "$work/rs" "$work/roots.txt"
rs_val_ms=$B_MS rs_val_kb=$B_KB
echo "tofu-rs validate: $rs_val_ms ms"

echo
echo "$ROOTS roots, best of $TF_RUNS (terraform) / $RS_RUNS (tofu-rs); tofu-rs: $mode"
printf '%-10s %18s %12s %9s  %-7s %7s %12s %12s\n' phase "terraform (loop)" tofu-rs ratio check target "tf peak" "tofu-rs peak"
row() { # name tf_ms rs_ms target tf_kb rs_kb
  local tfs="-" rss="-"
  [ "$2" != - ] && tfs="$2 ms"
  [ "$3" != - ] && rss="$3 ms"
  [ "$3" = - ] && [ "$WARM_OK" = 0 ] && [ "$1" = "warm init" ] && rss="FAILED"
  printf '%-10s %18s %12s ' "$1" "$tfs" "$rss"
  ratio "$2" "$3" "$4"
  printf ' %7s %12s %12s\n' ">=${4}x" "$(mb "$5")" "$(mb "$6")"
}
row "cold init" "$tf_cold" "$rs_cold_ms" 20 "$tf_cold_kb" "$rs_cold_kb"
row "warm init" "$tf_cold" "$rs_warm_ms" 50 "$tf_cold_kb" "$rs_warm_kb"
row "validate" "$tf_val" "$rs_val_ms" 50 "$tf_val_kb" "$rs_val_kb"
echo "(warm init is compared with terraform's cold loop: terraform has no module cache;"
echo " peaks: the largest single process, for a loop the largest root's run)"
rm -rf "$work/tf" "$work/rs" "$cache"

if [ "$SCALING" = 1 ]; then
  RS_RUNS=$SCALING_RUNS
  echo
  echo "scaling, tofu-rs alone ($mode), best of $RS_RUNS:"
  printf '%6s %12s %12s %12s %10s %10s %10s %14s\n' roots cold warm validate "cold peak" "warm peak" "val peak" "cold per root"
  for n in $SCALING_ROOTS; do
    top="$work/scale-$n"
    python3 "$gen" tree "$top" "$repos" "$n" >"$work/scale-roots.txt"
    rs_cold "$top" "$work/scale-roots.txt" "$cache"
    c_ms=$B_MS c_kb=$B_KB
    rs_warm "$top" "$work/scale-roots.txt" "$cache"
    w_ms="$B_MS ms" w_kb=$B_KB
    [ "$WARM_OK" = 1 ] || w_ms=FAILED w_kb=-
    rs_val "$top" "$work/scale-roots.txt"
    printf '%6s %12s %12s %12s %10s %10s %10s %14s\n' "$n" "$c_ms ms" "$w_ms" "$B_MS ms" \
      "$(mb "$c_kb")" "$(mb "$w_kb")" "$(mb "$B_KB")" \
      "$(awk -v t="$c_ms" -v n="$n" 'BEGIN { printf "%.1f ms", t / n }')"
    rm -rf "$top" "$cache"
  done
fi
