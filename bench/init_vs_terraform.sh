#!/usr/bin/env bash
# Times `tofu-rs init` against `terraform init` on two generated trees
# (terraform_data only: no providers, no network):
#   (a) local: 200 local module calls nested 3 deep (8 + 32 + 160);
#   (b) git:   40 git module calls over 20 local repositories, each called
#       twice with a different tag and subdirectory
#       (git::file://.../repoN//modules/a?ref=v1.0.0 and //modules/b?ref=v1.1.0).
# Every run gets a fresh copy of the tree (a cold init: nothing installed
# yet), the two tools on separate identical copies, RUNS times each; the
# best time of each is kept. Prints both times and the ratio per case.
# Each tool's modules.json is checked to have all records.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release -q -p tofu-rs --bin tofu-rs
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/tofu-rs"
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac

# (a) root -> 8 x l1 -> 4 x l2 -> 5 x l3 (leaf): 8 + 32 + 160 = 200 calls.
gen_local() {
  local d=$1
  mkdir -p "$d/modules/l1" "$d/modules/l2" "$d/modules/l3"
  : >"$d/main.tf"
  for i in $(seq 8); do
    printf 'module "l1_%s" {\n  source = "./modules/l1"\n  name   = "l1-%s"\n}\n\n' "$i" "$i" >>"$d/main.tf"
  done
  printf 'variable "name" {\n  type = string\n}\n\n' >"$d/modules/l1/main.tf"
  for i in $(seq 4); do
    printf 'module "l2_%s" {\n  source = "../l2"\n  name   = "${var.name}-%s"\n}\n\n' "$i" "$i" >>"$d/modules/l1/main.tf"
  done
  printf 'variable "name" {\n  type = string\n}\n\n' >"$d/modules/l2/main.tf"
  for i in $(seq 5); do
    printf 'module "l3_%s" {\n  source = "../l3"\n  name   = "${var.name}-%s"\n}\n\n' "$i" "$i" >>"$d/modules/l2/main.tf"
  done
  printf 'variable "name" {\n  type = string\n}\n\nresource "terraform_data" "leaf" {\n  input = var.name\n}\n\noutput "name" {\n  value = terraform_data.leaf.input\n}\n' >"$d/modules/l3/main.tf"
}

# (b) 20 repositories, tags v1.0.0 and v1.1.0, two subdirectories.
gen_repos() {
  local r=$1
  for n in $(seq 20); do
    local repo="$r/repo$n"
    mkdir -p "$repo/modules/a" "$repo/modules/b"
    git -C "$repo" init -q -b main
    for v in 1.0.0 1.1.0; do
      for sub in a b; do
        printf 'variable "x" {\n  default = "%s"\n}\n\nresource "terraform_data" "d" {\n  input = "%s-%s-${var.x}"\n}\n' "$v" "$n" "$sub" >"$repo/modules/$sub/main.tf"
      done
      printf '# repo %s version %s\n' "$n" "$v" >"$repo/README.md"
      git -C "$repo" add -A
      git -C "$repo" -c user.name=bench -c user.email=bench@example.com commit -q -m "v$v"
      git -C "$repo" tag "v$v"
    done
  done
}

gen_git() {
  local d=$1 r=$2
  mkdir -p "$d"
  : >"$d/main.tf"
  for n in $(seq 20); do
    printf 'module "r%s_a" {\n  source = "git::file://%s/repo%s//modules/a?ref=v1.0.0"\n}\n\n' "$n" "$r" "$n" >>"$d/main.tf"
    printf 'module "r%s_b" {\n  source = "git::file://%s/repo%s//modules/b?ref=v1.1.0"\n}\n\n' "$n" "$r" "$n" >>"$d/main.tf"
  done
}

records() { # number of module records (root excluded) in a manifest
  grep -o '"Key":"[^"]' "$1/.terraform/modules/modules.json" | wc -l
}

best() { # best wall time in ms of a cold init by "$@", on fresh copies of $src
  local src=$1 want=$2
  shift 2
  local best=999999999
  for i in $(seq "$RUNS"); do
    local d="$work/run-$RANDOM-$i"
    cp -r "$src" "$d"
    local s e
    s=$(date +%s%N)
    if ! (cd "$d" && "$@" init -backend=false -input=false -no-color >"$d.out" 2>&1); then
      echo "$1 init failed:" >&2
      cat "$d.out" >&2
      exit 1
    fi
    e=$(date +%s%N)
    local got
    got=$(records "$d")
    if [ "$got" != "$want" ]; then
      echo "$1 init recorded $got modules, expected $want" >&2
      exit 1
    fi
    rm -rf "$d" "$d.out"
    local ms=$(((e - s) / 1000000))
    ((ms < best)) && best=$ms
  done
  echo "$best"
}

compare() { # name src want
  local name=$1 src=$2 want=$3
  local t_rs t_tf
  t_rs=$(best "$src" "$want" "$bin")
  echo "$name: tofu-rs init   ${t_rs} ms"
  if command -v terraform >/dev/null; then
    t_tf=$(best "$src" "$want" terraform)
    echo "$name: terraform init ${t_tf} ms"
    awk -v n="$name" -v a="$t_tf" -v b="$t_rs" 'BEGIN { if (b < 1) b = 1; printf "%s: tofu-rs is %.1fx faster\n", n, a / b }'
  else
    echo "$name: terraform not installed, comparison skipped"
  fi
}

gen_local "$work/local"
gen_repos "$work/repos"
gen_git "$work/git" "$work/repos"
compare "(a) 200 local calls, 3 deep" "$work/local" 200
compare "(b) 40 git calls, 20 repos" "$work/git" 40
