package com.pushtally.android.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One event as it waits in the outbox and as it is posted: its route, the id that makes the collector count a
 * retry once, when it was queued, and its fields exactly as they go on the wire (one NDJSON line).
 */
public final class OutboxEvent {
    private final Route route;
    private final String id;
    private final long queuedAtMillis;
    private final Map<String, Object> fields;

    /**
     * @param route where the event is posted
     * @param id its {@code receipt_id} (receipts, actions) or {@code session_id} (sessions): the outbox removes
     *     delivered events by it, and the collector recognises retries by it
     * @param queuedAtMillis when it was recorded, by the client's clock; the outbox's age bound counts from here
     * @param fields the event's JSON fields, in the order they are written
     */
    public OutboxEvent(Route route, String id, long queuedAtMillis, Map<String, Object> fields) {
        if (route == null || id == null || fields == null) throw new NullPointerException("route, id and fields are required");
        this.route = route;
        this.id = id;
        this.queuedAtMillis = queuedAtMillis;
        this.fields = Collections.unmodifiableMap(new LinkedHashMap<String, Object>(fields));
    }

    /** Where the event is posted. */
    public Route route() {
        return route;
    }

    /** The event's own id ({@code receipt_id} or {@code session_id}). */
    public String id() {
        return id;
    }

    /** When the event was recorded, milliseconds since 1970 by the client's clock. */
    public long queuedAtMillis() {
        return queuedAtMillis;
    }

    /** The event's fields as posted. */
    public Map<String, Object> fields() {
        return fields;
    }

    /** The event as one NDJSON line of a batch (no line end). */
    public String wireLine() {
        return Json.write(fields);
    }

    /** The event as one line of the outbox file (no line end). */
    String storedLine() {
        Map<String, Object> stored = new LinkedHashMap<String, Object>();
        stored.put("route", route.path());
        stored.put("id", id);
        stored.put("queued_at", queuedAtMillis);
        stored.put("event", fields);
        return Json.write(stored);
    }

    /**
     * An event read back from one line of the outbox file.
     *
     * @throws Json.ParseException when the line is not an event this client wrote
     */
    @SuppressWarnings("unchecked")
    static OutboxEvent fromStoredLine(String line) throws Json.ParseException {
        Map<String, Object> stored = Json.parseObject(line);
        Route route = stored.get("route") instanceof String ? Route.forPath((String) stored.get("route")) : null;
        Object id = stored.get("id");
        Object queuedAt = stored.get("queued_at");
        Object fields = stored.get("event");
        if (route == null || !(id instanceof String) || !(queuedAt instanceof Long) || !(fields instanceof Map)) {
            throw new Json.ParseException("not an outbox event", 0);
        }
        return new OutboxEvent(route, (String) id, (Long) queuedAt, (Map<String, Object>) fields);
    }

    @Override
    public String toString() {
        return route.path() + " " + wireLine();
    }
}
