#!/usr/bin/env bash
# Runs every fuzz target in fuzz/ for SECONDS each (default 60): CI runs a
# short budget, a campaign a long one. Exits non-zero when a target
# crashes, times out or runs out of memory, printing the input that did
# it (under fuzz/artifacts/<target>/). Skips, saying so, where the nightly
# toolchain is absent. Installs cargo-fuzz under target/tools if missing.
#
# Environment: FUZZ_TARGETS="eval syntax" runs only those; FUZZ_BUILD
# is the cargo-fuzz build flag (--dev, -O; see below).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"

if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz.sh: skipped: no nightly toolchain (cargo-fuzz needs one)"
  exit 0
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  export PATH="$PWD/target/tools/bin:$PATH"
  if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install --root target/tools cargo-fuzz --locked
  fi
fi

# The targets' own build (sanitizer flags differ from the workspace's):
# one invocation for all of them, so shared crates build once. A short
# run (CI) is mostly build time, so it builds unoptimized (--dev: the
# dependencies, pgp and rustls among them, compile several times faster);
# a campaign builds optimized, with overflow checks (cargo-fuzz's
# default), and runs far more inputs a second. FUZZ_BUILD overrides.
if [ -n "${FUZZ_BUILD:-}" ]; then
  mode=("$FUZZ_BUILD")
elif [ "$seconds" -lt 300 ]; then
  mode=(--dev)
else
  mode=()
fi
targets="${FUZZ_TARGETS:-$(cargo fuzz list --fuzz-dir fuzz)}"
cargo +nightly fuzz build --fuzz-dir fuzz "${mode[@]}"

# The seed corpus is regenerated when absent (it is not committed).
[ -d fuzz/corpus ] || fuzz/seed_corpus.sh >/dev/null

status=0
for t in $targets; do
  mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
  dict=()
  [ -f "fuzz/dict/$t.dict" ] && dict=("-dict=fuzz/dict/$t.dict")
  echo "fuzz.sh: $t for ${seconds}s"
  log="fuzz/artifacts/$t/last-run.log"
  if ! cargo +nightly fuzz run --fuzz-dir fuzz "${mode[@]}" "$t" "fuzz/corpus/$t" -- \
      -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 \
      -print_final_stats=1 "${dict[@]}" >"$log" 2>&1; then
    echo "fuzz.sh: $t FAILED; the last lines of $log:"
    tail -n 40 "$log"
    grep -h 'Test unit written to' "$log" | sed 's/^/fuzz.sh: artifact: /' || true
    status=1
  else
    grep -h 'stat::number_of_executed_units' "$log" | sed "s/^/fuzz.sh: $t: /" || true
  fi
done
exit "$status"
