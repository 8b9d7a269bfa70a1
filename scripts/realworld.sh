#!/usr/bin/env bash
# The published-modules check (issue 14): `../shared/tools/realworld` run on
# the release binary over the module repositories in `../shared/realworld`,
# with a filesystem mirror of stand-in providers built by its `mirror.py`
# (which reads each root's requirements with `terraform providers`). Every
# check must pass: run.sh exits 1 on any failure, and so does this script.
#
# Then issue 18's check of -recursive (scripts/realworld_recursive.py):
# over every tree, `init -recursive` + `validate -recursive` must give each
# root the verdict that init + validate run in that directory alone give.
#
# The mirror's stand-in packages exit at once and serve no schema, so a
# schema-checked validate fails on every offline root, as `tofu validate`
# does with them ("failed to instantiate provider ... Unrecognized remote
# plugin message"). No real provider of the versions these modules need
# (aws >= 6.28, google 7) is on the machine, so those two checks run with
# TOFU_RS_PROVIDER_SCHEMAS=off: everything but the provider schemas is
# checked.
#
# Then the same run.sh with provider schemas on: scripts/realworld_schemas.py
# rewrites a second mirror's packages to run the project's test provider
# serving a permissive schema derived from the trees (every type, argument
# and nested block they write, every attribute they read), so `validate`
# starts real plugins, caches their schemas and answers, decodes every
# block against a schema and calls Validate* on configurations nobody here
# wrote. The schema checks' exact diagnostics are tested against terraform
# elsewhere (crates/command/tests/schema_differential) and by the last run.
#
# Last, scripts/realworld_aws.py: where the real AWS provider is installed
# (AWS_PACKAGE_DIR, else the newest under /opt/tf-plugins), every root
# needing only hashicorp/aws is validated by terraform and by tofu-rs
# (cold and from the cache) against that real schema, with the trees' aws
# constraints pinned to the installed version; every diagnostic must be
# the same, and so must `providers schema -json` (13 MB) byte for byte.
# Skipped, saying so, where no AWS provider is installed.
#
# Skips, saying so, and exits 0 when ../shared's realworld trees or tools,
# python3 or terraform are absent (a fresh clone on its own has none).
#
#   scripts/realworld.sh            SHARED=/path/to/shared overrides ../shared
#   scripts/realworld.sh --debug    the dev-profile binary instead: CI has
#                                   just built it for the tests, and a cold
#                                   fat-LTO release build would cost it
#                                   several minutes for the same verdicts
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
skip() {
  echo "realworld: skipped: $1"
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
  cargo build --release -p terraform-provider-testing
else
  # The very build `cargo test --workspace` makes (a no-op after it, as
  # in CI): `cargo build -p ...` resolves other features for the shared
  # dependencies and would compile them again, 3.7 minutes of a CI run.
  cargo test --workspace --no-run -q
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$SHARED/tools/realworld/mirror.py" "$SHARED/realworld" "$work/mirror"
export TOFU_RS_PROVIDER_SCHEMAS=off
TF_CLI_CONFIG_FILE="$work/mirror/cli.tfrc" \
  "$SHARED/tools/realworld/run.sh" "$ROOT/target/$profile/tofu-rs" "$SHARED/realworld" \
  | grep -v '^PARITY'
TF_CLI_CONFIG_FILE="$work/mirror/cli.tfrc" \
  python3 "$ROOT/scripts/realworld_recursive.py" "$ROOT/target/$profile/tofu-rs" \
  "$SHARED/realworld" "$work/trees"

# Provider schemas on, served by the test provider (see the top).
# A copy of the first mirror (mirror.py takes most of a minute), its
# configuration pointed at the copy.
cp -r "$work/mirror" "$work/schema-mirror"
printf 'provider_installation {\n  filesystem_mirror {\n    path = "%s"\n  }\n}\n' \
  "$work/schema-mirror" >"$work/schema-mirror/cli.tfrc"
python3 "$ROOT/scripts/realworld_schemas.py" "$SHARED/realworld" "$work/schema-mirror" \
  "$ROOT/target/$profile/terraform-provider-testing"
echo "realworld with provider schemas:"
TOFU_RS_PROVIDER_SCHEMAS=on TOFU_RS_SCHEMA_CACHE_DIR="$work/schema-cache" \
  TF_CLI_CONFIG_FILE="$work/schema-mirror/cli.tfrc" \
  "$SHARED/tools/realworld/run.sh" "$ROOT/target/$profile/tofu-rs" "$SHARED/realworld" \
  | grep -v '^PARITY'

# The real AWS provider's schema, beside terraform (see the top).
aws_package=${AWS_PACKAGE_DIR:-$(ls -d /opt/tf-plugins/registry.terraform.io/hashicorp/aws/*/linux_amd64 2>/dev/null | sort -V | tail -1)}
if [ -n "$aws_package" ] && [ -d "$aws_package" ]; then
  python3 "$ROOT/scripts/realworld_aws.py" "$SHARED/realworld" "$ROOT/target/$profile/tofu-rs" \
    "$aws_package"
else
  echo "realworld-aws: skipped: no AWS provider package (set AWS_PACKAGE_DIR)"
fi
