#!/usr/bin/env bash
# Run a SQL script with a real, local Apache Flink (the reference Sluice re-implements) and print what it answers.
#
#   scripts/flink-reference.sh [--out-dir DIR] [--shared-cluster] <script.sql> [more.sql...]
#
# --shared-cluster runs every job on one MiniCluster started once (much faster for many small queries); without it
# each job starts a MiniCluster of its own, as a local TableEnvironment does.
#
# The first run fetches Flink's jars with Maven into $SLUICE_CACHE/flink-reference/libs-<version> (like scripts/kafka.sh)
# and compiles test/java/flink-reference with javac; later runs reuse both (recompiled when the Java source changes).
# Output format: see test/java/flink-reference/src/main/java/dev/sluice/flinkref/FlinkReference.java.
#
# Environment:
#   FLINK_VERSION   org.apache.flink version (default 2.3.0, the newest Flink 2.x served from Maven Central; 1.20.3 still
#                   works, e.g. to compare a golden with the 1.x line)
#   SLUICE_CACHE    cache root (default <repo>/.cache)
#   FLINK_REFERENCE_VERBOSE  set: one stderr line per -- @tsv-batch job (size, outcome, time)
#   JAVA            java binary (default: java on PATH; Flink 1.20 needs the --add-opens flags below on Java 17)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="${FLINK_VERSION:-2.3.0}"
cache="${SLUICE_CACHE:-$repo/.cache}/flink-reference"
libs="$cache/libs-$version"
classes="$cache/classes-$version"
src="$repo/test/java/flink-reference/src/main/java"
resources="$repo/test/java/flink-reference/src/main/resources"
java_bin="${JAVA:-java}"
javac_bin="${JAVAC:-javac}"

log() { echo "flink-reference.sh: $*" >&2; }

if [[ $# -eq 0 ]]; then
  echo "usage: scripts/flink-reference.sh <script.sql>..." >&2
  exit 2
fi

if [[ ! -f "$libs/.complete" ]]; then
  log "fetching Apache Flink $version jars with Maven (first run only)..."
  t0=$SECONDS
  # Same artifact list as test/java/flink-reference/pom.xml; keep the two in step.
  "$repo/scripts/lib/fetch-maven-jars.sh" "$libs" \
    "org.apache.flink:flink-table-api-java-bridge:$version" \
    "org.apache.flink:flink-table-planner-loader:$version" \
    "org.apache.flink:flink-table-runtime:$version" \
    "org.apache.flink:flink-clients:$version" \
    "org.apache.flink:flink-connector-files:$version" \
    "org.apache.flink:flink-json:$version" \
    "org.apache.flink:flink-csv:$version" \
    "org.slf4j:slf4j-nop:1.7.36"
  log "jars fetched in $((SECONDS - t0)) s"
fi

# Recompile when any source is newer than the stamp (or there is no stamp yet).
stamp="$classes/.stamp"
if [[ ! -f "$stamp" ]] || [[ -n "$(find "$src" "$resources" -type f -newer "$stamp" -print -quit)" ]]; then
  log "compiling the reference runner..."
  rm -rf "$classes"
  mkdir -p "$classes"
  "$javac_bin" -nowarn --release 11 -encoding UTF-8 -cp "$libs/*" -d "$classes" $(find "$src" -name '*.java')
  # META-INF/services: Flink finds the runner's collecting sink (CollectSink, for -- @tsv-batch) through it.
  cp -R "$resources/." "$classes/"
  touch "$stamp"
fi

# Flink reflects into JDK internals (Kryo, closure cleaner); Java 17 needs these opens (1.20 for sure, 2.x for Kryo).
opens=(
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.math=ALL-UNNAMED
  --add-opens=java.base/java.time=ALL-UNNAMED
  --add-opens=java.base/java.text=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
)
# UTC so TIMESTAMP_LTZ prints and CURRENT_* behave the same on every machine; UTF-8 for unicode rows.
# FLINK_REFERENCE_JAVA_OPTS: extra JVM flags (GC, JIT) for experiments.
# shellcheck disable=SC2086
exec "$java_bin" "${opens[@]}" -Xmx1g ${FLINK_REFERENCE_JAVA_OPTS:-} -Duser.timezone=UTC -Dfile.encoding=UTF-8 -Dstdout.encoding=UTF-8 \
  -cp "$classes:$libs/*" dev.sluice.flinkref.FlinkReference "$@"
