# shellcheck shell=bash
# Sourced by scripts/bench (part `prune`): retention on PostgreSQL, pruning 30 of 60 days of raw receipts
# (BENCH_PRUNE_RECEIPTS, 10,000,000 by default; BENCH_PRUNE_SPREAD=campaigns or even, see fill) two ways in one
# run, each on a database of its own filled alike:
#  - partitioned: a database of the earlier, unpartitioned schema, filled, then migrated in place by
#    `pushtally` (day partitions for every day with rows; the migration is timed too), so the prune detaches
#    30 whole days, folds each day's rollup rows into the ledger and drops them;
#  - row by row: the current schema with the same 60 days copied in after start-up, so every row sits in the
#    default partition (no day partition was made for the past) and the prune deletes them in batches as an
#    unpartitioned table is pruned (`DELETE … RETURNING`, folded into the ledger).
# The partitioned database's rollups are counted by `pushtally rollup rebuild` before the prunes, each day's
# receipts into that day's rows as ingest counts them.
# Disk given back: pg_total_relation_size of the raw events' tables (every partition, indexes included), and
# pg_database_size, before and right after (the ledger the fold writes grows the database a little).
# Uses the caller's work, bin and figure.
bench_prune() {
  local url server receipts=${BENCH_PRUNE_RECEIPTS:-10000000} name seconds
  url=$(scripts/postgres)
  server=${url%/*}
  declare -A prune_seconds events_before events_after database_before database_after
  psql_in() { PGOPTIONS="-c client_min_messages=warning" psql "$server/$1" -v ON_ERROR_STOP=1 -Atq "${@:2}"; }
  # 60 days of receipts, displays with a few actions and retries, by BENCH_PRUNE_SPREAD:
  #  campaigns (the default): 40 pushes sent a day, each displayed within two hours of its send, as campaigns are;
  #  even: 40 pushes each displayed evenly over all 60 days, the worst case for the rollups by time bucket (a
  #        push's receipts in every quarter hour of every day), so a day's fold has as many rows as it can.
  fill() {
    local spread=${BENCH_PRUNE_SPREAD:-campaigns} pushes
    local base="(extract(epoch FROM now()) * 1000)::bigint - 3 * 3600000 - 60::bigint * 86400000"
    # sent_at of push number $1 (an SQL expression), and a receipt's time from its number g.
    sent() { [[ $spread == even ]] && echo "$base - 86400000" || echo "$base + ($1)::bigint / 40 * 86400000 + ($1)::bigint % 40 * 2160000"; }
    case $spread in
      campaigns) pushes=2400 ;;
      even) pushes=40 ;;
      *) echo "BENCH_PRUNE_SPREAD must be campaigns or even" >&2; exit 64 ;;
    esac
    local time_of="$(sent "g % $pushes") + (g::bigint * 7919) % 7200000"
    [[ $spread == even ]] && time_of="$base + 2 * 3600000 + 60::bigint * 86400000 - (($receipts - g)::bigint * 60 * 86400000 / $receipts)"
    psql_in "$1" -c "
      INSERT INTO pushes (push_id, campaign, sent_at, created_at, updated_at)
      SELECT 'bench-' || p, 'bench', s, s, s
      FROM generate_series(0, $((pushes - 1))) p, LATERAL (SELECT $(sent p) AS s) t;
      INSERT INTO events (push_id, kind, action, received_at, event_time, duplicate, device_id, platform)
      SELECT 'bench-' || (g % $pushes), CASE WHEN g % 10 = 0 THEN 1 ELSE 0 END, CASE WHEN g % 10 = 0 THEN 'open' ELSE '' END,
             t, t - 1000, g % 50 = 0, 'device-' || (g % 100000), 'ios'
      FROM generate_series(1, $receipts) g, LATERAL (SELECT $time_of AS t) s;
      ANALYZE events;"
  }
  sizes() { # database label
    events_before[$2]=$(psql_in "$1" -c "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c WHERE c.relkind = 'r' AND (c.relname = 'events_default' OR c.relname LIKE 'events\_p%')")
    database_before[$2]=$(psql_in "$1" -c "SELECT pg_database_size(current_database())")
  }
  sizes_after() {
    events_after[$2]=$(psql_in "$1" -c "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c WHERE c.relkind = 'r' AND (c.relname = 'events_default' OR c.relname LIKE 'events\_p%')")
    database_after[$2]=$(psql_in "$1" -c "SELECT pg_database_size(current_database())")
  }
  # The campaign report (best of 5 CLI runs, start-up included) over rollup rows kept per day: every day's
  # rows before the prune, only the kept days' after it (the dropped days' rows moved to the plain shards).
  campaign_report() { # database label
    local best=999 run t
    for run in 1 2 3 4 5; do
      /usr/bin/time -f %e -o "$work/report.time" $bin/pushtally report campaigns --database "$server/$1" >/dev/null
      t=$(tail -1 "$work/report.time")
      best=$(python3 -c "print(min($best, $t))")
    done
    printf "%-28s campaign report %.2fs (best of 5, CLI start-up included), %s live push rollup rows\n" "$2" "$best" \
      "$(psql_in "$1" -c "SELECT count(*) FROM rollup_push")"
  }
  for name in partitioned rows; do
    psql_in postgres -c "DROP DATABASE IF EXISTS bench_prune_$name WITH (FORCE)" -c "CREATE DATABASE bench_prune_$name"
    $bin/pushtally report campaigns --database "$server/bench_prune_$name" >/dev/null
  done
  # The earlier schema: `events` a plain table with its identity key and device index.
  psql_in bench_prune_partitioned -c "
    BEGIN;
    CREATE TABLE events_plain (LIKE events INCLUDING DEFAULTS);
    ALTER TABLE events_plain ADD PRIMARY KEY (id);
    ALTER TABLE events_plain ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY;
    DROP TABLE events, retired_events;
    ALTER TABLE events_plain RENAME TO events;
    ALTER INDEX events_plain_pkey RENAME TO events_pkey;
    CREATE INDEX events_by_device ON events (device_id, event_time) WHERE device_id IS NOT NULL;
    DELETE FROM pushtally_migrations WHERE version = 14;
    COMMIT;"
  echo "== prune 30 of 60 days over $receipts receipts on PostgreSQL (spread: ${BENCH_PRUNE_SPREAD:-campaigns}): partition drop vs row delete"
  for name in partitioned rows; do fill "bench_prune_$name"; done
  /usr/bin/time -f %e -o "$work/migrate.time" $bin/pushtally report campaigns --database "$server/bench_prune_partitioned" \
    >/dev/null 2>"$work/migrate.log"
  seconds=$(tail -1 "$work/migrate.time")
  echo "in-place migration of $receipts receipts into day partitions: ${seconds}s ($(grep -c 'moved' "$work/migrate.log") progress lines)"
  figure "PostgreSQL partition migration, $receipts receipts" "$seconds" s
  # The rollups of the loaded receipts, counted by the collectors' own recount (each day's into its own rows,
  # as ingest writes them), so the drop folds what ingest would have counted. The row delete counts the rows it
  # deletes whatever the rollups hold, so its database is left without them.
  /usr/bin/time -f %e -o "$work/rebuild.time" $bin/pushtally rollup rebuild --database "$server/bench_prune_partitioned" >/dev/null
  echo "rollups rebuilt from $receipts receipts in $(tail -1 "$work/rebuild.time")s"
  figure "PostgreSQL rollup rebuild, $receipts receipts" "$(tail -1 "$work/rebuild.time")" s
  # 30 whole days, as the retention service prunes: the cutoff is the start of the UTC day 30 days back, the
  # same instant for both databases.
  local cutoff
  cutoff=$(python3 -c "import time; print(int(time.time() - 30 * 86400) // 86400 * 86400)")
  for name in partitioned rows; do
    psql_in "bench_prune_$name" -c "VACUUM (ANALYZE) events"
    sizes "bench_prune_$name" "$name"
    campaign_report "bench_prune_$name" "$name before prune"
    /usr/bin/time -f %e -o "$work/prune-$name.time" $bin/pushtally prune --before "$cutoff" --database "$server/bench_prune_$name" >/dev/null
    prune_seconds[$name]=$(tail -1 "$work/prune-$name.time")
    sizes_after "bench_prune_$name" "$name"
    campaign_report "bench_prune_$name" "$name after prune"
    printf "%-12s prune %8.2fs, events %6.0f MB -> %6.0f MB, database %6.0f MB -> %6.0f MB\n" "$name" "${prune_seconds[$name]}" \
      "$(python3 -c "print(${events_before[$name]} / 1e6)")" "$(python3 -c "print(${events_after[$name]} / 1e6)")" \
      "$(python3 -c "print(${database_before[$name]} / 1e6)")" "$(python3 -c "print(${database_after[$name]} / 1e6)")"
  done
  local speedup given_back
  speedup=$(python3 -c "print(${prune_seconds[rows]} / max(${prune_seconds[partitioned]}, 0.01))")
  given_back=$(python3 -c "print((${events_before[partitioned]} - ${events_after[partitioned]}) / max(${events_before[partitioned]}, 1))")
  printf "partition drop / row delete: %.1f x faster (target >= 50 x); raw events' disk space given back at once: %.2f (row delete: %.2f)\n" \
    "$speedup" "$given_back" "$(python3 -c "print((${events_before[rows]} - ${events_after[rows]}) / max(${events_before[rows]}, 1))")"
  figure "PostgreSQL prune 30 of 60 days, partition drop" "${prune_seconds[partitioned]}" s
  figure "PostgreSQL prune 30 of 60 days, row delete" "${prune_seconds[rows]}" s
  figure "PostgreSQL prune, row delete / partition drop" "$speedup" x ">=" 50
  # Half the rows are pruned: a drop gives their share back at once, a delete leaves dead rows for vacuum.
  figure "PostgreSQL prune, raw events' disk space given back at once by the drop" "$given_back" x ">=" 0.4
  # An autovacuum worker on a database cannot be ended by its owner: the drop is tried again once it has gone.
  for name in partitioned rows; do
    for _ in 1 2 3 4 5; do psql_in postgres -c "DROP DATABASE IF EXISTS bench_prune_$name WITH (FORCE)" && break; sleep 2; done
  done
}
