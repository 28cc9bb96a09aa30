#!/usr/bin/env bash
# An Apache Flink session cluster (one JobManager, one TaskManager) and its SQL Gateway on 127.0.0.1, for
# `sluice --endpoint` and its tests.
#
#   scripts/flink.sh start    download jars on first use, start JobManager, TaskManager and gateway, wait until ready
#   scripts/flink.sh stop     stop the three JVMs (gateway first) and wait until they are gone
#   scripts/flink.sh status   exit 0 if all three run and answer, 1 otherwise
#   scripts/flink.sh fetch    only download the jars (CI does it while npm installs)
#
# Which Flink: flink-dist (the tarball with bin/ and lib/) is not served from Maven Central, so the cluster is
# assembled from the module jars that are, all three JVMs on one classpath (what flink-dist's lib/ would hold).
# Flink 2.3.0 is the newest release served, but the newest Kafka SQL connector, 5.0.0-2.2, is built for Flink
# 2.2, so this is 2.2.1: the newest Flink whose Kafka connector exists. Maven Central has no flink-csv 2.2.1, so
# the csv format is 2.2.0 (a format plugin; its API did not change within 2.2). No Pravega Flink connector for
# Flink 2.x is served (io.pravega:pravega-connectors-flink-* stops at Flink 1.x), so pravega tables stay Sluice's.
#
# Environment (every port can be moved, so tests run their own cluster beside anyone else's):
#   FLINK_GATEWAY_PORT   SQL Gateway REST endpoint (default 8083)
#   FLINK_REST_PORT      JobManager REST API and web UI (default 8081)
#   FLINK_RPC_PORT       JobManager RPC (default 6123)
#   FLINK_BLOB_PORT      JobManager blob server (default 6124)
#   FLINK_TM_RPC_PORT    TaskManager RPC (default 6122; 0 = any free port)
#   FLINK_TM_SLOTS       task slots of the TaskManager (default 2)
#   FLINK_HEAP           -Xmx of each JVM (default 512m)
#   FLINK_JAVA_OPTS      more flags for each JVM (the test setup passes -XX:TieredStopAtLevel=1: C1 only halves the
#                        CPU of a cluster that lives minutes and runs small jobs; a long-lived one wants C2)
#   FLINK_VERSION        org.apache.flink version (default 2.2.1); FLINK_KAFKA_VERSION the connector's (5.0.0-2.2)
#   SLUICE_CACHE         cache root (default <repo>/.cache); jars go to $SLUICE_CACHE/flink/libs-<version>
#   SLUICE_RUN_DIR       if set, config, logs, pids and savepoints go to $SLUICE_RUN_DIR/flink-<gateway port>
#   FLINK_READY_TIMEOUT  seconds to wait for each JVM (default 120)
#
# Only Java 17 (or 11/21), Maven and curl are needed.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="${FLINK_VERSION:-2.2.1}"
csv_version="${FLINK_CSV_VERSION:-2.2.0}"
kafka_version="${FLINK_KAFKA_VERSION:-5.0.0-2.2}"
gateway_port="${FLINK_GATEWAY_PORT:-8083}"
rest_port="${FLINK_REST_PORT:-8081}"
rpc_port="${FLINK_RPC_PORT:-6123}"
blob_port="${FLINK_BLOB_PORT:-6124}"
tm_rpc_port="${FLINK_TM_RPC_PORT:-6122}"
slots="${FLINK_TM_SLOTS:-2}"
heap="${FLINK_HEAP:-512m}"
cache="${SLUICE_CACHE:-$repo/.cache}/flink"
libs="$cache/libs-$version"
home="${SLUICE_RUN_DIR:+$SLUICE_RUN_DIR/flink-$gateway_port}"
home="${home:-$cache/cluster-$gateway_port}"
conf="$home/conf"
ready_timeout="${FLINK_READY_TIMEOUT:-120}"

# shellcheck source=lib/daemon.sh
source "$repo/scripts/lib/daemon.sh"
daemon_label=flink.sh
daemon_stop_seconds=30

