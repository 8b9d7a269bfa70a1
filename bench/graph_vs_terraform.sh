#!/usr/bin/env bash
# Times `tofu-rs validate` and `tofu-rs plan-lite` against `terraform
# validate` and `terraform plan -refresh=false` on generated configurations
# of terraform_data instances (issue 5's benchmark): about 1,000, 5,000 and
# 20,000 instances over 50 module directories, and a tree of 1,910 small
# local module instances. Reports wall time (best of RUNS) and peak RSS of
# each, and the ratios, all from one run. Terraform is skipped, saying so,
# when it is not on PATH. SIZES="1000 5000" limits the sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
SIZES=${SIZES:-"1000 5000 20000"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release -q -p tofu-rs --bin tofu-rs
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/tofu-rs"
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
tf=$(command -v terraform || true)
[ -z "$tf" ] && echo "terraform not on PATH: timing tofu-rs alone"
export TF_CLI_CONFIG_FILE=${TF_CLI_CONFIG_FILE:-/dev/null} CHECKPOINT_DISABLE=1

# measure RUNS DIR CMD...: prints "ms peak_kB" for the best of RUNS runs.
# Wall time comes from time.perf_counter (millisecond resolution: tofu-rs
# takes ~10 ms on the module tree, /usr/bin/time's own resolution), peak RSS
# from the child's rusage. A run that fails aborts the benchmark: a fast
# failure is not a result.
measure() {
  python3 - "$@" <<'PY'
import os, subprocess, sys, time
runs, cwd, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
best = None
for _ in range(runs):
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    ms = (time.perf_counter() - start) * 1000.0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(cmd)} failed in {cwd}:\n{err.decode(errors='replace')[-2000:]}")
    if best is None or ms < best[0]:
        best = (ms, usage.ru_maxrss)  # ru_maxrss is in kB on Linux
print(f"{best[0]:.1f} {best[1]}")
PY
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f MB", k / 1024 }'; }

run_case() { # name dir [runs]: runs (default RUNS) for each tool's validate
  local name=$1 dir=$2 runs=${3:-$RUNS} tf_runs=${3:-1}
  (cd "$dir" && "$bin" init -input=false >/dev/null)
  read -r v_ms v_kb < <(measure "$runs" "$dir" "$bin" validate -no-color)
  read -r p_ms p_kb < <(measure "$RUNS" "$dir" "$bin" plan-lite -no-color -input=false)
  local line="$name: tofu-rs validate ${v_ms} ms ($(mb "$v_kb")), plan-lite ${p_ms} ms ($(mb "$p_kb"))"
  if [ -n "$tf" ]; then
    local tdir="$work/tf-$name"
    cp -r "$dir" "$tdir" && rm -rf "$tdir/.terraform"
    (cd "$tdir" && "$tf" init -input=false -backend=false >/dev/null)
    # Terraform once per size (its plan at 20,000 takes minutes and ~3 GB),
    # but validate as often as tofu-rs on the module tree.
    read -r tv_ms tv_kb < <(measure "$tf_runs" "$tdir" "$tf" validate -no-color)
    read -r tp_ms tp_kb < <(measure 1 "$tdir" "$tf" plan -refresh=false -input=false -no-color -lock=false)
    rm -rf "$tdir"
    line="$line | terraform validate ${tv_ms} ms ($(mb "$tv_kb")), plan ${tp_ms} ms ($(mb "$tp_kb")) | validate $(ratio "$tv_ms" "$v_ms"), plan $(ratio "$tp_ms" "$p_ms")"
  fi
  echo "$line"
  rm -rf "$dir"
}

for n in $SIZES; do
  python3 bench/gen_graph_config.py instances "$work/i$n" "$n" 50
  run_case "$n instances ($(du -sh "$work/i$n" | cut -f1))" "$work/i$n"
done
python3 bench/gen_graph_config.py tree "$work/tree"
# A few milliseconds against fifty: the machine's noise is of the same
# order, so both tools' validate is the best of TREE_RUNS here.
run_case "1910-instance module tree" "$work/tree" "${TREE_RUNS:-20}"
