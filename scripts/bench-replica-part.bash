# shellcheck shell=bash
# Sourced by scripts/bench (part `replica`): single receipts (the form POST, wrk -t2 -c64) into a collector on
# PostgreSQL while a dashboard-like report load (wrk -t1 -c4 on the campaigns report over 200 registered
# pushes) runs beside it, read from a streaming standby (`serve --read-database`, a standby made by
# `scripts/postgres standby`) in one half of each round and from the primary in the other, alternating which
# goes first. The ratio, ingest with reports on the replica over ingest with reports on the primary, is the
# median of per-round ratios. On one box the standby shares the cores with the primary, so this measures what
# moving the reads costs or saves here; on separate machines the replica's reads leave the primary's CPU alone.
# Uses the caller's work, bin, run, median, free_port, wait_port and figure.
bench_replica() {
  local url server database=bench_part_replica standby_url standby=bench_replica standby_port reader_port reader_pid
  local primary_port primary_pid token round name ratio="" reports source i
  url=$(scripts/postgres)
  server=${url%/*}
  admin() { PGOPTIONS="-c client_min_messages=warning" psql "$url" -v ON_ERROR_STOP=1 -Atq "$@"; }
  admin -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" -c "CREATE DATABASE $database"
  standby_port=$(free_port)
  scripts/postgres drop-standby "$standby" 2>/dev/null || true
  standby_url=$(scripts/postgres standby "$standby" "$standby_port")
  standby_url=${standby_url%/*}/$database
  # Two collectors on one database: reports asked of `reader` go to the standby, those asked of `primary` do not;
  # ingest always goes to `primary`.
  primary_port=$(free_port)
  $bin/pushtally serve --port "$primary_port" --database "$server/$database" --device-secret "$work/replica.secret" \
    --log-level error >"$work/replica-primary.log" 2>&1 &
  primary_pid=$!
  wait_port "$primary_port"
  token=$(grep -o 'pt_[0-9a-zA-Z_]*' "$work/replica-primary.log" | head -1)
  reader_port=$(free_port)
  $bin/pushtally serve --port "$reader_port" --database "$server/$database" --device-secret "$work/replica.secret" \
    --read-database "$standby_url" --log-level error >"$work/replica-reader.log" 2>&1 &
  reader_pid=$!
  wait_port "$reader_port"
  for i in $(seq 200); do
    curl -sf -X PUT "http://127.0.0.1:$primary_port/v1/pushes/r$i" -H "Authorization: Bearer $token" \
      -H 'Content-Type: application/json' -d "{\"campaign\": \"c$((i % 20))\", \"sent\": 1000}" >/dev/null
  done
  cat >"$work/report.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $token"
LUA
  # The standby must have replayed the registrations before the reader's reports can come from it.
  for _ in $(seq 600); do
    source=$(curl -s -o /dev/null -D - -H "Authorization: Bearer $token" "http://127.0.0.1:$reader_port/v1/reports/campaigns" \
      | awk 'tolower($1) == "pushtally-read-source:" {print $2}' | tr -d '\r')
    [[ $source == replica ]] && break
    sleep 0.1
  done
  [[ $source == replica ]] || { echo "FAILED: the standby never served reports" >&2; exit 1; }
  echo "== ingest with a report load on the replica vs on the primary: $rounds rounds of ${duration}s, wrk -t2 -c64 receipts + wrk -t1 -c4 reports"
  for round in $(seq "$rounds"); do
    for name in $( ((round % 2)) && echo "replica primary" || echo "primary replica"); do
      reports=$([[ $name == replica ]] && echo "$reader_port" || echo "$primary_port")
      wrk -t1 -c4 -d"${duration}s" -s "$work/report.lua" "http://127.0.0.1:$reports/v1/reports/campaigns" >"$work/reports-$name.out" &
      run "reports-on-$name" "$primary_port" "$primary_pid"
      wait $!
      echo "  reports on the $name: $(awk '/Requests\/sec/ {print $2}' "$work/reports-$name.out") reports/s"
    done
    ratio+="$(python3 -c "print(${last[reports-on-replica]} / ${last[reports-on-primary]})") "
    echo "round $round: ingest ${last[reports-on-replica]} req/s with reports on the replica, ${last[reports-on-primary]} with them on the primary"
  done
  printf "ingest with reports on the replica / on the primary = %.2f x (median of per-round ratios)\n" "$(echo "$ratio" | median)"
  figure "ingest with reports on the replica, 64 connections" "$(echo "${rps[reports-on-replica]}" | median)" "req/s"
  figure "ingest with reports on the primary, 64 connections" "$(echo "${rps[reports-on-primary]}" | median)" "req/s"
  figure "ingest, reports on replica / on primary" "$(echo "$ratio" | median)" x
  kill "$primary_pid" "$reader_pid"
  wait "$primary_pid" "$reader_pid" 2>/dev/null || true
  scripts/postgres drop-standby "$standby" 2>/dev/null || true
  admin -c "DROP DATABASE IF EXISTS $database WITH (FORCE)"
}
