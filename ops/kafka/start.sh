#!/usr/bin/env bash
# Starts a single-node Kafka (KRaft, broker + controller) on 127.0.0.1:9092 in the background, with its
# classpath resolved from Maven Central into a cache outside the repository. Idempotent: a broker that
# already answers is left alone. Exits non-zero, with the end of the broker log, if it never gets ready.
#
#   ops/kafka/start.sh [--fresh]     --fresh (or KESHER_KAFKA_FRESH=1) discards the broker's data first
#
# Environment: KESHER_CACHE_DIR (default ~/.cache/kesher), KESHER_KAFKA_READY_TIMEOUT (seconds, default 90),
# JAVA_HOME (optional).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${KESHER_CACHE_DIR:-$HOME/.cache/kesher}/kafka
LIBS=$CACHE/libs
DATA=$CACHE/data
PID_FILE=$CACHE/kafka.pid
LOG_FILE=$CACHE/kafka.log
PROPERTIES=$CACHE/server.properties
BOOTSTRAP=127.0.0.1:9092
CONTROLLER=127.0.0.1:9093
READY_TIMEOUT=${KESHER_KAFKA_READY_TIMEOUT:-90}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
JVM=("$JAVA" -Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true
  "-Dlog4j.configuration=file:$HERE/log4j.properties" -cp "$LIBS/*")
FRESH=${KESHER_KAFKA_FRESH:-0}
if [[ ${1:-} == --fresh ]]; then FRESH=1; fi

say() { echo "kafka: $*"; }

port_open() { (exec 3<>"/dev/tcp/${1%:*}/${1#*:}") 2>/dev/null; }

# wait-ready.mjs exit codes: 0 ready, 1 timed out, 2 the watched process died.
wait_ready() { # timeout_seconds [pid]
  node "$HERE/wait-ready.mjs" --brokers "$BOOTSTRAP" --timeout "$1" ${2:+--pid "$2"}
}

# The readiness check is a Node script using the repository's kafkajs.
require_kafkajs() {
  if ! (cd "$HERE" && node --input-type=module -e "await import('kafkajs')" 2>/dev/null); then
    say "kafkajs is not installed; run npm install in the repository first" >&2
    exit 1
  fi
}

# Only a pid whose command line is our broker counts; a pid file can outlive its process and the pid be reused.
running_pid() {
  [[ -f $PID_FILE ]] || return 1
  local pid
  pid=$(<"$PID_FILE")
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  [[ $(ps -o args= -p "$pid" 2>/dev/null) == *kafka.Kafka* ]] || return 1
  echo "$pid"
}

# The POM's hash marks which classpath the libs folder holds, so changing a version re-resolves it.
ensure_libs() {
  local stamp wanted
  stamp=$LIBS/.pom.sha256
  wanted=$(sha256sum "$HERE/pom.xml" | cut -d' ' -f1)
  if [[ -f $stamp && $(<"$stamp") == "$wanted" ]]; then return; fi
  say "resolving the broker classpath from Maven Central into $LIBS"
  rm -rf "$LIBS"
  local output
  # Captured: Maven prints only errors with -q, plus stray colour codes even in batch mode.
  if ! output=$(mvn -q -B -f "$HERE/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$LIBS" 2>&1); then
    echo "$output" >&2
    say "could not resolve the broker classpath (is Maven Central reachable?)" >&2
    exit 1
  fi
  echo "$wanted" >"$stamp"
}

write_properties() {
  sed "s|@DATA_DIR@|$DATA|" "$HERE/server.properties.template" >"$PROPERTIES"
}

# meta.properties is what formatting writes; without it the directory is unusable, whatever else it holds.
ensure_formatted() {
  if [[ -f $DATA/meta.properties ]]; then return; fi
  rm -rf "$DATA"
  local cluster_id
  cluster_id=$("${JVM[@]}" -Dkesher.log.level=WARN kafka.tools.StorageTool random-uuid)
  "${JVM[@]}" -Dkesher.log.level=WARN kafka.tools.StorageTool format -t "$cluster_id" -c "$PROPERTIES" --ignore-formatted >/dev/null
}

launch() {
  if [[ -f $LOG_FILE ]]; then mv "$LOG_FILE" "$LOG_FILE.1"; fi
  rm -f "$PID_FILE"
  # setsid: the broker must outlive the shell (or test runner) that started it. The wrapper writes its
  # own pid before exec'ing Java, so the pid file names the broker itself. fd 9 (our lock) is closed so
  # the broker does not hold it forever.
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$PID_FILE" "${JVM[@]}" kafka.Kafka "$PROPERTIES" \
    </dev/null >"$LOG_FILE" 2>&1 9>&- &
  local waited=0
  until [[ -s $PID_FILE ]]; do
    ((waited++ < 100)) || { say "the broker process did not start" >&2; return 1; }
    sleep 0.05
  done
}

fail_with_log() {
  say "$1; last lines of $LOG_FILE:" >&2
  tail -n 40 "$LOG_FILE" >&2 || true
  exit 1
}

# Returns 0 when ready, 2 when the broker exited during start-up; gives up (exit 1) on a timeout.
start_and_wait() {
  launch
  local pid status=0
  pid=$(<"$PID_FILE")
  wait_ready "$READY_TIMEOUT" "$pid" || status=$?
  case $status in
    0) return 0 ;;
    2) rm -f "$PID_FILE"; return 2 ;;
    *)
      _KESHER_KAFKA_LOCK_HELD=1 "$HERE/stop.sh" >/dev/null
      fail_with_log "not ready after ${READY_TIMEOUT}s (stopped it)"
      ;;
  esac
}

main() {
  require_kafkajs
  mkdir -p "$CACHE"
  # Serialises concurrent starts (e.g. two test workers) and a start racing a stop.
  exec 9>"$CACHE/.lock"
  flock 9

  local pid
  if pid=$(running_pid); then
    say "broker (pid $pid) is already running; waiting until it is ready"
    wait_ready "$READY_TIMEOUT" "$pid" || fail_with_log "the running broker (pid $pid) did not get ready"
    say "ready on $BOOTSTRAP"
    return
  fi
  if port_open "$BOOTSTRAP"; then
    wait_ready 10 || { say "something listens on $BOOTSTRAP but does not answer as Kafka" >&2; exit 1; }
    say "a broker already answers on $BOOTSTRAP (not started by this script); leaving it alone"
    return
  fi

  if port_open "$CONTROLLER"; then
    say "port ${CONTROLLER#*:} (the controller listener) is taken by another process" >&2
    exit 1
  fi

  ensure_libs
  write_properties
  if [[ $FRESH == 1 ]]; then rm -rf "$DATA"; fi
  ensure_formatted

  local started=$SECONDS status=0
  say "starting on $BOOTSTRAP (data in $DATA, log in $LOG_FILE)"
  start_and_wait || status=$?
  if [[ $status == 2 ]]; then
    # Kept data that the broker cannot open (half-written, from another version, corrupted) must not
    # block development: set it and the log aside (replacing an older set) and try once from scratch.
    mv "$LOG_FILE" "$LOG_FILE.failed"
    rm -rf "$DATA.broken"
    mv "$DATA" "$DATA.broken"
    say "the broker exited during start-up; its data is now in $DATA.broken and its log in $LOG_FILE.failed;" \
      "retrying with fresh data"
    ensure_formatted
    status=0
    start_and_wait || status=$?
    [[ $status == 0 ]] || fail_with_log "the broker exited during start-up"
  fi
  say "ready on $BOOTSTRAP (pid $(<"$PID_FILE"), $((SECONDS - started))s)"
}

main
