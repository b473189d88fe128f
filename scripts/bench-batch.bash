# The `batch` part of scripts/bench (sourced; uses its $work, $bin, $duration, $rounds, $pushtally_port,
# figure and median): HTTP batch ingest against PushTally, and the same store's in-process batch rate in the
# same rounds, so their ratio is measured on one machine state.
#  - fresh NDJSON batches of 100 receipts never seen before (1,000 registered pushes, device_id + receipt_id),
#    alternating rounds with the store benchmark's in-process batches of the same shape
#    (`pushtally-store-bench --only store --shape 1`): the ratio is the HTTP layer's cost on batch ingest.
#    Each HTTP round runs against a collector started on a fresh database, as each in-process round builds a
#    fresh store: the writer's cost per receipt grows with the dedupe index (in-process, 21k receipts/s over
#    the first 100,000 and 14k over the first 300,000), so a database that grew through earlier rounds would
#    measure the index's size, not the HTTP layer. The long-lived collector's rate is its own figure;
#  - fresh NDJSON batches of 1,000 (50 unregistered pushes: pending timing), and the same 1,000 retried,
#    plain and gzip (recognised as duplicates).
bench_batch() {
  local out r
  # Registered with sent_at as backends do at send time, as the in-process benchmark registers its pushes,
  # so both time receipts at once.
  python3 -c '
import json, time
sent = int(time.time()) - 600
print("\n".join(json.dumps({"push_id": f"fresh-{p}", "campaign": f"campaign-{p % 50}", "sent_at": sent, "sent": 10000}) for p in range(1000)))' \
    >"$work/pushes.ndjson"
  register_fresh_pushes "$pushtally_port" "$work/serve.log"
  fresh_lua 100 'fresh-%d' 1000 >"$work/fresh100.lua"
  fresh_lua 1000 'batch-%d' 50 >"$work/fresh.lua"

  echo "== batch ingest: fresh NDJSON batches of 100 (wrk -t2 -c64, a fresh collector each round) vs in-process store batches, $rounds rounds"
  local http_rates="" store_rates="" ratios="" http store port pid
  for round in $(seq "$rounds"); do
    port=$(free_port)
    $bin/pushtally serve --port "$port" --database "$work/batch-$round.sqlite" --log-level error >"$work/batch-$round.log" &
    pid=$!
    wait_port "$port"
    register_fresh_pushes "$port" "$work/batch-$round.log"
    out=$(wrk -t2 -c64 -d"${duration}s" -s "$work/fresh100.lua" "http://127.0.0.1:$port/v1/receipts")
    kill "$pid"; wait "$pid" 2>/dev/null || true
    http=$(echo "$out" | awk '/Requests\/sec/ {print $2 * 100}')
    store=$($bin/pushtally-store-bench --ingest 100000 --only store --shape 1 --report-receipts 0 --dir "$work/inproc-$round" |
      awk -F'\t' '$1 == "FIGURE" && $2 ~ /^in-process store batches/ {print $3}')
    http_rates+="$http " store_rates+="$store " ratios+="$(python3 -c "print($http / $store)") "
    echo "round $round: HTTP fresh batches of 100 $http receipts/s, in-process store batches $store receipts/s"
  done
  figure "HTTP fresh NDJSON batches of 100" "$(echo "$http_rates" | median)" "receipts/s"
  figure "in-process store batches beside HTTP, with device_id + receipt_id" "$(echo "$store_rates" | median)" "receipts/s"
  figure "HTTP fresh batches / in-process store batches" "$(echo "$ratios" | median)" x ">=" 0.8
  out=$(wrk -t2 -c64 -d"${duration}s" -s "$work/fresh100.lua" "http://127.0.0.1:$pushtally_port/v1/receipts")
  figure "HTTP fresh NDJSON batches of 100, long-lived collector (database grown by earlier parts)" \
    "$(echo "$out" | awk '/Requests\/sec/ {print $2 * 100}')" "receipts/s"

  echo "== batch ingest: 1,000 receipts per request (NDJSON, and gzip NDJSON), wrk -t2 -c16"
  python3 - "$work" <<'PY'
import gzip, json, sys, uuid
lines = "\n".join(json.dumps({"push_id": f"batch-{i % 50}", "device_id": f"d{i}", "receipt_id": str(uuid.uuid4())}) for i in range(1000))
open(f"{sys.argv[1]}/batch.ndjson", "w").write(lines)
open(f"{sys.argv[1]}/batch.ndjson.gz", "wb").write(gzip.compress(lines.encode()))
PY
  out=$(wrk -t2 -c16 -d"${duration}s" -s "$work/fresh.lua" "http://127.0.0.1:$pushtally_port/v1/receipts")
  r=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  python3 -c "print(f'fresh ndjson: {$r:.1f} requests/s = {$r*1000:.0f} receipts/s (every receipt new)')"
  figure "HTTP fresh NDJSON batches of 1,000" "$(python3 -c "print($r * 1000)")" "receipts/s"
  local variant file encoding
  for variant in ndjson gzip; do
    file="$work/batch.ndjson"; encoding=""
    [[ $variant == gzip ]] && { file="$work/batch.ndjson.gz"; encoding='wrk.headers["Content-Encoding"] = "gzip"'; }
    cat >"$work/batch.lua" <<LUA
local f = io.open("$file", "rb"); wrk.body = f:read("*all"); f:close()
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-ndjson"
$encoding
LUA
    out=$(wrk -t2 -c16 -d"${duration}s" -s "$work/batch.lua" "http://127.0.0.1:$pushtally_port/v1/receipts")
    r=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    python3 -c "print(f'retried $variant: {$r:.1f} requests/s = {$r*1000:.0f} receipts/s (the same 1,000 receipts again and again, recognised as duplicates)')"
  done
}

# Registers the pushes of $work/pushes.ndjson on the collector at port $1, with the admin token its log $2 printed.
register_fresh_pushes() {
  local token
  token=$(grep -o 'pt_[0-9a-f_]*' "$2" | head -1)
  curl -fsS -X POST "http://127.0.0.1:$1/v1/pushes" -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/x-ndjson' --data-binary @"$work/pushes.ndjson" >/dev/null
}

# A wrk script whose every request carries $1 receipts never seen before (ids from a per-thread counter and
# the round's start time, so rounds never repeat one), over $3 pushes named by the format $2: each receipt
# is a new raw row, new dedupe keys and rollup upserts, what a collector does for new traffic.
fresh_lua() {
  cat <<LUA
local counter, threads, run = 0, 0, tostring(os.time())
function setup(thread) threads = threads + 1; thread:set("id", threads) end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-ndjson"
function request()
  counter = counter + 1
  local lines = {}
  for i = 1, $1 do
    local n = string.format("%s-%d-%d-%d", run, id, counter, i)
    lines[i] = string.format('{"push_id":"$2","device_id":"t%s","receipt_id":"t%s"}', (counter * $1 + i) % $3, n, n)
  end
  return wrk.format(nil, nil, nil, table.concat(lines, "\n"))
end
LUA
}
