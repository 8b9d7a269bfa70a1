#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the repository's test fixtures and,
# where present, ../shared/corpus and ../shared/realworld. The corpus is
# not committed (third-party files; libFuzzer grows it). Targets whose
# input is a generated structure (eval, vars, unpack) start empty.
#
# The byte-input targets read a first byte that picks the kind of file;
# seeds get the byte that matches their name.
set -euo pipefail
cd "$(dirname "$0")"
root=..
sources=("$root/tests" "$root/examples")
for extra in "$root/../shared/corpus" "$root/../shared/realworld" /work/shared/corpus /work/shared/realworld; do
  [ -d "$extra" ] && sources+=("$extra")
done

# seed TARGET KIND-BYTE FILE: one corpus entry named by its content hash.
seed() {
  local dir="corpus/$1" tmp
  mkdir -p "$dir"
  tmp=$(mktemp)
  { printf "\\x$2"; cat "$3"; } > "$tmp"
  mv "$tmp" "$dir/$(sha1sum < "$tmp" | cut -c1-40)"
}

# Files past libFuzzer's useful size only slow the corpus down.
find "${sources[@]}" -type f -size -64k 2>/dev/null | while IFS= read -r f; do
  case "$f" in
    *.tftest.json)        seed syntax 04 "$f" ;;
    *.tftest.hcl)         seed syntax 03 "$f" ;;
    *.tofu|*.tofu.json)   seed syntax 02 "$f" ;;
    *.tf.json)            seed syntax 01 "$f" ;;
    *.tf)                 seed syntax 00 "$f" ;;
    *.tfvars|*.tfvars.json) seed syntax 00 "$f" ;;
    */.terraform.lock.hcl) seed workdir_files 00 "$f" ;;
    */modules.json)       seed workdir_files 01 "$f" ;;
    *.tfrc|*/.terraformrc|*/terraform.rc) seed workdir_files 02 "$f" ;;
  esac
done

# Module sources and version constraints, one per entry, from the
# configurations' `source = "..."` and `version = "..."` lines.
mkdir -p corpus/module_source
find "${sources[@]}" -type f -name '*.tf' -size -64k 2>/dev/null -print0 |
  xargs -0 grep -hoE '^\s*(source|version|required_version)\s*=\s*"[^"]*"' 2>/dev/null |
  sort -u | while IFS= read -r line; do
    value=${line#*\"}
    value=${value%\"}
    case "$line" in *source*) kind='\x00' ;; *) kind='\x04' ;; esac
    printf "$kind%s" "$value" > corpus/module_source/tmp
    mv corpus/module_source/tmp "corpus/module_source/$(sha1sum < corpus/module_source/tmp | cut -c1-40)"
  done

# TF_REATTACH_PROVIDERS values: what the SDKs' debug mode prints, a tcp
# address, and JSON documents of the fixtures (any JSON is a start).
mkdir -p corpus/reattach
printf '%s' '{"registry.terraform.io/hashicorp/aws":{"Protocol":"grpc","ProtocolVersion":5,"Pid":47254,"Test":true,"Addr":{"Network":"unix","String":"/tmp/plugin2908212597"}}}' > corpus/reattach/sdk
printf '%s' '{"hashicorp/null":{"protocol":"grpc","PROTOCOLVERSION":6,"addr":{"network":"tcp","string":"127.0.0.1:4000"}}}' > corpus/reattach/tcp
find "${sources[@]}" -type f -name '*.json' -size -16k 2>/dev/null | head -n 200 | while IFS= read -r f; do
  cp "$f" "corpus/reattach/$(sha1sum < "$f" | cut -c1-40)"
done

for d in corpus/*/; do
  echo "$(find "$d" -type f | wc -l) seeds in $d"
done
