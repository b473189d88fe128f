package com.pushtally.android.core;

/** The collector's ingest routes, one per kind of event: each takes its own NDJSON batches. */
public enum Route {
    /** Display receipts: {@code POST /v1/receipts}. */
    RECEIPTS("v1/receipts"),
    /** Taps and dismissals: {@code POST /v1/actions}. */
    ACTIONS("v1/actions"),
    /** App sessions: {@code POST /v1/sessions}. */
    SESSIONS("v1/sessions");

    private final String path;

    Route(String path) {
        this.path = path;
    }

    /** The route's path below the collector's base URL, without a leading slash ({@code v1/receipts}). */
    public String path() {
        return path;
    }

    /** The route whose path is {@code path}, or null for one this client does not know. */
    public static Route forPath(String path) {
        for (Route route : values()) {
            if (route.path.equals(path)) return route;
        }
        return null;
    }
}
