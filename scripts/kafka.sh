#!/usr/bin/env bash
# A single-node Apache Kafka broker (KRaft, broker+controller in one JVM) on 127.0.0.1 for tests.
#
#   scripts/kafka.sh start    download jars on first use, format storage once, start, wait until ready
#   scripts/kafka.sh stop     stop the broker and wait until it is gone
#   scripts/kafka.sh status   exit 0 if the broker runs and answers, 1 otherwise
#   scripts/kafka.sh fetch    only download the jars (CI does it while npm installs)
#
# Environment:
#   KAFKA_PORT       client port (default 9092); the controller listens on KAFKA_PORT+1
#   KAFKA_VERSION    org.apache.kafka:kafka_2.13 version (default 3.9.2)
#   SLUICE_CACHE     cache root (default <repo>/.cache); jars, data and logs go to $SLUICE_CACHE/kafka
#   SLUICE_RUN_DIR   if set, data, pid and log go to $SLUICE_RUN_DIR/kafka-$KAFKA_PORT instead (the test
#                    setup gives each run its own folder, removed afterwards, so no run sees another's topics)
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
home="${SLUICE_RUN_DIR:+$SLUICE_RUN_DIR/kafka-$port}"
home="${home:-$cache/node-$port}"
pidfile="$home/kafka.pid"
logfile="$home/kafka.log"
bootstrap="127.0.0.1:$port"
ready_timeout="${KAFKA_READY_TIMEOUT:-90}"

# shellcheck source=lib/daemon.sh
source "$repo/scripts/lib/daemon.sh"
daemon_label=kafka.sh
daemon_noun=broker
daemon_match=kafka.Kafka
daemon_ports="$port $controller_port"
# A controlled shutdown takes a few seconds.
daemon_stop_seconds=30

fetch_jars() {
  [[ -f "$libs/.complete" ]] && return 0
  mkdir -p "$cache"
  # Two runs sharing a cache must not fill (and empty) the same folder at once; the lock is held by a
  # subshell only, so the broker started later does not inherit it.
  (
    flock 9
    if [[ ! -f "$libs/.complete" ]]; then
      daemon_log "fetching kafka_2.13:$version and its runtime dependencies with Maven (first run only)..."
      t0=$SECONDS
      # slf4j-reload4j gives the broker a logging backend so its log file is useful.
      "$repo/scripts/lib/fetch-maven-jars.sh" "$libs" \
        "org.apache.kafka:kafka_2.13:$version" \
        "org.slf4j:slf4j-reload4j:1.7.36"
      daemon_log "jars fetched in $((SECONDS - t0)) s"
    fi
  ) 9>"$cache/.fetch.lock"
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
# Abort timed-out transactions within a second, not ten: the lost-transaction tests wait for exactly that abort.
transaction.abort.timed.out.transaction.cleanup.interval.ms=1000
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
  # A Kafka cluster id is a base64url-encoded 16-byte UUID (22 characters). One that starts
  # with '-' reads as an option to kafka-storage's argument parser (about 1 run in 64 failed so),
  # which is why Kafka's own Uuid.randomUuid() redraws those; so do we.
  cluster_id="$(node -e "const {randomBytes}=require('node:crypto');let id;do{id=randomBytes(16).toString('base64url')}while(id.startsWith('-'));process.stdout.write(id)")"
  daemon_log "formatting storage in $home/data (cluster id $cluster_id)"
  # shellcheck disable=SC2046
  java $(java_opts) -cp "$libs/*" kafka.tools.StorageTool format \
    -t "$cluster_id" -c "$home/server.properties" --ignore-formatted >>"$logfile" 2>&1 || {
    daemon_log "storage format failed; see $logfile"
    tail -n 30 "$logfile" >&2
    exit 1
  }
}

daemon_probe() {
  node "$repo/scripts/lib/kafka-ready.mjs" "$bootstrap" "$1"
}

daemon_address() { echo "$bootstrap"; }

daemon_fetch() {
  fetch_jars
}

daemon_prepare() {
  command -v java >/dev/null || { daemon_log "java not found"; exit 1; }
  fetch_jars
  mkdir -p "$home"
  write_config
  format_storage
  daemon_log "starting broker on $bootstrap (log: $logfile)"
}

daemon_launch() {
  # shellcheck disable=SC2046
  daemon_spawn java $(java_opts) -cp "$libs/*" kafka.Kafka "$home/server.properties"
}

daemon_main "$@"
