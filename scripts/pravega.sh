#!/usr/bin/env bash
# Runs a real Pravega 0.13.0 standalone (in-memory storage, one controller, one segment store, in-process ZooKeeper)
# for Sluice's integration tests. Usage: scripts/pravega.sh start|stop|status|fetch (fetch: only download the jars)
#   controller gRPC: tcp://127.0.0.1:${PRAVEGA_CONTROLLER_PORT:-9090}
#   segment store:   127.0.0.1:${PRAVEGA_SEGMENTSTORE_PORT:-6000} (published as 127.0.0.1, not 0.0.0.0)
#   ZooKeeper:       127.0.0.1:${PRAVEGA_ZK_PORT:-4000}; REST and admin gateway ports are set but disabled
# The jars come from Maven Central via scripts/pravega/pom.xml into $SLUICE_CACHE/pravega/lib (SLUICE_CACHE defaults to
# the git-ignored .cache) on first start. The instance's pid, log and working folder are per controller port:
# $SLUICE_CACHE/pravega/run-<port>, or $SLUICE_RUN_DIR/pravega-<port> when SLUICE_RUN_DIR is set (the test setup gives
# each run its own), so two instances on one machine never share one.
#
# PRAVEGA_SECURE=1 runs a second, secured instance beside the plain one (its own ports and run-secure-<port> folder):
# TLS on the controller and the segment store, and auth with the default PasswordAuthHandler.
#   controller gRPC: tls://127.0.0.1:${PRAVEGA_CONTROLLER_PORT:-9190}, segment store 127.0.0.1:${PRAVEGA_SEGMENTSTORE_PORT:-6100}
#   CA to trust:     <run folder>/tls/ca.pem, e.g. .cache/pravega/run-secure-9190/tls/ca.pem (for localhost and 127.0.0.1)
#   user:            admin / ${PRAVEGA_SECURE_PASSWORD:-1111_aaaa} (auth-type Basic, token base64("admin:<password>"))
# Certificates and the password file are made with openssl and the Pravega jars on each fresh start.
# PRAVEGA_HEAP (default 1g) and PRAVEGA_JAVA_OPTS (default: C1 only, serial GC; see start()) tune the JVM.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${SLUICE_CACHE:-$ROOT/.cache}/pravega"
LIB="$CACHE/lib"
SECURE="${PRAVEGA_SECURE:-0}"
if [[ "$SECURE" == 1 ]]; then
  CONTROLLER_PORT="${PRAVEGA_CONTROLLER_PORT:-9190}"
  RUN="${SLUICE_RUN_DIR:+$SLUICE_RUN_DIR/pravega-secure-$CONTROLLER_PORT}"
  RUN="${RUN:-$CACHE/run-secure-$CONTROLLER_PORT}"
  SEGMENTSTORE_PORT="${PRAVEGA_SEGMENTSTORE_PORT:-6100}"
  ZK_PORT="${PRAVEGA_ZK_PORT:-4100}"
  REST_PORT="${PRAVEGA_REST_PORT:-9191}"
  ADMIN_PORT="${PRAVEGA_ADMIN_PORT:-9998}"
  SECURE_PASSWORD="${PRAVEGA_SECURE_PASSWORD:-1111_aaaa}"
else
  CONTROLLER_PORT="${PRAVEGA_CONTROLLER_PORT:-9090}"
  RUN="${SLUICE_RUN_DIR:+$SLUICE_RUN_DIR/pravega-$CONTROLLER_PORT}"
  RUN="${RUN:-$CACHE/run-$CONTROLLER_PORT}"
  SEGMENTSTORE_PORT="${PRAVEGA_SEGMENTSTORE_PORT:-6000}"
  ZK_PORT="${PRAVEGA_ZK_PORT:-4000}"
  REST_PORT="${PRAVEGA_REST_PORT:-9091}"
  ADMIN_PORT="${PRAVEGA_ADMIN_PORT:-9999}"
fi
PID_FILE="$RUN/pravega.pid"
LOG_FILE="$RUN/pravega.log"
START_TIMEOUT="${PRAVEGA_START_TIMEOUT:-180}"

log() { echo "pravega.sh: $*" >&2; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && exec 3>&- 3<&- ; }

running_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid; pid="$(cat "$PID_FILE")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  # A stale pid file may name a pid the system has since given to another process.
  grep -q LocalPravegaEmulator "/proc/$pid/cmdline" 2>/dev/null || return 1
  echo "$pid"
}

