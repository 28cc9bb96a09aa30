# Shared lifecycle of a test server that scripts/*.sh run in the background on 127.0.0.1: start (or
# attach to the running one), stop, status, all tracked by a pid file. Sourced, not run.
#
# Why shared: kafka.sh and schema-registry.sh (and any next server) differ only in how they fetch,
# configure, launch and probe their JVM; how a pid is trusted, how long a stop may take before KILL,
# and what start/stop/status print and return must be the same everywhere, since CI and the tests
# rely on it.
#
# The sourcing script sets these variables:
#   daemon_label         prefix of log lines ("kafka.sh")
#   daemon_noun          what runs, in messages ("broker")
#   daemon_match         a string its /proc/<pid>/cmdline contains (guards against pid reuse)
#   daemon_stop_seconds  how long a TERM may take before KILL
#   pidfile, logfile     per instance, so two instances do not collide
#   ready_timeout        seconds `start` waits for readiness
#   daemon_ports         the ports it listens on (space-separated): `start` refuses to launch when one is taken,
#                        since the readiness probe would then be answered by whoever holds it
# and defines these functions:
#   daemon_prepare                 before a launch: check tools, fetch, configure, log what starts;
#                                  may exit 1; runs in the main shell (a `cd` stays in effect)
#   daemon_launch                  starts the server with daemon_spawn
#   daemon_probe <seconds> <pid>   returns 0 once the server answers, 1 after <seconds> (or earlier
#                                  if it can tell that <pid> died)
#   daemon_address                 prints what a client connects to (`start` prints it on success)
#   daemon_fetch                   downloads what a start needs, without starting (`fetch`)
# then calls `daemon_main "$@"`.

daemon_log() { echo "$daemon_label: $*" >&2; }

# Prints the pid of the running server, or returns 1.
daemon_running_pid() {
  [[ -f "$pidfile" ]] || return 1
  local pid
  pid="$(cat "$pidfile")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  grep -q "$daemon_match" "/proc/$pid/cmdline" 2>/dev/null || return 1
  echo "$pid"
}

# Runs the command in the background, output appended to $logfile, and records its pid.
daemon_spawn() {
  # setsid: the server must outlive the shell that started it (CI runs steps in sequence).
  setsid "$@" >>"$logfile" 2>&1 </dev/null &
  echo $! >"$pidfile"
}

# Polls <url> until it answers 2xx (returns 0), <pid> dies or <seconds> pass (returns 1): the readiness
# probe of a server with an HTTP endpoint.
daemon_http_probe() {
  local url="$1" deadline=$((SECONDS + $2)) pid="${3:-}"
  while ((SECONDS < deadline)); do
    if curl -sf -o /dev/null --max-time 2 "$url"; then
      return 0
    fi
    if [[ -n "$pid" ]] && ! kill -0 "$pid" 2>/dev/null; then
      return 1
    fi
    sleep 0.5
  done
  return 1
}

daemon_port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

daemon_start() {
  local pid p
  if pid="$(daemon_running_pid)"; then
    daemon_log "already running (pid $pid)"
    daemon_probe "$ready_timeout" "$pid"
    daemon_address
    return 0
  fi
  for p in ${daemon_ports:-}; do
    if daemon_port_taken "$p"; then
      daemon_log "port $p is taken by another process"
      exit 1
    fi
  done
  daemon_prepare
  local t0=$SECONDS
  daemon_launch
  if ! daemon_probe "$ready_timeout" "$(cat "$pidfile")"; then
    daemon_log "$daemon_noun did not become ready; last log lines:"
    tail -n 40 "$logfile" >&2
    daemon_stop || true
    exit 1
  fi
  daemon_log "ready in $((SECONDS - t0)) s (pid $(cat "$pidfile"))"
  daemon_address
}

daemon_stop() {
  local pid
  if ! pid="$(daemon_running_pid)"; then
    rm -f "$pidfile"
    daemon_log "not running"
    return 0
  fi
  kill -TERM "$pid"
  for _ in $(seq 1 $((daemon_stop_seconds * 2))); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    daemon_log "$daemon_noun did not stop in $daemon_stop_seconds s; killing"
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
  fi
  rm -f "$pidfile"
  daemon_log "stopped"
}

daemon_status() {
  local pid
  if pid="$(daemon_running_pid)" && daemon_probe 5 "$pid" 2>/dev/null; then
    echo "running (pid $pid) at $(daemon_address)"
    return 0
  fi
  echo "not running"
  return 1
}

daemon_main() {
  case "${1:-}" in
    start) daemon_start ;;
    stop) daemon_stop ;;
    status) daemon_status ;;
    fetch) daemon_fetch ;;
    *) echo "usage: $0 start|stop|status|fetch" >&2; exit 2 ;;
  esac
}