fetch_jars() {
  [[ -f "$libs/.complete" ]] && return 0
  mkdir -p "$cache"
  # Two runs sharing a cache must not fill (and empty) the same folder at once.
  (
    flock 9
    if [[ ! -f "$libs/.complete" ]]; then
      daemon_log "fetching Apache Flink $version, its SQL Gateway and connectors with Maven (first run only)..."
      t0=$SECONDS
      # slf4j-reload4j gives the JVMs a logging backend (Flink 2.2 logs through slf4j 1.7) so their logs are useful.
      "$repo/scripts/lib/fetch-maven-jars.sh" "$libs" \
        "org.apache.flink:flink-runtime:$version" \
        "org.apache.flink:flink-rpc-akka-loader:$version" \
        "org.apache.flink:flink-clients:$version" \
        "org.apache.flink:flink-streaming-java:$version" \
        "org.apache.flink:flink-table-api-java-bridge:$version" \
        "org.apache.flink:flink-table-planner-loader:$version" \
        "org.apache.flink:flink-table-runtime:$version" \
        "org.apache.flink:flink-sql-gateway:$version" \
        "org.apache.flink:flink-connector-files:$version" \
        "org.apache.flink:flink-connector-datagen:$version" \
        "org.apache.flink:flink-json:$version" \
        "org.apache.flink:flink-csv:$csv_version" \
        "org.apache.flink:flink-sql-connector-kafka:$kafka_version" \
        "org.slf4j:slf4j-reload4j:1.7.36"
      daemon_log "jars fetched in $((SECONDS - t0)) s"
    fi
  ) 9>"$cache/.fetch.lock"
}

write_config() {
  mkdir -p "$conf" "$home/tmp" "$home/checkpoints" "$home/savepoints"
  # Memory is sized for a laptop or a CI runner: a 512m heap per JVM, small managed and network pools.
  cat >"$conf/config.yaml" <<YAML
jobmanager.rpc.address: 127.0.0.1
jobmanager.rpc.port: $rpc_port
jobmanager.bind-host: 127.0.0.1
rest.address: 127.0.0.1
rest.bind-address: 127.0.0.1
rest.port: $rest_port
blob.server.port: $blob_port
taskmanager.host: 127.0.0.1
taskmanager.bind-host: 127.0.0.1
taskmanager.rpc.port: $tm_rpc_port
taskmanager.numberOfTaskSlots: $slots
# flink-dist's bin/taskmanager.sh derives these and passes them to the JVM; without that script they are set here.
taskmanager.cpu.cores: $slots
taskmanager.memory.framework.heap.size: 64m
taskmanager.memory.task.heap.size: 320m
taskmanager.memory.managed.size: 128m
taskmanager.memory.network.min: 32m
taskmanager.memory.network.max: 32m
taskmanager.memory.framework.off-heap.size: 64m
taskmanager.memory.task.off-heap.size: 0m
taskmanager.memory.jvm-metaspace.size: 256m
taskmanager.memory.jvm-overhead.min: 64m
taskmanager.memory.jvm-overhead.max: 64m
parallelism.default: 1
io.tmp.dirs: $home/tmp
execution.target: remote
execution.checkpointing.dir: file://$home/checkpoints
execution.checkpointing.savepoint-dir: file://$home/savepoints
sql-gateway.endpoint.rest.address: 127.0.0.1
sql-gateway.endpoint.rest.bind-address: 127.0.0.1
sql-gateway.endpoint.rest.port: $gateway_port
YAML
  cat >"$conf/log4j.properties" <<PROPS
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=%d{HH:mm:ss,SSS} %-5p %c{1} - %m%n
log4j.logger.org.apache.kafka=WARN
log4j.logger.org.apache.flink.shaded=WARN
# One INFO line per parser class at the first statement: noise that hides what matters.
log4j.logger.org.apache.flink.api.java.typeutils.TypeExtractor=WARN
PROPS
}

# What flink-dist's config.yaml passes every JVM on Java 17: Flink reflects into JDK internals.
java_opts=(
  "-Xms128m" "-Xmx$heap" "-XX:MaxDirectMemorySize=192m" "-XX:MaxMetaspaceSize=384m" "-XX:+UseSerialGC" ${FLINK_JAVA_OPTS:-}
  "-Djava.awt.headless=true" "-Duser.timezone=UTC" "-Dfile.encoding=UTF-8"
  "-Dlog4j.configuration=file:$conf/log4j.properties" "-Djava.io.tmpdir=$home/tmp"
  --add-exports=java.base/sun.net.util=ALL-UNNAMED
  --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.text=ALL-UNNAMED
  --add-opens=java.base/java.time=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED
)

