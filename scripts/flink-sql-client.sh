#!/usr/bin/env bash
# Run Apache Flink's own SQL client (embedded mode: client and SQL gateway in one JVM, local execution) on a script or
# on stdin, to see exactly what Flink's client prints where the `sluice` client should print the same (issue #13: the
# one-cell `result` tables of SHOW CREATE TABLE / VIEW and EXPLAIN, the [INFO] / [ERROR] wording, ...).
#
#   scripts/flink-sql-client.sh script.sql        # as `sql-client.sh -f script.sql`
#   echo 'EXPLAIN SELECT 1;' | scripts/flink-sql-client.sh   # as the interactive client fed by a pipe
#
# The first run fetches flink-sql-client and flink-sql-gateway (and the planner, runtime, connectors) with Maven into
# $SLUICE_CACHE/flink-sql-client/libs-<version> (like scripts/flink-reference.sh); later runs reuse them.
#
# Why a stub class: the client's option parser always asks flink-python (by reflection, PythonDependencyUtils) for
# Python options and fails when it is absent; the distribution ships it, Maven's flink-sql-client does not depend on
# it, and it drags in Beam. The stub answers "no Python options", which is what Flink does when none are given.
#
# Ports: the embedded gateway binds a free port of its own on localhost (NetUtils.getAvailablePort) and local jobs run
# on a MiniCluster whose REST endpoint Flink binds to port 0; nothing here binds a default port. The flink-conf is a
# temporary folder, the command history goes there too (not to ~/.flink-sql-history).
#
# Environment:
#   FLINK_VERSION  org.apache.flink version (default 2.3.0)
#   SLUICE_CACHE   cache root (default <repo>/.cache)
#   JAVA / JAVAC   java and javac binaries (default: on PATH)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="${FLINK_VERSION:-2.3.0}"
cache="${SLUICE_CACHE:-$repo/.cache}/flink-sql-client"
libs="$cache/libs-$version"
stub="$cache/python-stub-$version"
java_bin="${JAVA:-java}"
javac_bin="${JAVAC:-javac}"

log() { echo "flink-sql-client.sh: $*" >&2; }

if [[ ! -f "$libs/.complete" ]]; then
  log "fetching Apache Flink $version's SQL client with Maven (first run only)..."
  "$repo/scripts/lib/fetch-maven-jars.sh" "$libs" \
    "org.apache.flink:flink-sql-client:$version" \
    "org.apache.flink:flink-sql-gateway:$version" \
    "org.apache.flink:flink-table-api-java-bridge:$version" \
    "org.apache.flink:flink-table-planner-loader:$version" \
    "org.apache.flink:flink-table-runtime:$version" \
    "org.apache.flink:flink-clients:$version" \
    "org.apache.flink:flink-connector-files:$version" \
    "org.apache.flink:flink-json:$version" \
    "org.apache.flink:flink-csv:$version" \
    "org.slf4j:slf4j-nop:1.7.36"
fi

if [[ ! -f "$stub/.stamp" ]]; then
  rm -rf "$stub"
  mkdir -p "$stub/src/org/apache/flink/python/util"
  cat >"$stub/src/org/apache/flink/python/util/PythonDependencyUtils.java" <<'JAVA'
package org.apache.flink.python.util;

import org.apache.commons.cli.CommandLine;
import org.apache.flink.configuration.Configuration;

/** Stands in for flink-python's class: no Python options (see scripts/flink-sql-client.sh). */
public final class PythonDependencyUtils {
  private PythonDependencyUtils() {}

  public static Configuration parsePythonDependencyConfiguration(CommandLine line) {
    return new Configuration();
  }
}
JAVA
  "$javac_bin" -nowarn --release 11 -cp "$libs/*" -d "$stub/classes" "$stub/src/org/apache/flink/python/util/PythonDependencyUtils.java"
  touch "$stub/.stamp"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/conf"
cat >"$work/conf/config.yaml" <<'YAML'
execution:
  target: local
parallelism:
  default: 1
YAML

args=(embedded -hist "$work/history")
if [[ $# -gt 0 ]]; then
  args+=(-f "$1")
fi

opens=(
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
)
# No exec: the trap removes the temporary conf folder when the client ends.
FLINK_CONF_DIR="$work/conf" "$java_bin" "${opens[@]}" -Xmx1g -Duser.timezone=UTC -Dfile.encoding=UTF-8 \
  -Dstdout.encoding=UTF-8 -cp "$stub/classes:$libs/*" org.apache.flink.table.client.SqlClient "${args[@]}"
