# shellcheck shell=bash
# Sourced by scripts/bench (part `sessions`): the session ingest rate beside the receipt rate, the same shape
# (single form POSTs, wrk -t2 -c64) against the same PushTally, and sessions against a collector on PostgreSQL
# (the local cluster, scripts/postgres, a fresh database of its own dropped afterwards), all in the same
# alternating rounds; each ratio is the median of per-round ratios, so a machine that drifts moves both sides
# alike. Sessions carry what the route requires: a device (one of 100,000, so devices come back and each session
# is attributed against a device history) and a session id never sent before, so each is a new raw row, not a
# recognised retry. Uses the caller's work, bin, pushtally_port/pushtally_pid, run, median, figure and
# postgres_collector.
bench_sessions() {
  # wrk starts every round afresh (its counters too): the round goes into the ids, or later rounds would
  # send the first round's sessions again, as retries.
  session_script() {
    cat >"$work/session.lua" <<LUA
local round = $1
local counter, threads = 0, 0
function setup(thread) threads = threads + 1; thread:set("id", threads) end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
function request()
  counter = counter + 1
  local body = string.format("device_id=d%d&session_id=r%d-t%d-%d", (counter * 7919 + id) % 100000, round, id, counter)
  return wrk.format(nil, "/v1/sessions", nil, body)
end
LUA
  }
  local database=bench_part_sessions
  postgres_collector "$database"
  echo "== session ingest beside receipts, and on PostgreSQL: $rounds rounds of ${duration}s, wrk -t2 -c64, single form POSTs"
  local ratio_sessions="" ratio_postgres="" round name order
  for round in $(seq "$rounds"); do
    session_script "$round"
    case $((round % 3)) in
      1) order="receipts sessions sessions_pg" ;;
      2) order="sessions_pg sessions receipts" ;;
      0) order="sessions receipts sessions_pg" ;;
    esac
    for name in $order; do
      case $name in
        receipts) run receipts "$pushtally_port" "$pushtally_pid" ;;
        sessions) run sessions "$pushtally_port" "$pushtally_pid" "$work/session.lua" /v1/sessions ;;
        sessions_pg) run sessions_pg "$pg_port" "$pg_pid" "$work/session.lua" /v1/sessions ;;
      esac
    done
    ratio_sessions+="$(python3 -c "print(${last[sessions]} / ${last[receipts]})") "
    ratio_postgres+="$(python3 -c "print(${last[sessions_pg]} / ${last[sessions]})") "
    echo "round $round: receipts ${last[receipts]}, sessions ${last[sessions]}, PostgreSQL sessions ${last[sessions_pg]} req/s"
  done
  printf "%-40s %10s %8s %8s %14s\n" route "req/s" "p50 us" "p99 us" "CPU/request"
  local kind label
  for kind in receipts sessions sessions_pg; do
    case $kind in
      receipts) label="PushTally POST /v1/receipts (form)" ;;
      sessions) label="PushTally POST /v1/sessions (form)" ;;
      sessions_pg) label="PostgreSQL POST /v1/sessions (form)" ;;
    esac
    printf "%-40s %10.0f %8s %8s %11s us\n" "$label" "$(echo "${rps[$kind]}" | median)" \
      "$(echo "${p50[$kind]}" | median)" "$(echo "${p99[$kind]}" | median)" "$(echo "${cpu[$kind]}" | median)"
  done
  printf "sessions / receipts = %.2f x (median of per-round ratios; target >= 0.8 x)\n" "$(echo "$ratio_sessions" | median)"
  printf "PostgreSQL sessions / SQLite sessions = %.2f x (median of per-round ratios; target >= 0.5 x)\n" \
    "$(echo "$ratio_postgres" | median)"
  figure "sessions, 64 connections" "$(echo "${rps[sessions]}" | median)" "req/s"
  figure "sessions / receipts (req/s)" "$(echo "$ratio_sessions" | median)" x ">=" 0.8
  figure "PostgreSQL sessions, 64 connections" "$(echo "${rps[sessions_pg]}" | median)" "req/s"
  figure "PostgreSQL sessions / SQLite sessions (req/s)" "$(echo "$ratio_postgres" | median)" x ">=" 0.5
  # Every acknowledged session must be in the database, counted once.
  local stored
  stored=$($bin/pushtally report attribution --format json --database "$work/pushtally.sqlite" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["attribution"][0]["sessions"])')
  echo "sessions: 2xx answered ${ok[sessions]}, sessions stored $stored (>= because wrk stops counting mid-flight)"
  [[ $stored -ge ${ok[sessions]} ]] || { echo "FAILED: fewer sessions than acknowledgements" >&2; exit 1; }
  # The PostgreSQL collector commits what it acknowledged before it exits.
  kill "$pg_pid"
  wait "$pg_pid" 2>/dev/null || true
  stored=$($bin/pushtally report attribution --format json --database "$pg_server/$database" \
    --device-secret "$work/$database.secret" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["attribution"][0]["sessions"])')
  pg_admin -c "DROP DATABASE IF EXISTS $database WITH (FORCE)"
  echo "PostgreSQL sessions: 2xx answered ${ok[sessions_pg]}, sessions stored $stored (>= because wrk stops counting mid-flight)"
  [[ $stored -ge ${ok[sessions_pg]} ]] || { echo "FAILED: fewer PostgreSQL sessions than acknowledgements" >&2; exit 1; }
}
