#!/usr/bin/env bash
# Times the expressions of crates/lang/benches/expr.rs in `terraform
# console` and prints them beside tofu-rs's criterion means, with ratios.
#
# Terraform's time for an expression is a console run with a local holding
# the expression (queried as `length(local.result)`) minus a run with only
# its input data (for the `for` and JSON cases) or an empty console (for
# the additions): start-up, parsing and reading the data are subtracted.
# Best of RUNS each. Skips terraform if absent.
#
#   RUNS=3 SKIP_CARGO_BENCH=1 bench/expr_vs_terraform.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
target=${CARGO_TARGET_DIR:-target}

if [ -z "${SKIP_CARGO_BENCH:-}" ]; then
  cargo bench -q -p tofu-lang --bench expr >/dev/null
fi

# Criterion's mean for one benchmark, in ms.
rs_ms() {
  python3 -c 'import json,sys; print("%.3f" % (json.load(open(sys.argv[1]))["mean"]["point_estimate"] / 1e6))' \
    "$target/criterion/$1/new/estimates.json"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The same inputs as the criterion benches.
python3 - "$work" <<'EOF'
import json, sys
w = sys.argv[1]
m = {f"k{i}": {"group": f"g{i % 100}", "n": i} for i in range(100_000)}
json.dump(m, open(f"{w}/m.json", "w"))
data = [{"id": i, "name": f"item-{i}", "enabled": i % 3 == 0, "weight": i / 7.0, "tags": ["a", "b"]}
        for i in range(10_000)]
json.dump(data, open(f"{w}/data.json", "w"))
chain = "1" + "+1" * 9_999
open(f"{w}/chain.txt", "w").write(chain)
EOF

# config DIR LOCALS...: a root module whose locals are the given lines.
config() {
  local dir="$work/$1"; shift
  mkdir -p "$dir"
  { echo "locals {"; printf '  %s\n' "$@"; echo "}"; } >"$dir/main.tf"
}

config empty
config m_data 'data = jsondecode(file("../m.json"))'
config m_for 'data = jsondecode(file("../m.json"))' \
  'result = {for k, v in local.data : v.group => k... if v.n % 2 == 0}'
config enc_data 'data = jsondecode(file("../data.json"))'
config enc 'data = jsondecode(file("../data.json"))' 'result = jsonencode(local.data)'
config dec_data 'json = file("../data.json")'
config dec 'json = file("../data.json")' 'result = jsondecode(local.json)'
config chain "result = [$(cat "$work/chain.txt")]"
config for_add 'result = [for i in range(1000) : [for j in range(1000) : i + j]]'

# Best wall time in ms of `terraform console` in DIR answering QUERY.
tf_ms() {
  local best=999999999 s e ms
  for _ in $(seq "$RUNS"); do
    s=$(date +%s%N)
    (cd "$work/$1" && echo "$2" | terraform console >/dev/null 2>&1) || {
      echo "terraform console failed in $1" >&2
      return 1
    }
    e=$(date +%s%N)
    ms=$(((e - s) / 1000000))
    ((ms < best)) && best=$ms
  done
  echo "$best"
}

have_tf=1
command -v terraform >/dev/null || have_tf=0
if ((have_tf)); then
  echo "$(terraform version | head -1); best of $RUNS console runs"
  t_empty=$(tf_ms empty 1)
  echo "empty console start-up: ${t_empty} ms"
else
  echo "terraform not found: tofu-rs figures only"
fi

printf '\n%-28s %12s %14s %8s\n' benchmark "tofu-rs ms" "terraform ms" ratio
# row NAME RS_MS [TF_DIR TF_BASE_DIR TF_BASE_QUERY REPEAT]: terraform's
# expression time is (dir - base); REPEAT scales tofu-rs's figure to one
# terraform evaluation (the chain bench evaluates 100 times).
row() {
  local name=$1 rs=$2
  if ((have_tf)) && [ $# -gt 2 ]; then
    local full base tf
    full=$(tf_ms "$3" 'length(local.result)')
    base=$(tf_ms "$4" "$5")
    tf=$((full - base))
    rs=$(python3 -c "print('%.3f' % ($rs / $6))")
    python3 -c "import sys; rs,tf=float(sys.argv[1]),float(sys.argv[2]); print('%-28s %12.3f %14.0f %8s' % (sys.argv[3], rs, tf, ('%.1fx' % (tf / rs)) if rs > 0 and tf > 0 else 'n/a'))" "$rs" "$tf" "$name"
  else
    printf '%-28s %12s %14s %8s\n' "$name" "$rs" - -
  fi
}

row for_group_filter_100k_map "$(rs_ms for_group_filter_100k_map)" m_for m_data 'length(local.data)' 1
row jsonencode_10k "$(rs_ms jsonencode_10k)" enc enc_data 'length(local.data)' 1
row jsondecode_10k "$(rs_ms jsondecode_10k)" dec dec_data 'length(local.json)' 1
row eval_add_chain_10k "$(rs_ms eval_add_chain_10k_x100)" chain empty 1 100
row eval_for_add_1000x1000 "$(rs_ms eval_for_add_1000x1000)" for_add empty 1 1
row value_add_1m "$(rs_ms value_add_1m)"
echo
echo "ratio = terraform / tofu-rs (higher is faster for tofu-rs)"
