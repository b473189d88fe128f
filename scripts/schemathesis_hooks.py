"""Schemathesis hooks for PushTally's docs/openapi.yaml, loaded by every run that follows schemathesis.toml:

    PYTHONPATH=scripts SCHEMATHESIS_HOOKS=schemathesis_hooks schemathesis --config-file schemathesis.toml \
        run docs/openapi.yaml --url http://127.0.0.1:8080

They teach schemathesis what the document states but JSON Schema cannot: how an NDJSON body goes on the wire,
that a body sent with `Content-Encoding: gzip` is compressed, that a body's `push_id` repeats the path's, that
a batch is judged element by element, and which rules span fields or parameters. They also keep webhook URLs
away from real hosts (`keep_webhooks_local`).
"""

import gzip
import json
import os
import re
from urllib.parse import unquote, urlencode

import jsonschema
import schemathesis
import yaml

COMPRESSED = ("gzip", "x-gzip")

# Where fuzzed webhooks point. A URL the document calls valid becomes LOCAL_WEBHOOK_URL: loopback, so the server
# must run with --allow-private-webhooks (scripts/fuzz does), on the discard port, where nothing listens, so
# deliveries fail at once and never leave the machine. An invalid string that the server might still read as an
# http(s) URL becomes INVALID_WEBHOOK_URL, invalid for the document and the server alike (`bad_url`), and on a
# reserved domain that never resolves (RFC 6761) all the same; other invalid strings go as generated. So a
# positive case stays positive, a negative one negative, and no URL schemathesis made up names a real host.
LOCAL_WEBHOOK_URL = "http://127.0.0.1:9/pushtally-fuzz"
INVALID_WEBHOOK_URL = "ftp://pushtally-fuzz.invalid/webhook"
HTTP_LIKE = re.compile(r"\s*https?:", re.IGNORECASE)

DOCUMENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "openapi.yaml")
with open(DOCUMENT, encoding="utf-8") as document:
    WEBHOOK_URL_SCHEMA = yaml.safe_load(document)["components"]["schemas"]["WebhookURL"]


@schemathesis.serializer("application/x-ndjson", "application/ndjson")
def ndjson_serializer(ctx, value):
    """The document's array of events goes out as one JSON value a line. Anything else is a negative case: a
    string goes out as is, an object inside an array (alone on its line it would read as a one-event batch, a
    valid body), any other value as its JSON."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, list):
        return "".join(json.dumps(item) + "\n" for item in value).encode("utf-8")
    if isinstance(value, dict):
        value = [value]
    return json.dumps(value).encode("utf-8")


@schemathesis.hook
def before_call(context, case, kwargs):
    repeat_path_push_id(case)
    keep_webhooks_local(case)
    compress_when_declared(case, kwargs)
    read_one_page(case)


def read_one_page(case):
    """`GET /v1/events?follow=true` stays open for as long as its reader does, and schemathesis reads whole
    answers: it asks for one page instead (`follow=false`). The following stream is tested by the suite, with
    curl and Python's urllib as readers."""
    if case.method.upper() == "GET" and case.operation.path == "/v1/events" and isinstance(case.query, dict):
        if case.query.get("follow") == "true":
            case.query["follow"] = "false"


def keep_webhooks_local(case):
    """The `url` of `POST /v1/webhooks`, when a string, is replaced (see LOCAL_WEBHOOK_URL): a valid one by a
    local URL the server takes, an invalid one that looks like http(s) by one both refuse."""
    if case.method.upper() != "POST" or case.operation.path != "/v1/webhooks":
        return
    body = case.body
    if not isinstance(body, dict) or not isinstance(body.get("url"), str):
        return
    valid = jsonschema.Draft202012Validator(WEBHOOK_URL_SCHEMA).is_valid(body["url"])
    if valid:
        body["url"] = LOCAL_WEBHOOK_URL
    elif HTTP_LIKE.match(body["url"]):
        body["url"] = INVALID_WEBHOOK_URL


def repeat_path_push_id(case):
    """`push_id` in the body of `PUT /v1/pushes/{push_id}` or `.../sends` must equal the path's (else
    `400 conflict`, as documented). A body value of a valid type is replaced by the path's; a value of a wrong
    type is left alone, so a negative case stays negative."""
    path_id = (case.path_parameters or {}).get("push_id")
    # The case holds the path's value as it goes into the URL; the server compares the decoded one.
    path_id = unquote(path_id) if isinstance(path_id, str) else path_id
    body = case.body
    if path_id is None or not isinstance(body, dict) or "push_id" not in body:
        return
    value = body["push_id"]
    whole = isinstance(value, float) and value.is_integer()
    if isinstance(value, str) or whole or (isinstance(value, int) and not isinstance(value, bool)):
        body["push_id"] = path_id


