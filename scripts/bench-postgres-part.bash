# shellcheck shell=bash
# Sourced by scripts/bench (part `postgres`): single receipts (the form POST, wrk -t2 -c64) against one collector
# on PostgreSQL (the local cluster, scripts/postgres, a database of its own dropped afterwards) beside the SQLite
# collector the `http` part measures, alternating rounds; the ratio is the median of per-round ratios. Both
# acknowledge only after their group commit is durable (SQLite synchronous=FULL, PostgreSQL synchronous_commit=on).
# Uses the caller's work, bin, pushtally_port/pushtally_pid, run, median, free_port, wait_port and figure.

# postgres_collector DATABASE: a fresh database of that name on the local cluster (scripts/postgres) and a collector
# serving it, its device secret and log named after the database; sets pg_server, pg_port and pg_pid.
postgres_collector() {
  pg_url=$(scripts/postgres)
  pg_server=${pg_url%/*}
  pg_admin -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1"
  pg_port=$(free_port)
  $bin/pushtally serve --port "$pg_port" --database "$pg_server/$1" --device-secret "$work/$1.secret" \
    --log-level error >"$work/$1.log" 2>&1 &
  pg_pid=$!
  wait_port "$pg_port"
}
pg_admin() { PGOPTIONS="-c client_min_messages=warning" psql "$pg_url" -v ON_ERROR_STOP=1 -Atq "$@"; }

bench_postgres() {
  local database=bench_part_postgres round name ratio_postgres="" stored
  postgres_collector "$database"
  echo "== PostgreSQL single receipts beside SQLite: $rounds rounds of ${duration}s, wrk -t2 -c64, POST push_id=123 (form)"
  for round in $(seq "$rounds"); do
    for name in $( ((round % 2)) && echo "postgres sqlite" || echo "sqlite postgres"); do
      case $name in
        postgres) run postgres "$pg_port" "$pg_pid" ;;
        sqlite) run sqlite "$pushtally_port" "$pushtally_pid" ;;
      esac
    done
    ratio_postgres+="$(python3 -c "print(${last[postgres]} / ${last[sqlite]})") "
    echo "round $round: PostgreSQL ${last[postgres]}, SQLite ${last[sqlite]} req/s"
  done
  printf "%-40s %10s %8s %8s %14s\n" collector "req/s" "p50 us" "p99 us" "CPU/request"
  for name in postgres sqlite; do
    printf "%-40s %10.0f %8s %8s %11s us\n" "PushTally on $([[ $name == postgres ]] && echo PostgreSQL || echo SQLite)" \
      "$(echo "${rps[$name]}" | median)" "$(echo "${p50[$name]}" | median)" "$(echo "${p99[$name]}" | median)" \
      "$(echo "${cpu[$name]}" | median)"
  done
  local peak_mb
  peak_mb=$(awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$pg_pid/status")
  printf "PostgreSQL / SQLite = %.2f x (median of per-round ratios; target >= 0.5 x), PostgreSQL collector peak RSS %s MB\n" \
    "$(echo "$ratio_postgres" | median)" "$peak_mb"
  figure "PostgreSQL single receipts, 64 connections" "$(echo "${rps[postgres]}" | median)" "req/s"
  figure "PostgreSQL / SQLite single receipts" "$(echo "$ratio_postgres" | median)" x ">=" 0.5
  figure "PostgreSQL collector peak RSS" "$peak_mb" MB "<=" 100
  # Every 2xx must be in the database (the collector commits what it acknowledged before it exits).
  kill "$pg_pid"
  wait "$pg_pid" 2>/dev/null || true
  stored=$($bin/pushtally report push 123 --format json --database "$pg_server/$database" --device-secret "$work/$database.secret" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["pushes"][0]["displayed"])')
  pg_admin -c "DROP DATABASE IF EXISTS $database WITH (FORCE)"
  echo "PostgreSQL: 2xx answered ${ok[postgres]}, rows stored $stored (>= because wrk stops counting mid-flight)"
  [[ $stored -ge ${ok[postgres]} ]] || { echo "FAILED: fewer rows than acknowledgements" >&2; exit 1; }
}
