"""Charges perf samples to the stages of one request and prints microseconds per request per stage.

Reads WORK/{pushtally,baseline}-ROUND.script (`perf script -F comm,tid,ip,sym,dso` of a `perf record -g`) and
WORK/KIND-ROUND.cpu (the process's CPU per request over the same seconds). Each sample goes to the first stage
its stack names, leaf first: a `malloc` called by the form parser is the form parser's, an `fdatasync` is the
disk's whoever called it. Samples naming no stage are the runtime's and the event loop's own.
Usage: perf_budget.py WORK ROUNDS
"""

import re
import statistics
import sys

# (stage, pattern on a frame's symbol); the order only names the table's rows, the stack decides.
STAGES = [
    ("fsync (the commit's flush to disk)", r"^(fdatasync|fsync|__x64_sys_fdatasync)$"),
    ("socket reads and writes (kernel included)", r"NIOPosix.*(Socket|PipePair).*(read|write)|NIOPosix6Socket|readFromSocket|writeToSocket|flushNow"),
    ("HTTP parsing (llhttp, NIO's decoder)", r"llhttp|BetterHTTPParser|HTTPDecoder"),
    ("HTTP answer (head, encoder, mailbox)", r"AnswerMailbox|AnswerSink|writeReadyAnswers|framedHead|HTTPResponseEncoder|HTTPDate"),
    ("head pre-read (list elements, framing)", r"TrailingListElements|RequestFraming|BytesArrivedHandler"),
    ("fast path (connection state machine)", r"FastPathStateMachine|IngestFastPath|IngestRequestHead|RequestHeadConformance|ConnectionClock|MethodSupport|PeerAcknowledgement|ExpectContinue"),
    ("form parsing and validation", r"FormBody|EventValidator|IngestPlan|RawEvent|IncomingEvent|FieldText|EventBody"),
    ("pipeline (admission, CORS, hand-over)", r"IngestPipeline|InFlightLimit|CORSPolicy|RateLimiter"),
    ("device keying", r"DeviceHasher|StoredEvent|HMAC"),
    ("writer queue and wake-ups", r"GroupCommitWriter|WriterStateMachine|FlushAnswers|NSCondition|pthread_cond"),
    ("dedupe", r"DedupeWriter"),
    ("rollup counting", r"RollupCounter|RollupAccumulator|CommitPlan|NameFold|BoundedNames|SQLiteNames|NameBook|LatencyHistogram|TimingSettlement"),
    ("rollup upserts", r"RollupWriter|RollupStatements|AdditiveStatement|MediaRollupWriter|TimingTable|HistogramRun"),
    ("outbox, attribution, audience, sent_at", r"SQLiteOutbox|SQLiteAttribution|SQLiteAudience|SentAtLookup|WALBudget"),
    ("raw row insert", r"EventWriter|RawColumns|EventColumn|BoundStatementC6insert"),
    ("metrics", r"StoreMetrics|RequestCounters|ServerMetrics|CoreMetrics|Prometheus"),
    ("transaction (GRDB, begin and commit)", r"GRDB"),
    ("baseline: request handler", r"bare_durable_baseline7Handler"),
    ("baseline: writer", r"bare_durable_baseline6Writer"),
    ("event loop and channel plumbing (NIO)", r"NIOPosix|NIOCore|NIOHTTP1|Hummingbird"),
]
UNCHARGED = "runtime, allocator, kernel otherwise (no stage on the stack)"
COMPILED = [(name, re.compile(pattern)) for name, pattern in STAGES]


def charge(frames):
    for symbol in frames:
        for name, pattern in COMPILED:
            if pattern.search(symbol):
                return name
    return UNCHARGED


def shares(path):
    counts, total, frames = {}, 0, []

    def flush():
        nonlocal total, frames
        if frames:
            stage = charge(frames)
            counts[stage] = counts.get(stage, 0) + 1
            total += 1
        frames = []

    with open(path, errors="replace") as file:
        header = True
        for line in file:
            line = line.rstrip("\n")
            if not line.strip():
                flush()
                header = True
                continue
            if header:
                header = False
                continue
            parts = line.strip().split(None, 1)
            symbol = parts[1] if len(parts) > 1 else ""
            frames.append(symbol.rsplit(" (", 1)[0])
        flush()
    return {stage: count / max(total, 1) for stage, count in counts.items()}


def main():
    work, rounds = sys.argv[1], int(sys.argv[2])
    table = {}
    cpu = {}
    for kind in ("pushtally", "baseline"):
        cpu[kind] = []
        for round in range(1, rounds + 1):
            per_request = float(open(f"{work}/{kind}-{round}.cpu").read())
            cpu[kind].append(per_request)
            for stage, share in shares(f"{work}/{kind}-{round}.script").items():
                table.setdefault(stage, {}).setdefault(kind, []).append(share * per_request)
    names = [name for name, _ in STAGES] + [UNCHARGED]
    median = lambda values, n: statistics.median(values + [0.0] * (n - len(values)))
    print()
    print("| stage | PushTally us/request | baseline us/request | difference |")
    print("|---|---:|---:|---:|")
    for name in names:
        row = table.get(name, {})
        ours, theirs = median(row.get("pushtally", []), rounds), median(row.get("baseline", []), rounds)
        if ours < 0.05 and theirs < 0.05:
            continue
        print(f"| {name} | {ours:.2f} | {theirs:.2f} | {ours - theirs:+.2f} |")
    ours, theirs = statistics.median(cpu["pushtally"]), statistics.median(cpu["baseline"])
    print(f"| **CPU per request** (median of rounds) | **{ours:.2f}** | **{theirs:.2f}** | **{ours - theirs:+.2f}** ({ours / theirs:.2f} x) |")


if __name__ == "__main__":
    main()
