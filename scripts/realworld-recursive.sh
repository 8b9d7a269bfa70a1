#!/usr/bin/env bash
# Issue 18's acceptance check for -recursive: over every tree in
# ../shared/realworld, `init -recursive` + `validate -recursive` must give
# each root the verdict `init` + `validate` run in that directory alone
# give (scripts/realworld_recursive.py). Providers come from the same
# filesystem mirror of stand-ins scripts/realworld.sh uses.
#
# Skips, saying so, and exits 0 when ../shared's realworld trees or tools,
# python3 or terraform are absent.
#
#   scripts/realworld-recursive.sh            release binary
#   scripts/realworld-recursive.sh --debug    the dev-profile binary
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
skip() {
  echo "realworld-recursive: skipped: $1"
  exit 0
}
[ -d "$SHARED/tools/realworld" ] || skip "$SHARED/tools/realworld is absent"
[ -d "$SHARED/realworld" ] || skip "$SHARED/realworld is absent"
command -v python3 >/dev/null || skip "python3 is not on PATH"
command -v terraform >/dev/null || skip "terraform is not on PATH (mirror.py needs it)"

profile=release
[ "${1:-}" = "--debug" ] && profile=debug
if [ "$profile" = release ]; then
  cargo build --release -p tofu-rs --bin tofu-rs
else
  cargo build -p tofu-rs --bin tofu-rs
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$SHARED/tools/realworld/mirror.py" "$SHARED/realworld" "$work/mirror" >/dev/null
TF_CLI_CONFIG_FILE="$work/mirror/cli.tfrc" \
  python3 "$ROOT/scripts/realworld_recursive.py" "$ROOT/target/$profile/tofu-rs" \
  "$SHARED/realworld" "$work/trees"
