# shellcheck shell=bash
# Sourced by scripts/bench-postgres (not run on its own): how it starts load, measures CPU and transactions,
# keeps per-round results, and checks what was stored. Uses the caller's globals: work, url, server, bin,
# nginx_pid, hz, us_per_tick, duration, databases, the port/collectors/database maps, and failed.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 200); do (echo >"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done; echo "port $1 never opened" >&2; exit 1; }
cpu_ticks() { local sum=0 pid; for pid in "$@"; do sum=$((sum + $(awk '{print $14 + $15}' "/proc/$pid/stat"))); done; echo "$sum"; }
# Every PostgreSQL server process (postmaster, backends, walwriter, checkpointer, autovacuum, ...): "pid ticks"
# per process into a file, and the delta of two such files per process, so a backend that exits in between
# (a pool closing an idle connection, psql's own) does not count negative and one that starts counts whole.
pg_snapshot() { { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk '$2 == "(postgres)" {print $1, $14 + $15}' >"$work/$1"; }
pg_delta() { awk 'NR == FNR {b[$1] = $2; next} {s += $2 - ($1 in b ? b[$1] : 0)} END {print s + 0}' "$work/$1" "$work/$2"; }
# nginx master and its workers.
nginx_ticks() { { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v m="$nginx_pid" '$1 == m || $4 == m {s += $14 + $15} END {print s + 0}'; }
# Busy ticks of the whole box (all cores), from /proc/stat: everything but idle and iowait.
box_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat; }
# CPU of this shell's finished children (wrk, mostly), in ticks, into $child_ticks: from the `times` builtin,
# which must run in this shell (in a $(...) subshell it would see that subshell's children only).
child_ticks() {
  times >"$work/times"
  child_ticks=$(awk -v hz="$(getconf CLK_TCK)" 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.0f", t * hz }' "$work/times")
}
# The next transaction id: its delta over a run is the number of write transactions in the cluster.
next_xid() { psql_admin -c "SELECT pg_snapshot_xmax(pg_current_snapshot())"; }
compiling() { { cat /proc/[0-9]*/comm 2>/dev/null || true; } | grep -cE '^(swift-frontend|swift-build|swiftc|swift-driver|clang|ld|ld\.gold|ld\.lld)$' || true; }

# Batch "fresh": 1,000 new receipts per request: receipt and device ids unique per run, thread and request (a
# receipt is a retry when its receipt_id, or its push_id + device_id, was seen before).
fresh_lua() { # tag
  cat <<LUA
local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
local n = 0
local headers = { ["Content-Type"] = "application/x-ndjson" }
function request()
  n = n + 1
  local prefix = "$1-" .. tostring(tid) .. "-" .. n .. "-"
  local parts = {}
  for i = 0, 999 do
    parts[i + 1] = '{"push_id":"fresh-' .. (i % 50) .. '","device_id":"' .. prefix .. i .. '","receipt_id":"' .. prefix .. i .. '"}'
  end
  return wrk.format("POST", nil, headers, table.concat(parts, "\n"))
end
LUA
}

# Results, keyed by "phase:name"; lists are space-separated per-round values.
declare -A rps p50 p99 us_collector us_pg us_nginx us_wrk us_other busy per_xact ok sent runs socket_errors non2xx last overlap
to_us='$1 == q { v = $2; m = 1; if (v ~ /ms$/) m = 1000; else if (v ~ /us$/) m = 1; else if (v ~ /s$/) m = 1000000; gsub(/[a-z]/, "", v); printf "%.0f", v * m }'
per() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { printf "%.1f", a * f / (b > 0 ? b : 1) }'; }
run() { # phase name threads connections lua receipts-per-request
  local phase=$1 name=$2 key="$1:$2" c0 c1 pg n0 n1 b0 b1 w0 w1 x0 x1 comp out requests errors sock units other
  comp=$(compiling)
  x0=$(next_xid)
  c0=$(cpu_ticks ${collectors[$name]}); pg_snapshot pg.before; n0=$(nginx_ticks); b0=$(box_ticks); child_ticks; w0=$child_ticks
  out=$(wrk -t"$3" -c"$4" -d"${duration}s" --latency -s "$5" "http://127.0.0.1:${port[$name]}/v1/receipts")
  c1=$(cpu_ticks ${collectors[$name]}); pg_snapshot pg.after; n1=$(nginx_ticks); b1=$(box_ticks); child_ticks; w1=$child_ticks
  pg=$(pg_delta pg.before pg.after)
  x1=$(next_xid)
  comp=$((comp + $(compiling)))
  requests=$(echo "$out" | awk '/requests in/ {print $1}')
  errors=$(echo "$out" | awk '/Non-2xx/ {print $5}'); errors=${errors:-0}
  sock=$(echo "$out" | awk '/Socket errors/ {gsub(/,/, ""); print $4 + $6 + $8 + $10}'); sock=${sock:-0}
  units=$((requests * $6))
  last[$key]=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  rps[$key]+="${last[$key]} "
  p50[$key]+="$(echo "$out" | awk -v q=50% "$to_us") "
  p99[$key]+="$(echo "$out" | awk -v q=99% "$to_us") "
  ok[$key]=$((${ok[$key]:-0} + requests - errors))
  sent[$key]=$((${sent[$key]:-0} + requests))
  runs[$key]=$((${runs[$key]:-0} + 1))
  non2xx[$key]=$((${non2xx[$key]:-0} + errors))
  socket_errors[$key]=$((${socket_errors[$key]:-0} + sock))
  us_collector[$key]+="$(per $((c1 - c0)) "$units" "$us_per_tick") "
  us_pg[$key]+="$(per "$pg" "$units" "$us_per_tick") "
  us_nginx[$key]+="$(per $((n1 - n0)) "$units" "$us_per_tick") "
  us_wrk[$key]+="$(per $((w1 - w0)) "$units" "$us_per_tick") "
  other=$(( (b1 - b0) - (c1 - c0) - pg - (n1 - n0) - (w1 - w0) ))
  us_other[$key]+="$(per "$other" "$units" "$us_per_tick") "
  busy[$key]+="$(awk -v t=$((b1 - b0)) -v hz="$hz" -v d="$duration" -v n="$(nproc)" 'BEGIN { printf "%.0f", 100 * t / hz / d / n }') "
  [[ ${database[$name]} == sqlite ]] || per_xact[$key]+="$(per "$units" $((x1 - x0)) 1) "
  ((comp == 0)) || overlap[$key]=$((${overlap[$key]:-0} + 1))
  if ((errors + sock)); then echo "  $phase $name: $errors non-2xx answers, $sock socket errors (of $requests)" >&2; fi
}
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : "-")}'; }
middle() { echo "$1" | median; }
ratio() { python3 -c "print($1 / $2)"; }
stat_db() { # database -> "commits rollbacks deadlocks"
  psql_admin -F ' ' -c "SELECT xact_commit, xact_rollback, deadlocks FROM pg_stat_database WHERE datname = '$1'"
}
declare -A stats_before stats_after
snapshot_stats() { # which
  local db
  for db in "${databases[@]}"; do
    if [[ $1 == before ]]; then stats_before[$db]=$(stat_db "$db"); else stats_after[$db]=$(stat_db "$db"); fi
  done
}
# Backends publish their statistics at most once a second while busy and up to 10 s after going idle.
settle_stats() { sleep 11; }

