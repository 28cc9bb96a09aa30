#!/usr/bin/env bash
# A Confluent-compatible schema registry (Apicurio Registry, in-memory storage) on 127.0.0.1 for tests.
#
#   scripts/schema-registry.sh start    download the distribution on first use, start, wait until ready
#   scripts/schema-registry.sh stop     stop the registry and wait until it is gone
#   scripts/schema-registry.sh status   exit 0 if the registry runs and answers, 1 otherwise
#
# `start` prints the URL to give the avro-confluent format ('url'): Apicurio serves Confluent's REST API
# under /apis/ccompat/v7.
#
# Environment:
#   SCHEMA_REGISTRY_PORT           HTTP port (default 8081)
#   APICURIO_VERSION               io.apicurio:apicurio-registry-app version (default 3.0.9)
#   SLUICE_CACHE                   cache root (default <repo>/.cache); files go to $SLUICE_CACHE/schema-registry
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
home="$cache/node-$port"
pidfile="$home/registry.pid"
logfile="$home/registry.log"
url="http://127.0.0.1:$port/apis/ccompat/v7"
ready_timeout="${SCHEMA_REGISTRY_READY_TIMEOUT:-90}"

log() { echo "schema-registry.sh: $*" >&2; }

running_pid() {
  [[ -f "$pidfile" ]] || return 1
  local pid
  pid="$(cat "$pidfile")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  # Guard against pid reuse: the process must be our JVM.
  grep -q "apicurio-registry-app" "/proc/$pid/cmdline" 2>/dev/null || return 1
  echo "$pid"
}

runner_jar() {
  echo "$dist/apicurio-registry-app-$version-runner.jar"
}

fetch_dist() {
  if [[ -f "$dist/.complete" ]]; then
    return 0
  fi
  command -v mvn >/dev/null || { log "mvn not found"; exit 1; }
  log "fetching apicurio-registry-app:$version (all.tar.gz, ~110 MB) with Maven (first run only)..."
  local t0=$SECONDS work
  work="$(mktemp -d)"
  # dependency:copy fetches the one artifact without resolving the app's (partly unpublished) dependencies.
  mvn -B -q -Dstyle.color=never dependency:copy \
    "-Dartifact=io.apicurio:apicurio-registry-app:$version:tar.gz:all" "-DoutputDirectory=$work" >&2 || {
    rm -rf "$work"
    log "download failed"
    exit 1
  }
  rm -rf "$dist"
  mkdir -p "$dist"
  tar xzf "$work/apicurio-registry-app-$version-all.tar.gz" -C "$dist"
  rm -rf "$work"
  [[ -f "$(runner_jar)" ]] || { log "no $(basename "$(runner_jar)") in the distribution"; exit 1; }
  touch "$dist/.complete"
  log "fetched in $((SECONDS - t0)) s"
}

# Readiness: the ccompat API answers a subject listing (storage initialised, REST up).
probe() {
  local deadline=$((SECONDS + $1))
  while ((SECONDS < deadline)); do
    if curl -sf -o /dev/null --max-time 2 "$url/subjects"; then
      return 0
    fi
    if [[ -n "${2:-}" ]] && ! kill -0 "$2" 2>/dev/null; then
      return 1
    fi
    sleep 0.5
  done
  return 1
}

cmd_start() {
  local pid
  if pid="$(running_pid)"; then
    log "already running (pid $pid)"
    probe "$ready_timeout" "$pid"
    echo "$url"
    return 0
  fi
  command -v java >/dev/null || { log "java not found"; exit 1; }
  command -v curl >/dev/null || { log "curl not found"; exit 1; }
  fetch_dist
  mkdir -p "$home"
  log "starting Apicurio Registry $version on 127.0.0.1:$port (log: $logfile)"
  local t0=$SECONDS
  # setsid: the registry must outlive the shell that started it (CI runs steps in sequence).
  # Storage is Apicurio's default, an in-memory H2 database: every start begins empty.
  # The working directory is the node's folder, so nothing the JVM writes lands in the caller's.
  cd "$home"
  setsid java -Xms64m -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dquarkus.http.host=127.0.0.1 "-Dquarkus.http.port=$port" -Dquarkus.log.console.color=false \
    -jar "$(runner_jar)" >>"$logfile" 2>&1 </dev/null &
  echo $! >"$pidfile"
  if ! probe "$ready_timeout" "$(cat "$pidfile")"; then
    log "registry did not become ready; last log lines:"
    tail -n 40 "$logfile" >&2
    cmd_stop || true
    exit 1
  fi
  log "ready in $((SECONDS - t0)) s (pid $(cat "$pidfile"))"
  echo "$url"
}

cmd_stop() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$pidfile"
    log "not running"
    return 0
  fi
  kill -TERM "$pid"
  for _ in $(seq 1 40); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "registry did not stop in 20 s; killing"
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
  fi
  rm -f "$pidfile"
  log "stopped"
}

cmd_status() {
  local pid
  if pid="$(running_pid)" && curl -sf -o /dev/null --max-time 5 "$url/subjects"; then
    echo "running (pid $pid) at $url"
    return 0
  fi
  echo "not running"
  return 1
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
