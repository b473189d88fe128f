package com.pushtally.android.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Cuts the queue into requests: one route each, at most a batch size of events, oldest first. */
final class Batches {
    private Batches() {}

    /** One request's worth of events. */
    static final class Batch {
        final Route route;
        final List<OutboxEvent> events = new ArrayList<OutboxEvent>();

        Batch(Route route) {
            this.route = route;
        }
    }

    /**
     * Groups {@code events} (oldest first) by route, the route of the oldest event first, each group cut into
     * batches of at most {@code batchSize}; events of the routes in {@code skipped} are left out. Each route
     * has its own request, and one request per route and batch sends a mixed queue in as few as possible.
     */
    static List<Batch> group(List<OutboxEvent> events, int batchSize, Set<Route> skipped) {
        return group(events, batchSize, skipped, Collections.<Route, Integer>emptyMap());
    }

    /** As above, with smaller batch sizes for the routes in {@code smaller}. */
    static List<Batch> group(List<OutboxEvent> events, int batchSize, Set<Route> skipped, Map<Route, Integer> smaller) {
        Map<Route, List<Batch>> byRoute = new LinkedHashMap<Route, List<Batch>>();
        for (OutboxEvent event : events) {
            if (skipped.contains(event.route())) continue;
            List<Batch> batches = byRoute.get(event.route());
            if (batches == null) {
                batches = new ArrayList<Batch>();
                byRoute.put(event.route(), batches);
            }
            Integer limit = smaller.get(event.route());
            int size = limit != null ? Math.min(limit, batchSize) : batchSize;
            if (batches.isEmpty() || batches.get(batches.size() - 1).events.size() >= size) {
                batches.add(new Batch(event.route()));
            }
            batches.get(batches.size() - 1).events.add(event);
        }
        List<Batch> all = new ArrayList<Batch>();
        for (List<Batch> batches : byRoute.values()) all.addAll(batches);
        return all;
    }
}
