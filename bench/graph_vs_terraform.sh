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

cargo build --release -q -p command --bin tofu-rs
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/tofu-rs"
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
tf=$(command -v terraform || true)
[ -z "$tf" ] && echo "terraform not on PATH: timing tofu-rs alone"
export TF_CLI_CONFIG_FILE=${TF_CLI_CONFIG_FILE:-/dev/null} CHECKPOINT_DISABLE=1

# measure DIR CMD...: prints "ms peak_kB" (best wall time; peak RSS of that run)
measure() {
  local dir=$1; shift
  local best=999999999 best_kb=0
  for _ in $(seq "$RUNS"); do
    (cd "$dir" && /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>&1) || true
    local secs kb ms
    read -r secs kb < "$work/time"
    ms=$(awk -v s="$secs" 'BEGIN { printf "%d", s * 1000 }')
    if (( ms < best )); then best=$ms; best_kb=$kb; fi
  done
  echo "$best $best_kb"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }'; }

run_case() { # name dir
  local name=$1 dir=$2
  (cd "$dir" && "$bin" init -input=false >/dev/null)
  read -r v_ms v_kb < <(measure "$dir" "$bin" validate -no-color)
  read -r p_ms p_kb < <(measure "$dir" "$bin" plan-lite -no-color -input=false)
  local line="$name: tofu-rs validate ${v_ms} ms (${v_kb} kB), plan-lite ${p_ms} ms (${p_kb} kB)"
  if [ -n "$tf" ]; then
    local tdir="$work/tf-$name"
    cp -r "$dir" "$tdir" && rm -rf "$tdir/.terraform"
    (cd "$tdir" && "$tf" init -input=false -backend=false >/dev/null)
    read -r tv_ms tv_kb < <(RUNS=1 measure "$tdir" "$tf" validate -no-color)
    read -r tp_ms tp_kb < <(RUNS=1 measure "$tdir" "$tf" plan -refresh=false -input=false -no-color -lock=false)
    line="$line | terraform validate ${tv_ms} ms (${tv_kb} kB), plan ${tp_ms} ms (${tp_kb} kB) | validate $(ratio "$tv_ms" "$v_ms"), plan $(ratio "$tp_ms" "$p_ms")"
  fi
  echo "$line"
}

for n in $SIZES; do
  python3 bench/gen_graph_config.py instances "$work/i$n" "$n" 50
  run_case "$n instances ($(du -sh "$work/i$n" | cut -f1))" "$work/i$n"
done
python3 bench/gen_graph_config.py tree "$work/tree"
run_case "1910-instance module tree" "$work/tree"
