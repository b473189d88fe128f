# shellcheck shell=bash
# Sourced by scripts/bench (part `connections`): the seed request (form POST push_id=123, ack after commit)
# against one PushTally at 64, 512 and 2,048 keep-alive connections (wrk -t2), alternating rounds; the
# ratios are medians of per-round ratios against that round's 64-connection figure, so a machine that drifts
# moves both sides alike. Its resident memory is sampled while the 2,048 connections are open. The collector is
# started for this part, so the figure is what the connections cost, not what malloc kept from the other parts'
# 1,000-receipt bodies; the long-lived collector's peak is its own figure.
bench_connections() {
  # scripts/bench raised the descriptor limit (`ulimit -n`) before it started the servers.
  echo "== connections: $rounds rounds of ${duration}s, wrk -t2 at 64, 512 and 2,048 connections, POST push_id=123 (form)"
  figure "PushTally peak RSS after every earlier part (one long-lived collector)" \
    "$(awk '/VmHWM/ {print $2 / 1024}' "/proc/$pushtally_pid/status")" MB
  local port pid
  port=$(free_port)
  $bin/pushtally serve --port "$port" --database "$work/connections.sqlite" --log-level error >"$work/connections.log" &
  pid=$!
  wait_port "$port"
  local ratio_512="" ratio_2048="" rss_peak=0 round count sampler rss
  for round in $(seq "$rounds"); do
    for count in $( ((round % 2)) && echo "64 512 2048" || echo "2048 512 64"); do
      if [[ $count == 2048 ]]; then
        # The largest resident set seen while the 2,048 connections run (kB), sampled four times a second.
        ( peak=0; while sleep 0.25; do
            rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status"); ((rss > peak)) && peak=$rss && echo "$peak" >"$work/rss"
          done ) &
        sampler=$!
      fi
      wrk_connections=$count run "c$count" "$port" "$pid"
      if [[ $count == 2048 ]]; then
        kill "$sampler"; wait "$sampler" 2>/dev/null || true
        rss=$(cat "$work/rss" 2>/dev/null || echo 0); ((rss > rss_peak)) && rss_peak=$rss
      fi
    done
    ratio_512+="$(python3 -c "print(${last[c512]} / ${last[c64]})") "
    ratio_2048+="$(python3 -c "print(${last[c2048]} / ${last[c64]})") "
    echo "round $round: 64 ${last[c64]}, 512 ${last[c512]}, 2,048 ${last[c2048]} req/s"
  done
  printf "%-40s %10s %8s %8s %14s\n" connections "req/s" "p50 us" "p99 us" "CPU/request"
  for count in 64 512 2048; do
    printf "%-40s %10.0f %8s %8s %11s us\n" "PushTally, $count connections" "$(echo "${rps[c$count]}" | median)" \
      "$(echo "${p50[c$count]}" | median)" "$(echo "${p99[c$count]}" | median)" "$(echo "${cpu[c$count]}" | median)"
  done
  printf "512 / 64 connections = %.2f x, 2,048 / 64 connections = %.2f x (medians of per-round ratios); RSS at 2,048: %d MB\n" \
    "$(echo "$ratio_512" | median)" "$(echo "$ratio_2048" | median)" "$((rss_peak / 1024))"
  figure "PushTally, 512 connections" "$(echo "${rps[c512]}" | median)" "req/s"
  figure "PushTally, 2,048 connections" "$(echo "${rps[c2048]}" | median)" "req/s"
  figure "512 / 64 connections" "$(echo "$ratio_512" | median)" x ">=" 0.9
  figure "2,048 / 64 connections" "$(echo "$ratio_2048" | median)" x ">=" 0.9
  figure "PushTally RSS at 2,048 connections" "$(python3 -c "print($rss_peak / 1024)")" MB "<=" 100
  # Every 2xx must be in the database, whichever part answered it.
  local stored answered=$(( ${ok[c64]} + ${ok[c512]} + ${ok[c2048]} ))
  stored=$($bin/pushtally report push 123 --format json --database "$work/connections.sqlite" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["pushes"][0]["displayed"])')
  echo "connections: 2xx answered $answered, rows stored $stored"
  [[ $stored -ge $answered ]] || { echo "FAILED: fewer rows than acknowledgements" >&2; exit 1; }
}