describe() {
  case $1 in
    sqlite) echo "sqlite (1 collector)" ;;
    pg1) echo "pg1 (1 collector, PostgreSQL)" ;;
    pg1-lb) echo "pg1-lb (pg1 behind nginx)" ;;
    pg2-lb) echo "pg2-lb (2 collectors, 1 db, nginx)" ;;
    pg4-lb) echo "pg4-lb (4 collectors, 1 db, nginx)" ;;
  esac
}
commits_line() { # label database before after receipts
  local c0 r0 d0 c1 r1 d1
  read -r c0 r0 d0 <<<"$3"
  read -r c1 r1 d1 <<<"$4"
  printf "  %-26s %-10s %8d commits %6d rollbacks %4d deadlocks  %10d receipts acked = %7.1f receipts/commit\n" \
    "$1" "$2" $((c1 - c0)) $((r1 - r0)) $((d1 - d0)) "$5" "$(per "$5" $((c1 - c0)) 1)"
}
report() { # database secret push-prefix -> "displayed duplicates" summed over pushes whose id starts with the prefix
  local args=(--format json --database "$1")
  [[ -n $2 ]] && args+=(--device-secret "$2")
  $bin/pushtally report pushes "${args[@]}" | python3 -c '
import json, sys
pushes = [p for p in json.load(sys.stdin)["pushes"] if p["push_id"] == sys.argv[1] or (sys.argv[1].endswith("-") and p["push_id"].startswith(sys.argv[1]))]
print(sum(p["displayed"] for p in pushes), sum(p["duplicates"] for p in pushes))' "$3"
}
check() { # label database secret push acked sent in-flight-bound unique-expected (a number, "none" for no retries, "")
  local displayed duplicates
  read -r displayed duplicates < <(report "$2" "$3" "$4")
  local verdict=ok
  ((displayed >= $5)) || { verdict="FAILED: fewer receipts stored than acknowledged"; failed=1; }
  ((displayed <= $6 + $7)) || { verdict="FAILED: more receipts stored than sent"; failed=1; }
  if [[ $8 == none ]] && ((duplicates != 0)); then verdict="FAILED: $duplicates fresh receipts counted as retries"; failed=1; fi
  if [[ $8 =~ ^[0-9]+$ ]] && ((displayed - duplicates != $8)); then verdict="FAILED: $((displayed - duplicates)) unique receipts, expected $8"; failed=1; fi
  printf "  %-24s acked %9d  stored %9d  sent <= %9d  duplicates %8d  %s\n" "$1" "$5" "$displayed" $(($6 + $7)) "$duplicates" "$verdict"
  [[ $verdict == ok ]] || echo "$1: $verdict" >&2
}
pg_db() { echo "$server/$1"; }
