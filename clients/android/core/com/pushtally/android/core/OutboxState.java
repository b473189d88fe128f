package com.pushtally.android.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Everything the outbox file holds: the queued events, oldest first, the running counts of what was dropped
 * and refused, and the send backoff. Kept in one file so that each change to it is one atomic rename: a count
 * never disagrees with the events it counts, even after the process dies mid-write.
 *
 * <p>Read it through {@link Outbox#read()}; it is changed only inside {@link Outbox#update}.</p>
 */
public final class OutboxState {
    final List<OutboxEvent> events = new ArrayList<OutboxEvent>();
    long dropped;
    long rejected;
    long damaged;
    int consecutiveFailures;
    long notBeforeMillis;
    boolean changed;

    /** The queued events, oldest first. */
    public List<OutboxEvent> events() {
        return Collections.unmodifiableList(new ArrayList<OutboxEvent>(events));
    }

    /** Events deleted unsent because the outbox was full or they were too old, since the outbox was made. */
    public long dropped() {
        return dropped;
    }

    /** Events the collector refused outright (sending them again would not help), since the outbox was made. */
    public long rejected() {
        return rejected;
    }

    /**
     * Lines of the outbox file found unreadable since the outbox was made: damage from outside (writes are
     * atomic), the header's included. The events among them are in {@link #dropped()} too; a damaged header
     * loses only the counts that could not be read from it.
     */
    public long damaged() {
        return damaged;
    }

    /** Failed send attempts since the last one the collector answered. */
    public int consecutiveFailures() {
        return consecutiveFailures;
    }

    /** Milliseconds since 1970 before which a flush that honours the backoff sends nothing; 0 for none. */
    public long notBeforeMillis() {
        return notBeforeMillis;
    }

    void add(OutboxEvent event) {
        events.add(event);
        changed = true;
    }

    /** Removes the events with these ids (those still queued); returns how many were removed. */
    int remove(Set<String> ids) {
        int removed = 0;
        for (Iterator<OutboxEvent> iterator = events.iterator(); iterator.hasNext(); ) {
            if (ids.contains(iterator.next().id())) {
                iterator.remove();
                removed++;
            }
        }
        if (removed > 0) changed = true;
        return removed;
    }

    /** Removes the events of a delivered batch and counts the ones the collector refused. */
    void delivered(List<OutboxEvent> batch, int refused) {
        Set<String> ids = new HashSet<String>();
        for (OutboxEvent event : batch) ids.add(event.id());
        remove(ids);
        rejected += refused;
        consecutiveFailures = 0;
        notBeforeMillis = 0;
        changed = true;
    }

    void failed(long notBeforeMillis) {
        consecutiveFailures++;
        this.notBeforeMillis = notBeforeMillis;
        changed = true;
    }

    void addDropped(int count) {
        if (count == 0) return;
        dropped += count;
        changed = true;
    }
}