def compress_when_declared(case, kwargs):
    """A request that says `Content-Encoding: gzip` carries a gzip body, as a real client's does; schemathesis
    would send the plain bytes, which the server rightly refuses as `malformed_gzip`."""
    headers = case.headers or {}
    encoding = next((value for name, value in headers.items() if name.lower() == "content-encoding"), None)
    if not isinstance(encoding, str) or encoding.strip().lower() not in COMPRESSED or "data" in kwargs:
        return
    serialized = case.as_transport_kwargs()
    if "json" in serialized:
        raw = json.dumps(serialized["json"]).encode("utf-8")
    elif "data" in serialized:
        raw = serialized["data"]
    else:
        return
    if isinstance(raw, dict):
        raw = urlencode(raw, doseq=True)
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    if isinstance(raw, bytes):
        kwargs["data"] = gzip.compress(raw)


@schemathesis.hook
def filter_failure(context, failure, case, response):
    """Keeps every failure but these, where the document states a rule JSON Schema cannot:
    - invalid data "accepted" in a batch, which is judged element by element (`BatchAnswer`,
      `PushBatchAnswer`): a 200 whose `rejected` lists elements refused, while the valid ones were stored;
    - valid data "refused": a 400 from `POST /v1/pushes` whose every rejection is `sent_at_immutable`, a record
      that conflicts with what an earlier request stored (a single `PUT` answers that with 409);
    - valid data "refused": `400 too_many_buckets`, a time series whose `from`, `to` and `bucket` together
      span more than 10000 buckets;
    - valid data "refused": `400 unknown_variant`, a variants report whose `control` names no variant the
      campaign has in the range (what variants exist is stored data, not something a schema can state);
    - valid data "refused": `400 bad_range`, a report whose `from` is after its `to` (each valid alone);
    - valid data "refused": `400 total_out_of_range`, send records whose figures (each at most 10^15) add up,
      over the record's failure reasons or with what the push already has stored, past 10^15;
    - valid data "refused" by a rule across fields or parameters (`spans_fields`), for a single event or for
      every element of a batch."""
    if failure.code == "ST202" and response.status_code == 400 and error_code(response) in (
        "too_many_buckets", "unknown_variant", "bad_range", "total_out_of_range"):
        return False
    if failure.code == "ST202" and response.status_code == 400 and spans_fields(case, response):
        return False
    rejected = batch_rejections(response)
    if rejected is None:
        return True
    if failure.code == "ST201" and response.status_code == 200 and rejected:
        return False
    rules = CROSS_FIELD_RULES.get((case.method.upper(), case.operation.path), set())
    if (
        failure.code == "ST202"
        and response.status_code == 400
        and rejected
        and all(
            item.get("error") in ("sent_at_immutable", "total_out_of_range")
            or (item.get("error"), item.get("field")) in rules
            for item in rejected
        )
    ):
        return False
    return True


def batch_rejections(response):
    """The `rejected` list of a batch answer, or None when the answer is not one."""
    try:
        body = response.json()
    except Exception:
        return None
    if not isinstance(body, dict) or not isinstance(body.get("rejected"), list) or "accepted" not in body:
        return None
    return [item for item in body["rejected"] if isinstance(item, dict)]


def error_code(response):
    """The `error` of an Error body, or None."""
    try:
        body = response.json()
    except Exception:
        return None
    return body.get("error") if isinstance(body, dict) else None


# (method, path) -> {(error, field)} the document states in words: an alert's `window` from 1m to 90d and `grace`
# shorter than it; a replay's `since` given once, in the query or the body; a conversion's `value` and `currency`
# given together.
CROSS_FIELD_RULES = {
    ("POST", "/v1/conversions"): {("missing_field", "currency"), ("missing_field", "value")},
    ("POST", "/v1/alerts"): {("bad_value", "window"), ("bad_value", "grace")},
    ("POST", "/v1/webhooks/{id}/replay"): {("missing_field", "since"), ("conflict", "since")},
}


def spans_fields(case, response):
    """Whether a 400 is one of CROSS_FIELD_RULES for the case's operation."""
    rules = CROSS_FIELD_RULES.get((case.method.upper(), case.operation.path), set())
    try:
        body = response.json()
    except Exception:
        return False
    return isinstance(body, dict) and (body.get("error"), body.get("field")) in rules
