#!/usr/bin/env bash
# Stops the broker that ops/kafka/start.sh started: SIGTERM (a clean shutdown, so the next start does not
# have to recover its logs), then SIGKILL if it is still there after KESHER_KAFKA_STOP_TIMEOUT seconds
# (default 30). Does nothing, successfully, when that broker is not running.
set -euo pipefail

CACHE=${KESHER_CACHE_DIR:-$HOME/.cache/kesher}/kafka
PID_FILE=$CACHE/kafka.pid
STOP_TIMEOUT=${KESHER_KAFKA_STOP_TIMEOUT:-30}

say() { echo "kafka: $*"; }

is_broker() { [[ $(ps -o args= -p "$1" 2>/dev/null) == *kafka.Kafka* ]]; }

# Polls rather than sleeping a fixed time: a clean shutdown usually takes a second or two.
wait_gone() { # pid seconds
  local deadline=$((SECONDS + $2))
  while is_broker "$1"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.1
  done
}

main() {
  [[ -d $CACHE ]] || { say "not running"; return; }
  # start.sh holds the lock already when it stops a broker that never got ready.
  if [[ -z ${_KESHER_KAFKA_LOCK_HELD:-} ]]; then
    exec 9>"$CACHE/.lock"
    flock 9
  fi
  [[ -f $PID_FILE ]] || { say "not running (no pid file)"; return; }
  local pid
  pid=$(<"$PID_FILE")
  # The pid may have been reused by an unrelated process since the broker died.
  if ! [[ $pid =~ ^[0-9]+$ ]] || ! is_broker "$pid"; then
    say "not running (removing the stale pid file)"
    rm -f "$PID_FILE"
    return
  fi
  local started=$SECONDS
  kill -TERM "$pid" 2>/dev/null || true
  if ! wait_gone "$pid" "$STOP_TIMEOUT"; then
    say "pid $pid still running after ${STOP_TIMEOUT}s; killing it"
    kill -KILL "$pid" 2>/dev/null || true
    wait_gone "$pid" 10 || { say "pid $pid survived SIGKILL"; exit 1; }
  fi
  rm -f "$PID_FILE"
  say "stopped (pid $pid, $((SECONDS - started))s)"
}

main
