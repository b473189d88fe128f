"""Loads a `pushtally export --out` directory of each format into three readers nobody here wrote, with the
schemas `pushtally export --schema` renders, and holds every row to the feed's own NDJSON.

    python3 load.py SPEC.json

SPEC: {"reference": NDJSON of the feed (GET /v1/events), "parquet": DIR, "ndjson": DIR, "duckdb": DDL file,
"clickhouse": DDL file, "displays": {push_id: the pushes report's displayed_unique}, "campaigns": {campaign: the
campaigns report's sent, failed, displayed_unique and device_delivered}}. Checks each manifest (files, rows,
SHA-256), pyarrow's rows, DuckDB's and chdb's tables loaded from either format (loaded twice: the second load adds
nothing), the unique displays per push against the pushes report, and counts per campaign, from the warehouse's
rows alone (docs/EXPORT.md's recipe), against the campaigns report. Prints a summary; exits 1 on the first
difference, naming it.
"""

import glob
import hashlib
import json
import os
import sys

import chdb.session
import duckdb
import pyarrow.parquet

spec = json.load(open(sys.argv[1]))


def fail(message):
    print(message)
    sys.exit(1)


reference = [json.loads(line) for line in open(spec["reference"]) if line.strip()]
connection = duckdb.connect()
connection.execute(open(spec["duckdb"]).read())
fields = [row[0] for row in connection.execute("DESCRIBE pushtally_events").fetchall()]
expected = [tuple(event.get(field) for field in fields) for event in reference]
summary = {"events": len(expected), "fields": len(fields)}


def files_of(directory):
    manifest = json.load(open(os.path.join(directory, "manifest.json")))
    names = [entry["name"] for entry in manifest["files"]]
    present = sorted(name for name in os.listdir(directory) if not name.startswith(".") and name != "manifest.json")
    if present != sorted(names):
        fail(f"{directory}: files {present} but the manifest lists {names}")
    for entry in manifest["files"]:
        data = open(os.path.join(directory, entry["name"]), "rb").read()
        if hashlib.sha256(data).hexdigest() != entry["sha256"] or len(data) != entry["bytes"]:
            fail(f"{entry['name']}: bytes or SHA-256 differ from the manifest")
    if manifest["rows"] != len(expected) or sum(entry["rows"] for entry in manifest["files"]) != len(expected):
        fail(f"{directory}: the manifest counts {manifest['rows']} rows, the feed holds {len(expected)}")
    if manifest["last_cursor"] != reference[-1]["cursor"]:
        fail(f"{directory}: the manifest ends at {manifest['last_cursor']}, the feed at {reference[-1]['cursor']}")
    summary[os.path.basename(directory) + "_files"] = len(names)
    return [os.path.join(directory, name) for name in names]


parquet_files = files_of(spec["parquet"])
ndjson_files = files_of(spec["ndjson"])

rows = []
for path in parquet_files:
    rows += pyarrow.parquet.read_table(path).to_pylist()
if [tuple(row[field] for field in fields) for row in rows] != expected:
    fail("pyarrow's rows differ from the feed's lines")
if pyarrow.parquet.read_metadata(parquet_files[0]).metadata.get(b"pushtally.schema_version") is None:
    fail("the Parquet files do not name their schema version")

