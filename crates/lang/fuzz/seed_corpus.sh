#!/usr/bin/env bash
# Seeds corpus/parse_eval with one file per expression of a cases file
# (default: the shared expression samples). Usage: seed_corpus.sh [cases.txt]
set -euo pipefail
cd "$(dirname "$0")"
cases="${1:-/work/shared/samples/expr/cases.txt}"
mkdir -p corpus/parse_eval
i=0
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  i=$((i + 1))
  printf '%s' "$line" > "corpus/parse_eval/seed-$(printf '%04d' "$i")"
done < "$cases"
echo "seeded $i inputs"
