#!/usr/bin/env bash
# init with 10 providers of ~20 MB each from a filesystem mirror given
# with -plugin-dir, tofu-rs against terraform: cold (empty .terraform)
# and with a warm plugin cache (TF_PLUGIN_CACHE_DIR filled by an earlier
# run, lock file present). Prints the times and the ratios.
#   TOFU_RS=path/to/tofu-rs (default target/release/tofu-rs)  RUNS=3
set -euo pipefail
TOFU_RS=${TOFU_RS:-$(cd "$(dirname "$0")/.." && pwd)/target/release/tofu-rs}
TF=${TERRAFORM:-terraform}
RUNS=${RUNS:-3}
command -v "$TF" >/dev/null || { echo "terraform not on PATH: skipped"; exit 0; }
[ -x "$TOFU_RS" ] || { echo "no tofu-rs binary at $TOFU_RS"; exit 1; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
PLAT=$(go env GOOS 2>/dev/null || echo linux)_$(uname -m | sed 's/x86_64/amd64/;s/aarch64/arm64/')
python3 - "$W/mirror" "$PLAT" <<'PY'
import os, sys, zipfile
mirror, plat = sys.argv[1], sys.argv[2]
for i in range(10):
    d = os.path.join(mirror, "registry.opentofu.org/bench", f"p{i}")
    os.makedirs(d, exist_ok=True)
    with zipfile.ZipFile(os.path.join(d, f"terraform-provider-p{i}_1.0.0_{plat}.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo(f"terraform-provider-p{i}_v1.0.0"); info.external_attr = 0o755 << 16
        z.writestr(info, b"#!/bin/sh\n" + os.urandom(20 * 1024 * 1024))
PY
{ echo 'terraform {'; echo '  required_providers {'
  for i in $(seq 0 9); do echo "    p$i = { source = \"registry.opentofu.org/bench/p$i\" }"; done
  echo '  }'; echo '}'; } > "$W/main.tf"
export TF_CLI_CONFIG_FILE=$W/empty.tfrc; : > "$TF_CLI_CONFIG_FILE"
unset TF_PLUGIN_CACHE_DIR TF_DATA_DIR

# best of $RUNS, in seconds, of: $1=tool, $2=setup (cold|warm)
time_init() {
  local tool=$1 mode=$2 best=
  for _ in $(seq "$RUNS"); do
    local d; d=$(mktemp -d -p "$W"); cp "$W/main.tf" "$d/"
    if [ "$mode" = warm ]; then cp "$W/lock-$3" "$d/.terraform.lock.hcl"; export TF_PLUGIN_CACHE_DIR=$W/cache-$3; fi
    local s e; s=$(date +%s.%N)
    (cd "$d" && "$tool" init -input=false -no-color -plugin-dir="$W/mirror" >/dev/null)
    e=$(date +%s.%N); unset TF_PLUGIN_CACHE_DIR
    local t; t=$(echo "$e - $s" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
    rm -rf "$d"
  done
  echo "$best"
}
# Fill each tool's cache once, keeping the lock file it wrote.
for t in tofu terraform; do
  bin=$TOFU_RS; [ $t = terraform ] && bin=$TF
  d=$(mktemp -d -p "$W"); cp "$W/main.tf" "$d/"; mkdir -p "$W/cache-$t"
  (cd "$d" && TF_PLUGIN_CACHE_DIR=$W/cache-$t "$bin" init -input=false -no-color -plugin-dir="$W/mirror" >/dev/null)
  cp "$d/.terraform.lock.hcl" "$W/lock-$t"; rm -rf "$d"
done
cold_rs=$(time_init "$TOFU_RS" cold); cold_tf=$(time_init "$TF" cold)
warm_rs=$(time_init "$TOFU_RS" warm tofu); warm_tf=$(time_init "$TF" warm terraform)
printf 'cold: tofu-rs %.3fs  terraform %.3fs  ratio %.2fx\n' "$cold_rs" "$cold_tf" "$(echo "$cold_tf / $cold_rs" | bc -l)"
printf 'warm: tofu-rs %.3fs  terraform %.3fs  ratio %.2fx\n' "$warm_rs" "$warm_tf" "$(echo "$warm_tf / $warm_rs" | bc -l)"
