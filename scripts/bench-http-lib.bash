# What the benchmarks that drive one server at a time over loopback share (bench, bench-ab, bench-budget,
# bench-log-pages, bench-series, bench-threads). Sourced, not run; a caller that uses wrk_checked sets `work` (its
# scratch folder, scratch_folder makes one) first.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# Up to 30 s: a fresh server migrates its database before it listens, slower on a box busy with other work.
wait_port() { for _ in $(seq 600); do (echo >"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done; echo "port $1 never opened" >&2; exit 1; }
# A process's (or, given /proc/PID/task/TID, a thread's) user and system CPU, in clock ticks. The fields are
# counted from the end of the name, which may hold spaces and parentheses.
cpu_ticks() {
  local path=$1 stat
  [[ $path == /* ]] || path=/proc/$path
  stat=$(<"$path/stat")
  awk '{print $12 + $13}' <<<"${stat##*) }"
}
fail() { echo "FAILED: $*" >&2; exit 1; }

# release_binaries BUILD: sets `bin` to the folder holding pushtally and bare-durable-baseline, BUILD's
# .build/release or BUILD itself; exits 64 when neither holds both.
release_binaries() {
  local d
  for d in "$1/.build/release" "$1"; do
    [[ -x $d/pushtally && -x $d/bare-durable-baseline ]] && { bin=$(realpath "$d"); return; }
  done
  echo "no pushtally and bare-durable-baseline in $1" >&2; exit 64
}

# scratch_folder: sets `work` to a new folder that goes, with the server `server_pid` names, when the script ends.
scratch_folder() {
  work=$(mktemp -d)
  server_pid=""
  trap 'stop_scratch' EXIT
  trap 'exit 130' INT TERM
}
stop_scratch() {
  [[ -n $server_pid ]] && { kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; }
  rm -rf "$work"
}

# us_per_request TICKS_BEFORE TICKS_AFTER REQUESTS: CPU microseconds a request.
us_per_request() { python3 -c "print(($2 - $1) * 1e6 / $(getconf CLK_TCK) / max($3, 1))"; }

# write_form_script FILE BODY: a wrk script posting BODY as a form, the extension's classic receipt.
write_form_script() {
  cat >"$1" <<LUA
wrk.method = "POST"
wrk.body = "$2"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
LUA
}

# start_server KIND BIN DIR: `pushtally serve` (KIND pushtally) or the bare durable baseline (KIND baseline) from
# the folder BIN, on a fresh SQLite file in DIR and a free port; sets server_pid and server_port once it listens.
start_server() {
  server_port=$(free_port)
  if [[ $1 == pushtally ]]; then
    (cd "$3" && exec "$2/pushtally" serve --port "$server_port" --database "$3/db.sqlite" --log-level error) >"$3/log" 2>&1 &
  else
    (cd "$3" && exec "$2/bare-durable-baseline" "$server_port" "$3/db.sqlite") >"$3/log" 2>&1 &
  fi
  server_pid=$!
  wait_port "$server_port"
}

# wrk_checked SECONDS PORT [SCRIPT [PATH]]: wrk -t2 -c64 with its latency (the receipt form in $work/form.lua to
# /v1/receipts by default); fails on any non-2xx answer or socket error; prints wrk's output.
wrk_checked() {
  local out
  out=$(timeout $(($1 + 30)) wrk -t2 -c64 -d"$1s" --latency -s "${3:-$work/form.lua}" "http://127.0.0.1:$2${4:-/v1/receipts}") ||
    fail "wrk exited $?"
  if grep -q 'Non-2xx' <<<"$out" || grep -q 'Socket errors' <<<"$out"; then echo "$out" >&2; fail "wrk saw errors"; fi
  echo "$out"
}
