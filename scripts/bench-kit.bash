# shellcheck shell=bash
# Sourced by scripts/bench (part `kit`): receipts as the Kit sends them (a device id and a receipt id, each
# device displaying a push once) into a collector on PostgreSQL whose events table has 30 day partitions
# behind today, as one 30 days into its retention window has, beside the same receipts into the SQLite
# collector, alternating rounds. Each round posts fresh pushes (one per 500 receipts of a wrk thread), so no
# receipt is a retry. Uses the caller's work, bin, pushtally_port/pushtally_pid, run, median, figure, pg_admin and
# postgres_collector.
bench_kit() {
  local database=bench_part_kit round name ratio="" stored
  postgres_collector "$database"
  # Empty day partitions for the 30 days before today (the collector creates today's and the days ahead).
  psql "$pg_server/$database" -v ON_ERROR_STOP=1 -Atq -c "
    DO \$\$ DECLARE day int; start bigint; BEGIN
      FOR day IN 2..31 LOOP
        start := (floor(extract(epoch FROM now()) / 86400)::bigint - day) * 86400000;
        EXECUTE format('CREATE TABLE events_bench_past_%s PARTITION OF events FOR VALUES FROM (%s) TO (%s)',
          day, start, start + 86400000);
      END LOOP;
    END \$\$"
  echo "== Kit receipts (device and receipt ids) on PostgreSQL with 30 past day partitions beside SQLite: $rounds rounds of ${duration}s, wrk -t2 -c64"
  for round in $(seq "$rounds"); do
    cat >"$work/kit.lua" <<LUA
local counter, threads = 0, 0
function setup(thread) threads = threads + 1; thread:set("id", threads) end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
function request()
  counter = counter + 1
  local body = string.format("push_id=k$round-t%d-%d&device_id=d%d&receipt_id=r$round-t%d-%d",
    id, math.floor(counter / 500), counter % 100000, id, counter)
  return wrk.format(nil, "/v1/receipts", nil, body)
end
LUA
    for name in $( ((round % 2)) && echo "kit_postgres kit_sqlite" || echo "kit_sqlite kit_postgres"); do
      case $name in
        kit_postgres) run kit_postgres "$pg_port" "$pg_pid" "$work/kit.lua" ;;
        kit_sqlite) run kit_sqlite "$pushtally_port" "$pushtally_pid" "$work/kit.lua" ;;
      esac
    done
    ratio+="$(python3 -c "print(${last[kit_postgres]} / ${last[kit_sqlite]})") "
    echo "round $round: PostgreSQL ${last[kit_postgres]}, SQLite ${last[kit_sqlite]} req/s"
  done
  printf "%-40s %10s %8s %8s %14s\n" collector "req/s" "p50 us" "p99 us" "CPU/request"
  for name in kit_postgres kit_sqlite; do
    printf "%-40s %10.0f %8s %8s %11s us\n" "Kit receipts on $([[ $name == kit_postgres ]] && echo PostgreSQL || echo SQLite)" \
      "$(echo "${rps[$name]}" | median)" "$(echo "${p50[$name]}" | median)" "$(echo "${p99[$name]}" | median)" \
      "$(echo "${cpu[$name]}" | median)"
  done
  printf "PostgreSQL / SQLite Kit receipts = %.2f x (median of per-round ratios)\n" "$(echo "$ratio" | median)"
  figure "PostgreSQL Kit receipts, 30 past partitions" "$(echo "${rps[kit_postgres]}" | median)" "req/s"
  figure "PostgreSQL / SQLite Kit receipts" "$(echo "$ratio" | median)" x
  # Every acknowledged receipt is stored once: each carried a receipt id never sent before.
  kill "$pg_pid"
  wait "$pg_pid" 2>/dev/null || true
  stored=$(psql "$pg_server/$database" -Atq -c "SELECT count(*) FROM events WHERE NOT duplicate")
  pg_admin -c "DROP DATABASE IF EXISTS $database WITH (FORCE)"
  echo "PostgreSQL Kit receipts: 2xx answered ${ok[kit_postgres]}, rows stored $stored (>= because wrk stops counting mid-flight)"
  [[ $stored -ge ${ok[kit_postgres]} ]] || { echo "FAILED: fewer rows than acknowledgements" >&2; exit 1; }
  # The SQLite collector keeps running for later parts; a reader sees every commit in its WAL.
  stored=$(python3 -c "import sqlite3; print(sqlite3.connect('$work/pushtally.sqlite').execute(
    \"SELECT count(*) FROM events WHERE push_id LIKE 'k%' AND NOT duplicate\").fetchone()[0])")
  echo "SQLite Kit receipts: 2xx answered ${ok[kit_sqlite]}, rows stored $stored (>= because wrk stops counting mid-flight)"
  [[ $stored -ge ${ok[kit_sqlite]} ]] || { echo "FAILED: fewer SQLite rows than acknowledgements" >&2; exit 1; }
}
