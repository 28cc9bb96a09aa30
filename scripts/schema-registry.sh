#!/usr/bin/env bash
# A Confluent-compatible schema registry (Apicurio Registry, in-memory storage) on 127.0.0.1 for tests.
#
#   scripts/schema-registry.sh start    download the distribution on first use, start, wait until ready
#   scripts/schema-registry.sh stop     stop the registry and wait until it is gone
#   scripts/schema-registry.sh status   exit 0 if the registry runs and answers, 1 otherwise
#   scripts/schema-registry.sh fetch    only download the distribution (CI does it while npm installs)
#
# `start` prints the URL to give the avro-confluent format ('url'): Apicurio serves Confluent's REST API
# under /apis/ccompat/v7.
#
# Environment:
#   SCHEMA_REGISTRY_PORT           HTTP port (default 8081)
#   APICURIO_VERSION               io.apicurio:apicurio-registry-app version (default 3.0.9)
#   SLUICE_CACHE                   cache root (default <repo>/.cache); files go to $SLUICE_CACHE/schema-registry
#   SLUICE_RUN_DIR                 if set, pid and log go to $SLUICE_RUN_DIR/schema-registry-$SCHEMA_REGISTRY_PORT
#   SCHEMA_REGISTRY_READY_TIMEOUT  seconds to wait for readiness (default 90)
#
# Why Apicurio 3.0.9 from its `-all.tar.gz`: Confluent's own server is not on Maven Central. Apicurio is a
# Quarkus app whose plain jar needs Quarkus' build-time augmentation to run; the `all` tarball it publishes
# is the augmented app (a `-runner.jar` plus lib/). 3.3.x needs Java 21 (this machine has 17), and its plain
# jar's dependencies (schema-util-provider) are not all on Central. Only Java 17+, Maven and curl are needed.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
port="${SCHEMA_REGISTRY_PORT:-8081}"
version="${APICURIO_VERSION:-3.0.9}"
cache="${SLUICE_CACHE:-$repo/.cache}/schema-registry"
dist="$cache/apicurio-$version"
# pid and log are per port so two registries (e.g. two worktrees sharing a cache) don't collide.
home="${SLUICE_RUN_DIR:+$SLUICE_RUN_DIR/schema-registry-$port}"
home="${home:-$cache/node-$port}"
pidfile="$home/registry.pid"
logfile="$home/registry.log"
url="http://127.0.0.1:$port/apis/ccompat/v7"
ready_timeout="${SCHEMA_REGISTRY_READY_TIMEOUT:-90}"

# shellcheck source=lib/daemon.sh
source "$repo/scripts/lib/daemon.sh"
daemon_label=schema-registry.sh
daemon_noun=registry
daemon_match=apicurio-registry-app
daemon_ports="$port"
daemon_stop_seconds=20

runner_jar() {
  echo "$dist/apicurio-registry-app-$version-runner.jar"
}

fetch_dist() {
  [[ -f "$dist/.complete" ]] && return 0
  command -v mvn >/dev/null || { daemon_log "mvn not found"; exit 1; }
  mkdir -p "$cache"
  # Two runs sharing a cache must not unpack into the same folder at once (the lock stays in the subshell).
  (
    flock 9
    [[ -f "$dist/.complete" ]] && exit 0
    daemon_log "fetching apicurio-registry-app:$version (all.tar.gz, ~110 MB) with Maven (first run only)..."
    t0=$SECONDS
    work="$(mktemp -d)"
    # dependency:copy fetches the one artifact without resolving the app's (partly unpublished) dependencies.
    mvn -B -q -Dstyle.color=never dependency:copy \
      "-Dartifact=io.apicurio:apicurio-registry-app:$version:tar.gz:all" "-DoutputDirectory=$work" >&2 || {
      rm -rf "$work"
      daemon_log "download failed"
      exit 1
    }
    rm -rf "$dist"
    mkdir -p "$dist"
    tar xzf "$work/apicurio-registry-app-$version-all.tar.gz" -C "$dist"
    rm -rf "$work"
    [[ -f "$(runner_jar)" ]] || { daemon_log "no $(basename "$(runner_jar)") in the distribution"; exit 1; }
    touch "$dist/.complete"
    daemon_log "fetched in $((SECONDS - t0)) s"
  ) 9>"$cache/.fetch.lock"
}

# Readiness: the ccompat API answers a subject listing (storage initialised, REST up).
daemon_probe() { daemon_http_probe "$url/subjects" "$1" "${2:-}"; }

daemon_address() { echo "$url"; }

daemon_fetch() {
  fetch_dist
}

daemon_prepare() {
  command -v java >/dev/null || { daemon_log "java not found"; exit 1; }
  command -v curl >/dev/null || { daemon_log "curl not found"; exit 1; }
  fetch_dist
  mkdir -p "$home"
  daemon_log "starting Apicurio Registry $version on 127.0.0.1:$port (log: $logfile)"
  # The working directory is the node's folder, so nothing the JVM writes lands in the caller's.
  cd "$home"
}

daemon_launch() {
  # Storage is Apicurio's default, an in-memory H2 database: every start begins empty.
  daemon_spawn java -Xms64m -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dquarkus.http.host=127.0.0.1 "-Dquarkus.http.port=$port" -Dquarkus.log.console.color=false \
    -jar "$(runner_jar)"
}

daemon_main "$@"
