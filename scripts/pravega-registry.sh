#!/usr/bin/env bash
# The Pravega Schema Registry (io.pravega:schemaregistry-server, from Maven Central) on 127.0.0.1 for tests,
# storing its groups and schemas in a running Pravega (scripts/pravega.sh start first).
#
#   scripts/pravega-registry.sh start    fetch the jars on first use, start, wait until the REST API answers
#   scripts/pravega-registry.sh stop     stop the registry and wait until it is gone
#   scripts/pravega-registry.sh status   exit 0 if the registry runs and answers, 1 otherwise
#   scripts/pravega-registry.sh fetch    only download: the server's jars, and the Java serializers the interop test uses
#
# `start` prints the registry's base URL (the REST API lives under <url>/v1).
#
# Environment:
#   PRAVEGA_REGISTRY_PORT           HTTP port (default 9097: the registry's own default, 9092, is Kafka's)
#   PRAVEGA_CONTROLLER_URI          the Pravega controller it stores into
#                                   (default tcp://127.0.0.1:${PRAVEGA_CONTROLLER_PORT:-9090})
#   PRAVEGA_REGISTRY_VERSION        schemaregistry-server version (default 0.5.0)
#   PRAVEGA_REGISTRY_STORE          Pravega (default) or InMemory (no Pravega needed; state dies with the process)
#   SLUICE_CACHE                    cache root (default <repo>/.cache); files go to $SLUICE_CACHE/pravega-registry
#   PRAVEGA_REGISTRY_READY_TIMEOUT  seconds to wait for readiness (default 90)
#
# Why these settings: the server jar has no runnable manifest; its main class is
# io.pravega.schemaregistry.service.Main, configured by -DschemaRegistry.* system properties (the keys of the
# schema-registry.config.properties inside the jar). It binds its REST listener to the "published host", so that
# is set to 127.0.0.1 to keep it off other interfaces. With the Pravega store it creates the scope
# _schemaregistry and key-value tables in Pravega before the REST listener opens, so a REST answer means the
# store is usable. The Maven classpath brings two JAX-RS API jars and Jersey logs "provider ... will be
# ignored" for the resources at start; both are harmless (the resources are served; the probe below proves it).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
port="${PRAVEGA_REGISTRY_PORT:-9097}"
version="${PRAVEGA_REGISTRY_VERSION:-0.5.0}"
controller="${PRAVEGA_CONTROLLER_URI:-tcp://127.0.0.1:${PRAVEGA_CONTROLLER_PORT:-9090}}"
store="${PRAVEGA_REGISTRY_STORE:-Pravega}"
cache="${SLUICE_CACHE:-$repo/.cache}/pravega-registry"
lib="$cache/lib-$version"
# pid and log are per port so two registries (e.g. two worktrees sharing a cache) don't collide.
# SLUICE_RUN_DIR (the test setup's run folder) keeps pid, log and data with the run's other servers.
home="${SLUICE_RUN_DIR:+$SLUICE_RUN_DIR/pravega-registry-$port}"
home="${home:-$cache/node-$port}"
pidfile="$home/registry.pid"
logfile="$home/registry.log"
url="http://127.0.0.1:$port"
ready_timeout="${PRAVEGA_REGISTRY_READY_TIMEOUT:-90}"

# shellcheck source=lib/daemon.sh
source "$repo/scripts/lib/daemon.sh"
daemon_label=pravega-registry.sh
daemon_noun=registry
daemon_match=io.pravega.schemaregistry.service.Main
daemon_stop_seconds=20

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

fetch_jars() {
  if [[ -f "$lib/.complete" ]]; then
    return 0
  fi
  command -v mvn >/dev/null || { daemon_log "mvn not found; install Maven (apt-get install maven)"; exit 1; }
  daemon_log "fetching io.pravega:schemaregistry-server:$version and its runtime dependencies (~60 MB, first run only)..."
  local t0=$SECONDS
  mkdir -p "$cache"
  # An absolute destination: the helper runs Maven on a pom in a temporary folder, which would take a relative
  # path as relative to that folder.
  bash "$repo/scripts/lib/fetch-maven-jars.sh" "$(cd "$cache" && pwd)/lib-$version" \
    "io.pravega:schemaregistry-server:$version" || { daemon_log "download failed"; exit 1; }
  [[ -f "$lib/schemaregistry-server-$version.jar" ]] || {
    rm -f "$lib/.complete"
    daemon_log "no schemaregistry-server-$version.jar after the download"
    exit 1
  }
  daemon_log "fetched in $((SECONDS - t0)) s"
}

# Readiness: /ping answers 200 once the REST server is up, which the server opens only after its store is ready.
daemon_probe() { daemon_http_probe "$url/ping" "$1" "${2:-}"; }

daemon_address() { echo "$url"; }

daemon_prepare() {
  command -v java >/dev/null || { daemon_log "java not found"; exit 1; }
  command -v curl >/dev/null || { daemon_log "curl not found"; exit 1; }
  if port_open "$port"; then
    daemon_log "port $port is taken by another process"
    exit 1
  fi
  if [[ "$store" == Pravega ]]; then
    # Fail fast with the reason instead of a Java stack trace after the client's retries give up.
    local hostport="${controller#*://}"
    if ! port_open "${hostport##*:}"; then
      daemon_log "no Pravega controller at $controller; start it first (scripts/pravega.sh start) or set PRAVEGA_CONTROLLER_URI"
      exit 1
    fi
  fi
  fetch_jars
  mkdir -p "$home"
  daemon_log "starting Pravega Schema Registry $version on 127.0.0.1:$port, store $store ($controller) (log: $logfile)"
  # The working directory is the node's folder: the jar's logback.xml writes schema-registry.log into it.
  cd "$home"
}

# The registry's Java serializers (Avro and JSON) and their client, for the interop test only
# (test/integration/pravega-catalog/java-interop.test.ts): a classpath of their own, never the server's.
fetch_serializers() {
  local dest
  dest="$(mkdir -p "$cache" && cd "$cache" && pwd)/serializers-$version"
  [[ -f "$dest/.complete" ]] && return 0
  daemon_log "fetching io.pravega:schemaregistry-serializers-avro and -json:$version (~20 MB, first run only)..."
  bash "$repo/scripts/lib/fetch-maven-jars.sh" "$dest" \
    "io.pravega:schemaregistry-serializers-avro:$version" "io.pravega:schemaregistry-serializers-json:$version" ||
    { daemon_log "serializers download failed"; exit 1; }
}

daemon_fetch() {
  fetch_jars
  fetch_serializers
}

daemon_launch() {
  daemon_spawn java -Xms64m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    "-DschemaRegistry.store.type.name=$store" \
    "-DschemaRegistry.store.pravega.controller.connect.uri=$controller" \
    "-DschemaRegistry.service.rest.listener.port=$port" \
    -DschemaRegistry.service.rest.published.host.nameOrIp=127.0.0.1 \
    -cp "$lib/*" io.pravega.schemaregistry.service.Main
}

daemon_main "$@"