# Polls a URL until its body matches a pattern; gives up early when the JVM died.
wait_for() {
  local seconds="$1" pid="$2" url="$3" pattern="$4" body
  local deadline=$((SECONDS + seconds))
  while ((SECONDS < deadline)); do
    if body="$(curl -sf --max-time 3 "$url" 2>/dev/null)" && [[ "$body" =~ $pattern ]]; then
      return 0
    fi
    if [[ -n "$pid" ]] && ! kill -0 "$pid" 2>/dev/null; then
      return 1
    fi
    sleep 0.5
  done
  return 1
}

# The three JVMs share daemon.sh's lifecycle; `use` points its variables and hooks at one of them.
use() {
  case "$1" in
    jobmanager)
      daemon_noun=JobManager
      daemon_match=StandaloneSessionClusterEntrypoint
      daemon_ports="$rpc_port $rest_port $blob_port"
      daemon_probe() { wait_for "$1" "${2:-}" "http://127.0.0.1:$rest_port/overview" '"flink-version"'; }
      daemon_address() { echo "http://127.0.0.1:$rest_port"; }
      daemon_launch() {
        daemon_spawn java "${java_opts[@]}" -cp "$libs/*" \
          org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint --configDir "$conf"
      }
      ;;
    taskmanager)
      daemon_noun=TaskManager
      daemon_match=TaskManagerRunner
      daemon_ports="$tm_rpc_port"
      # Ready once the JobManager counts its slots.
      daemon_probe() { wait_for "$1" "${2:-}" "http://127.0.0.1:$rest_port/overview" "\"slots-total\":$slots[,}]"; }
      daemon_address() { echo "$slots slots"; }
      daemon_launch() {
        daemon_spawn java "${java_opts[@]}" -cp "$libs/*" \
          org.apache.flink.runtime.taskexecutor.TaskManagerRunner --configDir "$conf"
      }
      ;;
    gateway)
      daemon_noun="SQL Gateway"
      daemon_match=org.apache.flink.table.gateway.SqlGateway
      daemon_ports="$gateway_port"
      daemon_probe() { wait_for "$1" "${2:-}" "http://127.0.0.1:$gateway_port/v1/info" '"Apache Flink"'; }
      daemon_address() { echo "http://127.0.0.1:$gateway_port"; }
      # The gateway finds config.yaml through FLINK_CONF_DIR, as flink-dist's bin/sql-gateway.sh sets it.
      daemon_launch() {
        FLINK_CONF_DIR="$conf" daemon_spawn java "${java_opts[@]}" -cp "$libs/*" org.apache.flink.table.gateway.SqlGateway
      }
      ;;
  esac
  daemon_label="flink.sh ($1)"
  pidfile="$home/$1.pid"
  logfile="$home/$1.log"
}

daemon_prepare() { :; }
daemon_fetch() { fetch_jars; }

flink_start() {
  command -v java >/dev/null || { daemon_log "java not found"; exit 1; }
  command -v curl >/dev/null || { daemon_log "curl not found"; exit 1; }
  fetch_jars
  mkdir -p "$home"
  use jobmanager
  # A cluster already up keeps its config; a fresh start writes it (ports may have changed).
  daemon_running_pid >/dev/null || write_config
  daemon_log "starting JobManager, TaskManager and SQL Gateway (logs and config in $home)"
  # The three JVMs start at once (the TaskManager keeps trying to register until the JobManager is up, the gateway
  # needs the cluster only when a statement runs): on a busy machine that saves most of a sequential start.
  local c pids=() failed=0
  for c in jobmanager taskmanager gateway; do
    (use "$c" && daemon_start >/dev/null) &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || failed=1; done
  if ((failed)); then
    flink_stop
    exit 1
  fi
  use gateway
  daemon_address
}

flink_stop() {
  for c in gateway taskmanager jobmanager; do
    use "$c"
    daemon_log "$daemon_noun:"
    daemon_stop
  done
}

flink_status() {
  local c rc=0
  for c in jobmanager taskmanager gateway; do
    use "$c"
    echo -n "$daemon_noun: "
    daemon_status || rc=1
  done
  return $rc
}

case "${1:-}" in
  start) flink_start ;;
  stop) flink_stop ;;
  status) flink_status ;;
  fetch) fetch_jars ;;
  *) echo "usage: $0 start|stop|status|fetch" >&2; exit 2 ;;
esac
