package com.pushtally.android.core;

import java.io.File;
import java.io.IOException;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Sends what the outbox holds, a batch at a time, until it is empty (but for routes the collector lacks), a
 * send fails, or the time given runs out.
 *
 * <p>One flush at a time per outbox directory, across threads and processes (a lock file), so an event is
 * never posted twice at once. The outbox's own lock is held only between sends, never across one: recording
 * goes on while a batch is on the wire, and the flush reads the queue again after each round for it.</p>
 */
final class Flusher {
    private final Outbox outbox;
    private final Sender sender;
    private final Backoff backoff;
    private final Clock clock;
    private final RandomSource random;
    private final int batchSize;
    private final File lockFile;

    Flusher(Outbox outbox, Sender sender, Backoff backoff, Clock clock, RandomSource random, int batchSize) {
        this.outbox = outbox;
        this.sender = sender;
        this.backoff = backoff;
        this.clock = clock;
        this.random = random;
        this.batchSize = batchSize;
        this.lockFile = new File(outbox.directory(), "flush.lock");
    }

    FlushResult flush(long timeoutMillis, boolean ignoreBackoff) throws IOException {
        // Elapsed time is read from the monotonic clock: the wall clock may be a test's, or be set back.
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, timeoutMillis));
        FileLocks.Held lock = FileLocks.tryAcquire(lockFile, timeoutMillis);
        if (lock == null) return result(outbox.read(), 0, 0, true);
        try {
            return sendQueued(deadline, ignoreBackoff);
        } finally {
            lock.close();
        }
    }

    private FlushResult sendQueued(long deadline, boolean ignoreBackoff) throws IOException {
        // Recording trims too, without this lock: in an outbox at its bound, an event on the wire can be trimmed
        // meanwhile. It is then delivered and also counted as dropped; removing it after delivery finds it gone.
        outbox.trim();
        OutboxState state = outbox.read();
        if (!ignoreBackoff && clock.currentTimeMillis() < state.notBeforeMillis) return result(state, 0, 0, false);
        int delivered = 0;
        int refused = 0;
        Set<Route> missing = EnumSet.noneOf(Route.class);
        // Routes whose batches the collector found too large (413), with the size to try next, for this flush.
        Map<Route, Integer> smaller = new EnumMap<Route, Integer>(Route.class);
        rounds:
        while (true) {
            List<Batches.Batch> batches = Batches.group(state.events, batchSize, missing, smaller);
            if (batches.isEmpty()) break;
            for (final Batches.Batch batch : batches) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) break rounds;
                final SendOutcome outcome = sender.send(batch.route, batch.events, left);
                if (outcome.kind == SendOutcome.Kind.TOO_LARGE && batch.events.size() > 1) {
                    // Too large as a whole, not known bad: halved, and grouped again from the queue.
                    smaller.put(batch.route, batch.events.size() / 2);
                    break;
                }
                if (outcome.kind == SendOutcome.Kind.DELIVERED || outcome.kind == SendOutcome.Kind.TOO_LARGE) {
                    // An event too large even alone would be refused forever: dropped and counted as refused.
                    final int refusedHere = outcome.kind == SendOutcome.Kind.TOO_LARGE ? 1 : outcome.refused;
                    outbox.update(new Outbox.Update<Void>() {
                        @Override
                        public Void apply(OutboxState current) {
                            current.delivered(batch.events, refusedHere);
                            return null;
                        }
                    });
                    delivered += batch.events.size() - refusedHere;
                    refused += refusedHere;
                } else {
                    recordFailure(outcome.retryAfterMillis);
                    if (outcome.kind == SendOutcome.Kind.RETRY) break rounds;
                    // A collector older than the route: its events wait for an upgraded one (or age out), and
                    // the other routes' events still go out.
                    missing.add(batch.route);
                }
            }
            // Again from the disk, for what other threads and processes queued meanwhile.
            state = outbox.read();
        }
        return result(outbox.read(), delivered, refused, false);
    }

    private void recordFailure(final long retryAfterMillis) throws IOException {
        outbox.update(new Outbox.Update<Void>() {
            @Override
            public Void apply(OutboxState state) {
                long delay = backoff.delayMillis(state.consecutiveFailures + 1, random.nextUnit(), retryAfterMillis);
                state.failed(clock.currentTimeMillis() + delay);
                return null;
            }
        });
    }

    private static FlushResult result(OutboxState state, int delivered, int refused, boolean busy) {
        return new FlushResult(delivered, refused, state.events.size(), state.dropped, state.rejected, state.notBeforeMillis, busy);
    }
}
