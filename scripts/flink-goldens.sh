#!/usr/bin/env bash
# Regenerate the goldens that come from a real Apache Flink run (needs Java 17+ and Maven; tests never do):
#   test/formats/flink-goldens/        from test/java/flink-reference/goldens/formats.sql
#   test/planner/flink-explain-goldens/ from test/java/flink-reference/goldens/explain.sql
#
#   scripts/flink-goldens.sh [formats|explain]...   (default: both)
#
# Each script runs through scripts/flink-reference.sh into a fresh temporary folder. A filesystem sink's folder
# fs/<name>/ becomes the golden file <name> (its part files concatenated); `-- @golden <name>` outputs are copied as is.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sql_dir="$repo/test/java/flink-reference/goldens"

status=0

run() {
  local script="$1" dest="$2"
  local tmp
  tmp="$(mktemp -d)"
  echo "flink-goldens.sh: running $script..." >&2
  # A failing statement writes no golden (the tests then miss that file); the others are still copied.
  if ! "$repo/scripts/flink-reference.sh" --out-dir "$tmp" "$sql_dir/$script" >"$tmp/stdout.log"; then
    grep -a -n '^#### END .* ERROR' "$tmp/stdout.log" >&2 || true
    echo "flink-goldens.sh: WARNING: statements of $script failed (above); output in $tmp/stdout.log" >&2
    status=1
  fi
  mkdir -p "$dest"
  if [[ -d "$tmp/fs" ]]; then
    for dir in "$tmp"/fs/*/; do
      local name
      name="$(basename "$dir")"
      # Part files are named by random UUIDs; with parallelism 1 each sink wrote one, but sort for stability.
      find "$dir" -maxdepth 1 -type f -name 'part-*' -print0 | sort -z | xargs -0 cat >"$dest/$name"
    done
  fi
  find "$tmp" -maxdepth 1 -type f \( -name '*.txt' -o -name '*.tsv' \) -exec cp {} "$dest/" \;
  [[ $status -eq 0 ]] && rm -rf "$tmp"
  echo "flink-goldens.sh: wrote $dest" >&2
}

targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(formats explain)
for target in "${targets[@]}"; do
  case "$target" in
    formats) run formats.sql "$repo/test/formats/flink-goldens" ;;
    explain) run explain.sql "$repo/test/planner/flink-explain-goldens" ;;
    *) echo "flink-goldens.sh: unknown target '$target' (formats|explain)" >&2; exit 2 ;;
  esac
done
exit "$status"
