#!/usr/bin/env bash
# Schema-checked validate against terraform's (issue 15): three providers,
# each terraform-provider-testing serving a synthetic schema of a few hundred
# resource types (bench/gen_provider_schemas.py), and a configuration of a
# few hundred resources using them.
#   cold: tofu-rs validate with an empty schema cache (every plugin started)
#   warm: tofu-rs validate again (schemas and Validate* answers cached)
#   terraform: terraform validate (it starts every plugin on every run)
# The test provider's log counts plugin starts. Prints best-of-RUNS wall
# times, the ratios and the cache's size on disk. Skips terraform if absent.
# Env: TYPES (resource types per provider, 300), RESOURCES (300), RUNS (5),
#      TOFU_RS_BIN / TESTPROVIDER_BIN (prebuilt binaries), TMPDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
TYPES=${TYPES:-300}
RESOURCES=${RESOURCES:-300}
RUNS=${RUNS:-5}
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

if [ -z "${TOFU_RS_BIN:-}" ] || [ -z "${TESTPROVIDER_BIN:-}" ]; then
  cargo build --release -q -p tofu-rs --bin tofu-rs
  cargo build --release -q -p terraform-provider-testing
fi
target="${CARGO_TARGET_DIR:-$PWD/target}"
bin=${TOFU_RS_BIN:-$target/release/tofu-rs}
provider_bin=${TESTPROVIDER_BIN:-$target/release/terraform-provider-testing}

python3 bench/gen_provider_schemas.py "$work" "$TYPES" "$RESOURCES"
log="$work/starts.log"
# One package per provider: a wrapper that serves that provider's schema.
for p in alpha beta gamma; do
  for host in registry.terraform.io registry.opentofu.org; do
    d="$work/plugins/$host/tofu-rs/$p/1.0.0/linux_amd64"
    mkdir -p "$d"
    cat >"$d/terraform-provider-$p" <<SH
#!/bin/sh
TOFU_RS_TESTPROVIDER_SCHEMA="$work/schemas/$p.json" TOFU_RS_TESTPROVIDER_LOG="$log" exec "$provider_bin" "\$@"
SH
    chmod +x "$d/terraform-provider-$p"
  done
done
starts() { [ -f "$log" ] && wc -l <"$log" | tr -d ' ' || echo 0; }

best() { # best wall time in ms of "$@" in DIR=$1, RUNS times
  local dir=$1; shift
  local best=999999999
  for _ in $(seq "$RUNS"); do
    local s e
    s=$(date +%s%N)
    (cd "$dir" && "$@" >/dev/null 2>&1) || true
    e=$(date +%s%N)
    local ms=$(( (e - s) / 1000000 ))
    (( ms < best )) && best=$ms
  done
  echo "$best"
}

cache="$work/schema-cache"
export TOFU_RS_SCHEMA_CACHE_DIR="$cache"
cp -r "$work/config" "$work/rs"
(cd "$work/rs" && "$bin" init -plugin-dir="$work/plugins" -input=false >/dev/null)
if ! out=$(cd "$work/rs" && "$bin" validate -no-color 2>&1); then
  echo "tofu-rs validate failed on the generated configuration:" >&2
  echo "$out" >&2
  exit 1
fi
echo "configuration: $RESOURCES resources of 3 providers, $TYPES resource types each ($(du -sh "$work/schemas" | cut -f1) of schemas)"

cold_best=999999999
for _ in $(seq "$RUNS"); do
  rm -rf "$cache"
  s=$(date +%s%N)
  (cd "$work/rs" && "$bin" validate -no-color >/dev/null 2>&1) || true
  e=$(date +%s%N)
  ms=$(( (e - s) / 1000000 ))
  (( ms < cold_best )) && cold_best=$ms
done
before=$(starts)
t_warm=$(best "$work/rs" "$bin" validate -no-color)
warm_starts=$(( $(starts) - before ))
echo "tofu-rs cold validate: ${cold_best} ms"
echo "tofu-rs warm validate: ${t_warm} ms ($warm_starts plugin starts in $RUNS runs)"
echo "schema cache on disk: $(du -sh "$cache" | cut -f1) ($(find "$cache" -type f | wc -l) files)"

if command -v terraform >/dev/null; then
  cp -r "$work/config" "$work/tf"
  (cd "$work/tf" && TF_CLI_CONFIG_FILE=/dev/null terraform init -plugin-dir="$work/plugins" -input=false >/dev/null)
  if ! out=$(cd "$work/tf" && terraform validate -no-color 2>&1); then
    echo "terraform validate failed on the generated configuration:" >&2
    echo "$out" >&2
    exit 1
  fi
  before=$(starts)
  t_tf=$(best "$work/tf" terraform validate -no-color)
  echo "terraform validate:    ${t_tf} ms ($(( $(starts) - before )) plugin starts in $RUNS runs)"
  awk -v tf="$t_tf" -v w="$t_warm" -v c="$cold_best" 'BEGIN {
    if (w < 1) w = 1; if (c < 1) c = 1;
    printf "ratio warm: tofu-rs is %.1fx faster (target 20x)\n", tf / w;
    printf "ratio cold: tofu-rs is %.2fx terraform'"'"'s speed (target >= 1x)\n", tf / c }'
else
  echo "terraform not installed: comparison skipped"
fi
