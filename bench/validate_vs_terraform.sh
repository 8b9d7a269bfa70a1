#!/usr/bin/env bash
# Times `tofu-rs validate` against `terraform validate` on the same generated
# ~5 MB configuration (terraform_data only: no providers, no network).
# Prints wall times (best of N) and the ratio. Skips terraform if absent.
set -euo pipefail
cd "$(dirname "$0")/.."
MB=${MB:-5}
RUNS=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release -q -p command --bin tofu-rs
cargo run --release -q -p configs --example gen_config -- "$work/cfg" "$MB" 20 >/dev/null
bin="$PWD/target/release/tofu-rs"

best() { # best wall time in ms of "$@" run in $work/cfg, RUNS times
  local best=999999999
  for _ in $(seq "$RUNS"); do
    local s e
    s=$(date +%s%N)
    (cd "$work/cfg" && "$@" >/dev/null 2>&1) || true
    e=$(date +%s%N)
    local ms=$(( (e - s) / 1000000 ))
    (( ms < best )) && best=$ms
  done
  echo "$best"
}

size=$(du -sb "$work/cfg" | cut -f1)
echo "configuration: $((size / 1000)) kB in $(ls "$work/cfg" | wc -l) files"
t_rs=$(best "$bin" validate -no-color)
echo "tofu-rs validate:   ${t_rs} ms"
if command -v terraform >/dev/null; then
  (cd "$work/cfg" && terraform init -backend=false -input=false >/dev/null 2>&1) || true
  t_tf=$(best terraform validate -no-color)
  echo "terraform validate: ${t_tf} ms"
  awk -v a="$t_tf" -v b="$t_rs" 'BEGIN { if (b < 1) b = 1; printf "ratio: tofu-rs is %.1fx faster\n", a / b }'
else
  echo "terraform not installed: comparison skipped"
fi
