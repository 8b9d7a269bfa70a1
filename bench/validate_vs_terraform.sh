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

cargo build --release -q -p tofu-rs --bin tofu-rs
cargo run --release -q -p tofu-configs --example gen_config -- "$work/cfg" "$MB" 20 >/dev/null
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/tofu-rs"
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac

check() { # fails unless "$@" validates the configuration
  if ! out=$(cd "$work/cfg" && "$@" 2>&1); then
    echo "$1 failed on the generated configuration:" >&2
    echo "$out" >&2
    exit 1
  fi
}

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
check "$bin" validate -no-color
t_rs=$(best "$bin" validate -no-color)
echo "tofu-rs validate:   ${t_rs} ms"
if command -v terraform >/dev/null; then
  # terraform_data comes from the built-in provider: no `terraform init`
  # (and no network) is needed; the check run fails loudly if it ever is.
  check terraform validate -no-color
  t_tf=$(best terraform validate -no-color)
  echo "terraform validate: ${t_tf} ms"
  awk -v a="$t_tf" -v b="$t_rs" 'BEGIN { if (b < 1) b = 1; printf "ratio: tofu-rs is %.1fx faster\n", a / b }'
else
  echo "terraform not installed: comparison skipped"
fi