fetch() {
  # Re-resolve when the pom changed since the last fetch.
  if [[ -f "$LIB/.complete" && "$LIB/.complete" -nt "$ROOT/scripts/pravega/pom.xml" ]]; then return 0; fi
  command -v mvn >/dev/null || { log "mvn not found; install Maven (apt-get install maven)"; exit 1; }
  mkdir -p "$CACHE"
  # Two runs sharing a cache must not fill (and empty) the same folder at once (the lock stays in the subshell).
  (
    flock 9
    if [[ -f "$LIB/.complete" && "$LIB/.complete" -nt "$ROOT/scripts/pravega/pom.xml" ]]; then exit 0; fi
    log "resolving io.pravega:pravega-standalone:0.13.0 and its dependencies into $LIB (first run only)"
    rm -rf "$LIB"
    # Maven's own local repository (as kafka.sh and schema-registry.sh use), so a fresh clone on a machine that
    # fetched before copies the jars instead of downloading them again.
    mvn -q -B -f "$ROOT/scripts/pravega/pom.xml" \
      dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$LIB"
    touch "$LIB/.complete"
  ) 9>"$CACHE/.fetch.lock"
}

# The secured instance's material: a CA, a server certificate it signs (SAN localhost and 127.0.0.1, so clients can
# validate the host name either way; PKCS#8 key as netty wants), and a password file whose hash comes from Pravega's
# own StrongPasswordProcessor (PBKDF2 with a random salt, so it cannot be a constant here).
make_security() {
  local tls="$RUN/tls"
  rm -rf "$tls"; mkdir -p "$tls"
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=Sluice test CA" \
    -keyout "$tls/ca.key" -out "$tls/ca.pem" 2>/dev/null
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$tls/server.key" 2>/dev/null
  openssl req -new -key "$tls/server.key" -subj "/CN=localhost" -out "$tls/server.csr" 2>/dev/null
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > "$tls/san.ext"
  openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 30 \
    -extfile "$tls/san.ext" -out "$tls/server.pem" 2>/dev/null
  # The emulator also insists on JKS stores and their password file; its ZooKeeper TLS client opens the trust store
  # with the hard-coded password 1111_aaaa, so the stores use that one.
  printf '1111_aaaa' > "$tls/keystore.pwd"
  openssl pkcs12 -export -in "$tls/server.pem" -inkey "$tls/server.key" -name server -passout pass:1111_aaaa \
    -out "$tls/server.p12"
  keytool -importkeystore -noprompt -srckeystore "$tls/server.p12" -srcstoretype PKCS12 -srcstorepass 1111_aaaa \
    -destkeystore "$tls/server.keystore.jks" -deststoretype JKS -deststorepass 1111_aaaa >/dev/null 2>&1
  keytool -importcert -noprompt -alias ca -file "$tls/ca.pem" -keystore "$tls/client.truststore.jks" \
    -storepass 1111_aaaa >/dev/null 2>&1
  cat > "$tls/HashPassword.java" <<'JAVA'
public class HashPassword {
  public static void main(String[] a) throws Exception {
    System.out.print(io.pravega.shared.security.crypto.StrongPasswordProcessor.builder().build().encryptPassword(a[0]));
  }
}
JAVA
  local hash; hash="$(java -cp "$LIB/*" "$tls/HashPassword.java" "$SECURE_PASSWORD")"
  # ACL: everything, read and update (the 0.13 "prn::*" resource syntax).
  printf 'admin:%s:prn::*,READ_UPDATE;\n' "$hash" > "$tls/passwd"
}

security_opts() {
  [[ "$SECURE" == 1 ]] || return 0
  local tls="$RUN/tls"
  printf '%s\n' \
    -Dsinglenode.security.tls.enable=true \
    -Dsinglenode.security.tls.privateKey.location="$tls/server.key" \
    -Dsinglenode.security.tls.certificate.location="$tls/server.pem" \
    -Dsinglenode.security.tls.keyStore.location="$tls/server.keystore.jks" \
    -Dsinglenode.security.tls.keyStore.pwd.location="$tls/keystore.pwd" \
    -Dsinglenode.security.tls.trustStore.location="$tls/client.truststore.jks" \
    -Dsinglenode.security.auth.enable=true \
    -Dsinglenode.security.auth.credentials.username=admin \
    -Dsinglenode.security.auth.credentials.pwd="$SECURE_PASSWORD" \
    -Dsinglenode.security.auth.pwdAuthHandler.accountsDb.location="$tls/passwd"
}

# Controller gRPC answers when an HTTP/2 preface gets a SETTINGS frame back; bash alone cannot speak HTTP/2, so
# readiness is: both ports listen and the emulator logged that the sandbox is up (it logs after the controller
# has created its system streams, i.e. once it really serves requests).
ready() {
  port_open "$CONTROLLER_PORT" && port_open "$SEGMENTSTORE_PORT" \
    && grep -q "Pravega Sandbox is running locally now" "$LOG_FILE" 2>/dev/null
}

start() {
  if pid="$(running_pid)"; then
    if ready; then log "already running (pid $pid)"; return 0; fi
  else
    rm -f "$PID_FILE"
    local p
    for p in "$CONTROLLER_PORT" "$SEGMENTSTORE_PORT" "$ZK_PORT"; do
      if port_open "$p"; then log "port $p is taken by another process"; exit 1; fi
    done
  fi
  local t0; t0=$(date +%s)
  fetch
  mkdir -p "$RUN"
  if [[ -z "${pid:-}" ]]; then
    : > "$RUN/standalone-config.properties"   # must exist; every setting comes from -D below
    : > "$LOG_FILE"
    local security=()
    if [[ "$SECURE" == 1 ]]; then make_security; mapfile -t security < <(security_opts); fi
    # Java 17: Pravega 0.13 (built for 11) reflects into JDK internals (netty direct buffers, ZooKeeper, BookKeeper).
    local opens=(
      --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
      --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
      --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
      --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED
      --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED
      --add-exports=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true
    )
    (
      cd "$RUN"
      # setsid: the server outlives the shell that started it and is not hit by a Ctrl-C meant for the test run
      # (the test setup stops it itself).
      # PRAVEGA_JAVA_OPTS defaults to C1 only and the serial collector, as the other test servers run: a test
      # instance lives minutes and carries little traffic, so C2's compilations and G1's threads were most of its CPU
      # (15 -> 8 CPU s to start; idle after 40 s, 0.25 -> 0.07 of a core, C2 still compiling), taken from the tests
      # it serves on a 2-core machine. PRAVEGA_JAVA_OPTS='' for a long-lived or benchmarked instance.
      exec setsid java -Xmx${PRAVEGA_HEAP:-1g} ${PRAVEGA_JAVA_OPTS--XX:+UseSerialGC -XX:TieredStopAtLevel=1} "${opens[@]}" \
        -Dsinglenode.configurationFile="$RUN/standalone-config.properties" \
        -Dsinglenode.zk.port="$ZK_PORT" \
        -Dsinglenode.segmentStore.port="$SEGMENTSTORE_PORT" \
        -Dsinglenode.controller.rpc.port="$CONTROLLER_PORT" \
        -Dsinglenode.controller.rest.port="$REST_PORT" \
        -Dsinglenode.controller.rest.enable=false \
        -Dsinglenode.admin.gateway.enable=false \
        -Dsinglenode.admin.gateway.port="$ADMIN_PORT" \
        -Dpravegaservice.service.published.host.nameOrIp=127.0.0.1 \
        -Dpravegaservice.service.listener.host.nameOrIp=127.0.0.1 \
        -Dlog.level=INFO \
        ${security[@]+"${security[@]}"} \
        -cp "$LIB/*" io.pravega.local.LocalPravegaEmulator
    ) >>"$LOG_FILE" 2>&1 &
    echo $! > "$PID_FILE"
    pid=$!
    log "started pid $pid, log $LOG_FILE"
  fi
  local deadline=$(( $(date +%s) + START_TIMEOUT ))
  until ready; do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "Pravega exited during startup; last log lines:"; tail -n 40 "$LOG_FILE" >&2; rm -f "$PID_FILE"; exit 1
    fi
    if grep -q -E "has FAILED|NoClassDefFoundError|Address already in use" "$LOG_FILE"; then
      log "Pravega failed to start; first errors:"; grep -m 5 -E "has FAILED|NoClassDefFoundError|Address already in use|Caused by" "$LOG_FILE" >&2
      stop; exit 1
    fi
    if (( $(date +%s) > deadline )); then log "not ready after ${START_TIMEOUT}s; see $LOG_FILE"; exit 1; fi
    sleep 1
  done
  local scheme=tcp; [[ "$SECURE" == 1 ]] && scheme=tls
  log "ready: controller $scheme://127.0.0.1:$CONTROLLER_PORT, segment store 127.0.0.1:$SEGMENTSTORE_PORT ($(( $(date +%s) - t0 ))s)"
}

stop() {
  local pid
  if ! pid="$(running_pid)"; then rm -f "$PID_FILE"; log "not running"; return 0; fi
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  if kill -0 "$pid" 2>/dev/null; then log "pid $pid ignored SIGTERM; killing"; kill -9 "$pid" 2>/dev/null || true; fi
  rm -f "$PID_FILE"
  log "stopped pid $pid"
}

status() {
  local pid
  if pid="$(running_pid)"; then
    if ready; then echo "running (pid $pid), ready"; else echo "running (pid $pid), not ready"; fi
  else
    echo "stopped"; return 3
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  fetch) fetch ;;
  *) echo "usage: $0 start|stop|status|fetch" >&2; exit 2 ;;
esac
