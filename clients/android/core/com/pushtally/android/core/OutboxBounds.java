package com.pushtally.android.core;

import java.util.Iterator;

/**
 * How much the outbox may hold, PushTallyKit's and the web client's bounds: a phone's storage is not the
 * collector's backlog, and a receipt a week old says little about a push.
 */
public final class OutboxBounds {
    /** At most this many events by default. */
    public static final int DEFAULT_MAX_EVENTS = 1000;
    /** Events older than this (7 days) are dropped by default. */
    public static final long DEFAULT_MAX_AGE_MILLIS = 7L * 24 * 60 * 60 * 1000;

    private final int maxEvents;
    private final long maxAgeMillis;

    /**
     * @param maxEvents the most events kept, at least 1
     * @param maxAgeMillis the oldest an event may be, at least 1 ms
     */
    public OutboxBounds(int maxEvents, long maxAgeMillis) {
        if (maxEvents < 1 || maxAgeMillis < 1) throw new IllegalArgumentException("bounds must be positive");
        this.maxEvents = maxEvents;
        this.maxAgeMillis = maxAgeMillis;
    }

    /** 1,000 events, 7 days. */
    public static OutboxBounds defaults() {
        return new OutboxBounds(DEFAULT_MAX_EVENTS, DEFAULT_MAX_AGE_MILLIS);
    }

    /** The most events kept. */
    public int maxEvents() {
        return maxEvents;
    }

    /** The oldest an event may be, in milliseconds. */
    public long maxAgeMillis() {
        return maxAgeMillis;
    }

    /**
     * Drops every event older than the age bound, then the oldest until the count bound holds, and counts them
     * in {@link OutboxState#dropped()}. An event exactly {@code maxAgeMillis} old is kept. Events are kept in
     * the order they were queued, so dropping from the front never drops a newer event before an older one.
     *
     * @return how many were dropped
     */
    int trim(OutboxState state, long nowMillis) {
        int dropped = 0;
        for (Iterator<OutboxEvent> iterator = state.events.iterator(); iterator.hasNext(); ) {
            OutboxEvent event = iterator.next();
            if (nowMillis - event.queuedAtMillis() > maxAgeMillis) {
                iterator.remove();
                dropped++;
            }
        }
        int excess = state.events.size() - maxEvents;
        if (excess > 0) {
            state.events.subList(0, excess).clear();
            dropped += excess;
        }
        if (dropped > 0) {
            state.changed = true;
            state.addDropped(dropped);
        }
        return dropped;
    }
}