# docs/EXPORT.md's recipe: a push's send figures are its records' newest lines (by push and batch) summed, its
# campaign the one its newest send line names; displays and FCM deliveries count by push.
CAMPAIGNS = """
WITH records AS (
    SELECT *, row_number() OVER (PARTITION BY push_id, batch_id ORDER BY cursor DESC) AS newest,
              row_number() OVER (PARTITION BY push_id ORDER BY cursor DESC) AS newest_of_push
    FROM pushtally_events WHERE type = 'send'),
pushes AS (SELECT push_id, campaign FROM records WHERE newest_of_push = 1),
-- A push with per-device deliveries (batch deliveries:<platform>) is counted from them alone.
sends AS (SELECT push_id, sum(sent) AS sent, sum(failed) AS failed FROM records
          WHERE newest = 1 AND (batch_id LIKE 'deliveries:%' OR push_id NOT IN (
              SELECT push_id FROM records WHERE batch_id LIKE 'deliveries:%'))
          GROUP BY push_id),
displays AS (SELECT push_id, count(*) AS displayed FROM pushtally_events
             WHERE type = 'receipt' AND NOT duplicate GROUP BY push_id),
delivered AS (SELECT push_id, count(*) AS delivered FROM pushtally_events
              WHERE type = 'fcm_delivery' AND event = 'MESSAGE_DELIVERED' GROUP BY push_id)
SELECT pushes.campaign, sum(coalesce(sends.sent, 0)), sum(coalesce(sends.failed, 0)),
       sum(coalesce(displays.displayed, 0)), sum(coalesce(delivered.delivered, 0))
FROM pushes LEFT JOIN sends ON sends.push_id = pushes.push_id
LEFT JOIN displays ON displays.push_id = pushes.push_id
LEFT JOIN delivered ON delivered.push_id = pushes.push_id
GROUP BY pushes.campaign
"""


def check_campaigns(rows, reader):
    counted = {campaign: {"sent": int(sent), "failed": int(failed), "displayed_unique": int(displayed),
                          "device_delivered": int(delivered)}
               for campaign, sent, failed, displayed, delivered in rows}
    if counted != spec["campaigns"]:
        fail(f"counts per campaign from {reader}: {counted}, the campaigns report: {spec['campaigns']}")


loads = {
    "parquet": f"INSERT OR IGNORE INTO pushtally_events BY NAME SELECT * FROM read_parquet({parquet_files!r}, union_by_name = true)",
    "ndjson": f"INSERT OR IGNORE INTO pushtally_events BY NAME SELECT * FROM read_json({ndjson_files!r}, format = 'newline_delimited')",
}
for name, load in loads.items():
    connection.execute("DELETE FROM pushtally_events")
    for _ in range(2):
        connection.execute(load)
    loaded = connection.execute(f"SELECT {', '.join(fields)} FROM pushtally_events ORDER BY cursor").fetchall()
    if loaded != expected:
        fail(f"DuckDB's table loaded from {name} differs from the feed (or a second load added rows)")
    displays = dict(connection.execute(
        "SELECT push_id, count(*) FROM pushtally_events WHERE type = 'receipt' AND NOT duplicate GROUP BY push_id").fetchall())
    if displays != spec["displays"]:
        fail(f"unique displays per push from {name}: {displays}, the pushes report: {spec['displays']}")
    check_campaigns(connection.execute(CAMPAIGNS).fetchall(), f"DuckDB loaded from {name}")
summary["campaigns"] = len(spec["campaigns"])

clickhouse = chdb.session.Session()
clickhouse.query(open(spec["clickhouse"]).read().replace("pushtally_events", "default.pushtally_events", 1))
for path in parquet_files:
    clickhouse.query(f"INSERT INTO default.pushtally_events SELECT * FROM file('{path}', Parquet)")
for path in ndjson_files:
    clickhouse.query(f"INSERT INTO default.pushtally_events SELECT * FROM file('{path}', JSONEachRow)")
loaded = json.loads(str(clickhouse.query(
    f"SELECT {', '.join(fields)} FROM default.pushtally_events FINAL ORDER BY cursor", "JSONCompact")))["data"]
if [tuple(row) for row in loaded] != expected:
    fail("chdb's table, loaded from both formats, differs from the feed")
check_campaigns(json.loads(str(clickhouse.query(
    CAMPAIGNS.replace("FROM pushtally_events", "FROM default.pushtally_events FINAL"), "JSONCompact")))["data"], "chdb")
summary["clickhouse_rows_before_merge"] = int(str(clickhouse.query("SELECT count() FROM default.pushtally_events", "CSV")).strip())
print(json.dumps(summary, sort_keys=True))
