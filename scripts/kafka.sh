#!/usr/bin/env bash
# A single-node Apache Kafka broker (KRaft, broker+controller in one JVM) on 127.0.0.1 for tests.
#
#   scripts/kafka.sh start    download jars on first use, format storage once, start, wait until ready
#   scripts/kafka.sh stop     stop the broker and wait until it is gone
#   scripts/kafka.sh status   exit 0 if the broker runs and answers, 1 otherwise
#
# Environment:
#   KAFKA_PORT       client port (default 9092); the controller listens on KAFKA_PORT+1
#   KAFKA_VERSION    org.apache.kafka:kafka_2.13 version (default 3.9.2)
#   SLUICE_CACHE     cache root (default <repo>/.cache); jars, data and logs go to $SLUICE_CACHE/kafka
#   KAFKA_READY_TIMEOUT  seconds to wait for readiness (default 90)
#
# Only Java 17+, Maven and node (with this repo's node_modules, for the kafkajs readiness probe) are needed.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
port="${KAFKA_PORT:-9092}"
controller_port="$((port + 1))"
version="${KAFKA_VERSION:-3.9.2}"
cache="${SLUICE_CACHE:-$repo/.cache}/kafka"
libs="$cache/libs-$version"
# Data, pid and log are per port so two brokers (e.g. two worktrees sharing a cache) don't collide.
home="$cache/node-$port"
pidfile="$home/kafka.pid"
logfile="$home/kafka.log"
bootstrap="127.0.0.1:$port"
ready_timeout="${KAFKA_READY_TIMEOUT:-90}"

log() { echo "kafka.sh: $*" >&2; }

running_pid() {
  [[ -f "$pidfile" ]] || return 1
  local pid
  pid="$(cat "$pidfile")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  # Guard against pid reuse: the process must be our JVM.
  grep -q "kafka.Kafka" "/proc/$pid/cmdline" 2>/dev/null || return 1
  echo "$pid"
}

fetch_jars() {
  if [[ ! -f "$libs/.complete" ]]; then
    log "fetching kafka_2.13:$version and its runtime dependencies with Maven (first run only)..."
    local t0=$SECONDS
    # slf4j-reload4j gives the broker a logging backend so its log file is useful.
    "$repo/scripts/lib/fetch-maven-jars.sh" "$libs" \
      "org.apache.kafka:kafka_2.13:$version" \
      "org.slf4j:slf4j-reload4j:1.7.36"
    log "jars fetched in $((SECONDS - t0)) s"
  fi
}

write_config() {
  mkdir -p "$home/data"
  cat >"$home/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$home/data
num.partitions=1
default.replication.factor=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=5
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=5
min.insync.replicas=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
delete.topic.enable=true
log.retention.hours=24
log.segment.bytes=67108864
PROPS
  cat >"$home/log4j.properties" <<PROPS
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.org.apache.kafka=INFO
log4j.logger.kafka=INFO
log4j.logger.state.change.logger=WARN
PROPS
}

java_opts() {
  echo "-Xms256m -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true -Dlog4j.configuration=file:$home/log4j.properties"
}

format_storage() {
  if [[ -f "$home/data/meta.properties" ]]; then
    return 0
  fi
  local cluster_id
  # A Kafka cluster id is a base64url-encoded 16-byte UUID (22 characters).
  cluster_id="$(node -e "process.stdout.write(require('node:crypto').randomBytes(16).toString('base64url'))")"
  log "formatting storage in $home/data (cluster id $cluster_id)"
  # shellcheck disable=SC2046
  java $(java_opts) -cp "$libs/*" kafka.tools.StorageTool format \
    -t "$cluster_id" -c "$home/server.properties" --ignore-formatted >>"$logfile" 2>&1 || {
    log "storage format failed; see $logfile"
    tail -n 30 "$logfile" >&2
    exit 1
  }
}

probe() {
  node "$repo/scripts/lib/kafka-ready.mjs" "$bootstrap" "$1"
}

cmd_start() {
  if pid="$(running_pid)"; then
    log "already running (pid $pid)"
    probe "$ready_timeout"
    echo "$bootstrap"
    return 0
  fi
  command -v java >/dev/null || { log "java not found"; exit 1; }
  fetch_jars
  mkdir -p "$home"
  write_config
  format_storage
  log "starting broker on $bootstrap (log: $logfile)"
  local t0=$SECONDS
  # setsid: the broker must outlive the shell that started it (CI runs steps in sequence).
  # shellcheck disable=SC2046
  setsid java $(java_opts) -cp "$libs/*" kafka.Kafka "$home/server.properties" \
    >>"$logfile" 2>&1 </dev/null &
  echo $! >"$pidfile"
  if ! probe "$ready_timeout"; then
    log "broker did not become ready; last log lines:"
    tail -n 40 "$logfile" >&2
    cmd_stop || true
    exit 1
  fi
  log "ready in $((SECONDS - t0)) s (pid $(cat "$pidfile"))"
  echo "$bootstrap"
}

cmd_stop() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$pidfile"
    log "not running"
    return 0
  fi
  kill -TERM "$pid"
  # A controlled shutdown takes a few seconds; give it 30 s, then kill hard.
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "broker did not stop in 30 s; killing"
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
  fi
  rm -f "$pidfile"
  log "stopped"
}

cmd_status() {
  local pid
  if pid="$(running_pid)" && probe 5 2>/dev/null; then
    echo "running (pid $pid) on $bootstrap"
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
