"""Charges perf samples to the stages of one request and prints microseconds per request per stage.

Reads WORK/{pushtally,baseline}-ROUND.script (`perf script -F comm,tid,ip,sym,dso` of a `perf record -g`) and
WORK/KIND-ROUND.cpu (the process's CPU per request over the same seconds). Each sample goes to the first stage
its stack names, leaf first: a `malloc` called by the form parser is the form parser's, an `fdatasync` is the
disk's whoever called it. Samples naming no stage are the runtime's and the event loop's own.

A second table charges the Swift runtime's dynamic work (casts, generic metadata look-ups, exclusivity checks,
boxes) to the code that asked for it: a sample whose first frames are one of those runtime calls goes to the first
frame outside the runtime, PushTally's own code or a library's (SwiftNIO, GRDB), with the functions of PushTally's
own that ask most.
Usage: perf_budget.py WORK ROUNDS
"""

import re
import shutil
import statistics
import subprocess
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
    ("transaction (begin and commit)", r"GRDB|WriterTransaction"),
    ("baseline: request handler", r"bare_durable_baseline7Handler"),
    ("baseline: writer", r"bare_durable_baseline6Writer"),
    ("event loop and channel plumbing (NIO)", r"NIOPosix|NIOCore|NIOHTTP1|Hummingbird"),
]
UNCHARGED = "runtime, allocator, kernel otherwise (no stage on the stack)"
COMPILED = [(name, re.compile(pattern)) for name, pattern in STAGES]

# The runtime's dynamic work a specialized, statically dispatched hot path does not ask for.
OVERHEADS = [
    ("dynamic casts", r"swift_dynamicCast|tryCast|swift_conformsToProtocol"),
    ("generic metadata look-ups", r"getGenericMetadata|getCache|instantiateConcreteType|instantiateCanonicalPrespecialized"
     r"|swift_getTupleTypeMetadata|swift_getWitnessTable|swift_checkMetadataState|getTypeByMangled"),
    ("exclusivity checks", r"swift_beginAccess|swift_endAccess|AccessSet"),
    ("boxes and existentials", r"swift_allocBox|swift_projectBox|swift_allocObject.*Existential"),
]
OVERHEAD_COMPILED = [(name, re.compile(pattern)) for name, pattern in OVERHEADS]
# Frames of the runtime, the allocator and the kernel: what the first caller outside them is looked for past.
RUNTIME_DSO = re.compile(r"libswiftCore|libswift_Concurrency|libswiftDispatch|libdispatch|libc\.so|ld-linux|\[kernel")
OURS = re.compile(r"PushTally|bare_durable_baseline")


def overhead(frames):
    """(category, caller) of a sample whose first four frames are runtime overhead, else None."""
    for name, pattern in OVERHEAD_COMPILED:
        if any(pattern.search(symbol) for symbol, _ in frames[:4]):
            caller = next((symbol for symbol, dso in frames if not RUNTIME_DSO.search(dso) and not pattern.search(symbol)), "")
            return name, caller
    return None


def charge(frames):
    for symbol in frames:
        for name, pattern in COMPILED:
            if pattern.search(symbol):
                return name
    return UNCHARGED


def shares(path, overheads=None):
    """Each stage's share of the samples; with `overheads` (a dict), also adds each runtime overhead's share by
    (category, "ours" or "libraries") and by (category, caller) for PushTally's own callers."""
    counts, total, frames = {}, 0, []
    found = {}

    def flush():
        nonlocal total, frames
        if frames:
            stage = charge([symbol for symbol, _ in frames])
            counts[stage] = counts.get(stage, 0) + 1
            total += 1
            hit = overhead(frames)
            if hit:
                category, caller = hit
                owner = "ours" if OURS.search(caller) else "libraries"
                found[(category, owner)] = found.get((category, owner), 0) + 1
                if owner == "ours":
                    found[(category, caller)] = found.get((category, caller), 0) + 1
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
            name, _, dso = symbol.rpartition(" (")
            frames.append((name, dso) if name else (symbol, ""))
        flush()
    if overheads is not None:
        for key, count in found.items():
            overheads[key] = overheads.get(key, 0.0) + count / max(total, 1)
    return {stage: count / max(total, 1) for stage, count in counts.items()}


def demangled(symbols):
    """`swift demangle --simplified` of each symbol when the toolchain is on the PATH, else the symbols."""
    if not symbols or not shutil.which("swift"):
        return symbols
    out = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(symbols), capture_output=True, text=True)
    lines = out.stdout.splitlines()
    return lines if out.returncode == 0 and len(lines) == len(symbols) else symbols


def main():
    work, rounds = sys.argv[1], int(sys.argv[2])
    table = {}
    cpu = {}
    # Runtime overheads, in µs a request summed over the rounds (divided by the rounds when printed).
    overheads = {"pushtally": {}, "baseline": {}}
    for kind in ("pushtally", "baseline"):
        cpu[kind] = []
        for round in range(1, rounds + 1):
            per_request = float(open(f"{work}/{kind}-{round}.cpu").read())
            cpu[kind].append(per_request)
            found = {}
            for stage, share in shares(f"{work}/{kind}-{round}.script", found).items():
                table.setdefault(stage, {}).setdefault(kind, []).append(share * per_request)
            for key, share in found.items():
                overheads[kind][key] = overheads[kind].get(key, 0.0) + share * per_request
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
    print()
    print("Swift runtime's dynamic work, by who asks for it (us/request, mean of rounds)")
    print()
    print("| runtime work | PushTally: its own code | PushTally: libraries | baseline: its own code | baseline: libraries |")
    print("|---|---:|---:|---:|---:|")
    for name, _ in OVERHEADS:
        cells = [overheads[kind].get((name, owner), 0.0) / rounds for kind in ("pushtally", "baseline") for owner in ("ours", "libraries")]
        print(f"| {name} | " + " | ".join(f"{cell:.3f}" for cell in cells) + " |")
    callers = sorted(
        ((cost / rounds, name, caller) for (name, caller), cost in overheads["pushtally"].items() if caller not in ("ours", "libraries")),
        reverse=True)[:10]
    if callers:
        print()
        print("PushTally's own functions that ask most (us/request):")
        for (cost, name, _), caller in zip(callers, demangled([caller for _, _, caller in callers])):
            print(f"  {cost:.3f}  {name}: {caller[:160]}")


if __name__ == "__main__":
    main()
