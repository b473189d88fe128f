package com.pushtally.android.core;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/** Makes the events, with the fields every one of them carries, in the collector's wire form. */
final class Events {
    /** The collector takes {@code extension_ms} from 0 to 60,000. */
    static final long MAX_EXTENSION_MILLIS = 60_000;

    private final ClientConfiguration configuration;
    private final String installId;

    Events(ClientConfiguration configuration, String installId) {
        this.configuration = configuration;
        this.installId = installId;
    }

    /** A display receipt ({@code action} null) or an action; {@code media} null leaves the media fields out. */
    OutboxEvent receipt(String pushId, String action, String receiptId, long nowMillis, MediaOutcome media, long extensionMillis) {
        Map<String, Object> fields = new LinkedHashMap<String, Object>();
        fields.put("push_id", pushId);
        if (action != null) fields.put("action", action);
        fields.put("device_id", installId);
        fields.put("receipt_id", receiptId);
        fields.put("ts", unixSeconds(nowMillis));
        common(fields);
        if (media != null) {
            fields.put("media", media.wireValue());
            fields.put("extension_ms", Math.max(0, Math.min(MAX_EXTENSION_MILLIS, extensionMillis)));
        }
        return new OutboxEvent(action == null ? Route.RECEIPTS : Route.ACTIONS, receiptId, nowMillis, fields);
    }

    /** A session; {@code permission} null leaves {@code notification_permission} out. */
    OutboxEvent session(String sessionId, long nowMillis, NotificationPermission permission) {
        Map<String, Object> fields = new LinkedHashMap<String, Object>();
        fields.put("device_id", installId);
        fields.put("session_id", sessionId);
        fields.put("ts", unixSeconds(nowMillis));
        if (configuration.app() != null) fields.put("app", configuration.app());
        common(fields);
        if (permission != null) fields.put("notification_permission", permission.wireValue());
        return new OutboxEvent(Route.SESSIONS, sessionId, nowMillis, fields);
    }

    private void common(Map<String, Object> fields) {
        fields.put("platform", configuration.platform());
        if (configuration.appVersion() != null) fields.put("app_version", configuration.appVersion());
        if (configuration.osVersion() != null) fields.put("os_version", configuration.osVersion());
    }

    /** Unix seconds with the milliseconds as exact decimal digits ({@code 1763625600.123}). */
    static BigDecimal unixSeconds(long millis) {
        return BigDecimal.valueOf(millis, 3);
    }
}
