# Sourced by scripts/bench (part `sessions`): the session ingest rate beside the receipt rate, the same shape
# (single form POSTs, wrk -t2 -c64) against the same PushTally, alternating rounds; the ratio is the median of
# per-round ratios, so a machine that drifts moves both sides alike. Sessions carry what the route requires:
# a device (one of 100,000, so devices come back and each session is attributed against a device history)
# and a session id never sent before, so each is a new raw row, not a recognised retry.
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
  echo "== session ingest beside receipts: $rounds rounds of ${duration}s, wrk -t2 -c64, single form POSTs"
  local ratio_sessions="" round name
  for round in $(seq "$rounds"); do
    session_script "$round"
    for name in $( ((round % 2)) && echo "receipts sessions" || echo "sessions receipts"); do
      case $name in
        receipts) run receipts "$pushtally_port" "$pushtally_pid" ;;
        sessions) run sessions "$pushtally_port" "$pushtally_pid" "$work/session.lua" /v1/sessions ;;
      esac
    done
    ratio_sessions+="$(python3 -c "print(${last[sessions]} / ${last[receipts]})") "
    echo "round $round: receipts ${last[receipts]}, sessions ${last[sessions]} req/s"
  done
  printf "%-40s %10s %8s %8s %14s\n" route "req/s" "p50 us" "p99 us" "CPU/request"
  local kind label
  for kind in receipts sessions; do
    label="PushTally POST /v1/$kind (form)"
    printf "%-40s %10.0f %8s %8s %11s us\n" "$label" "$(echo "${rps[$kind]}" | median)" \
      "$(echo "${p50[$kind]}" | median)" "$(echo "${p99[$kind]}" | median)" "$(echo "${cpu[$kind]}" | median)"
  done
  printf "sessions / receipts = %.2f x (median of per-round ratios)\n" "$(echo "$ratio_sessions" | median)"
  figure "sessions, 64 connections" "$(echo "${rps[sessions]}" | median)" "req/s"
  figure "sessions / receipts (req/s)" "$(echo "$ratio_sessions" | median)" x
  # Every acknowledged session must be in the database, counted once.
  local stored
  stored=$($bin/pushtally report attribution --format json --database "$work/pushtally.sqlite" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["attribution"][0]["sessions"])')
  echo "sessions: 2xx answered ${ok[sessions]}, sessions stored $stored (>= because wrk stops counting mid-flight)"
  [[ $stored -ge ${ok[sessions]} ]] || { echo "FAILED: fewer sessions than acknowledgements" >&2; exit 1; }
}
