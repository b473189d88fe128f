package com.pushtally.android.core;

import java.io.IOException;
import java.util.Collections;

/**
 * Records display receipts, taps and sessions into a durable outbox and sends them to a PushTally collector:
 * the part of the Android client that needs no Android.
 *
 * <p>Every event carries {@code platform} ({@code android}), the install id as {@code device_id}, a fresh
 * {@code receipt_id} (or {@code session_id}), {@code ts}, {@code app_version} and {@code os_version}. Recording
 * writes the event to the outbox before it returns; {@link #flush()} sends what is queued. Delivery is at least
 * once, and the collector counts a retry once by the event's id. Safe to use from several threads, and from
 * several processes sharing the directory.</p>
 */
public final class PushTallyClient {
    private final ClientConfiguration configuration;
    private final Outbox outbox;
    private final Events events;
    private final Flusher flusher;
    private final String installId;

    /** Opens (or makes) the outbox and the install id in the configuration's directory. */
    public PushTallyClient(ClientConfiguration configuration) throws IOException {
        this.configuration = configuration;
        this.outbox = new Outbox(configuration.directory(), configuration.bounds(), configuration.clock());
        this.installId = InstallId.load(configuration.directory(), configuration.random());
        this.events = new Events(configuration, installId);
        Sender sender = new Sender(configuration.collector(), configuration.ingestKey(), configuration.requestTimeoutMillis(),
                configuration.clock());
        this.flusher = new Flusher(outbox, sender, configuration.backoff(), configuration.clock(), configuration.random(),
                configuration.batchSize());
    }

    /** The settings this client was made with. */
    public ClientConfiguration configuration() {
        return configuration;
    }

    /** This install's id, sent as every event's {@code device_id}. */
    public String installId() {
        return installId;
    }

    /** The outbox itself, for reading what is queued. */
    public Outbox outbox() {
        return outbox;
    }

    /**
     * Records that a push was shown, saying nothing of its media.
     *
     * @return false, recording nothing, when {@code pushId} is empty, over 128 bytes or has control characters
     */
    public boolean recordDisplay(String pushId) throws IOException {
        if (!FieldRules.isText(pushId, FieldRules.MAX_ID_BYTES)) return false;
        long now = configuration.clock().currentTimeMillis();
        return queue(events.receipt(pushId, null, configuration.random().newId(), now, null, 0));
    }

    /**
     * Records that a push was shown, with what became of its image and how long showing it took.
     *
     * @param media the image's outcome ({@link MediaOutcome#NONE} when the push named none)
     * @param extensionMillis milliseconds from the message's arrival to the notification shown; sent as
     *     {@code extension_ms}, held to the collector's 0 to 60,000
     * @return false, recording nothing, for an unusable {@code pushId}
     */
    public boolean recordDisplay(String pushId, MediaOutcome media, long extensionMillis) throws IOException {
        if (!FieldRules.isText(pushId, FieldRules.MAX_ID_BYTES) || media == null) return false;
        long now = configuration.clock().currentTimeMillis();
        return queue(events.receipt(pushId, null, configuration.random().newId(), now, media, extensionMillis));
    }

    /**
     * Records a tap: {@code open} for the notification itself, {@code dismiss}, or an action button's id.
     *
     * @return false, recording nothing, for an unusable {@code pushId} or {@code action} (empty, control
     *     characters, over 128 or 64 bytes)
     */
    public boolean recordAction(String pushId, String action) throws IOException {
        return recordAction(pushId, action, configuration.random().newId());
    }

    /**
     * Records a tap with a receipt id the caller chose: a tap that may be delivered to the app twice (an
     * Activity's Intent read again after it was recreated) then counts once at the collector.
     */
    public boolean recordAction(String pushId, String action, String receiptId) throws IOException {
        if (!FieldRules.isText(pushId, FieldRules.MAX_ID_BYTES) || !FieldRules.isText(action, FieldRules.MAX_ACTION_BYTES)
                || !FieldRules.isText(receiptId, FieldRules.MAX_ID_BYTES)) {
            return false;
        }
        long now = configuration.clock().currentTimeMillis();
        return queue(events.receipt(pushId, action, receiptId, now, null, 0));
    }

    /**
     * Records the start of an app session, with a new {@code session_id}.
     *
     * @param permission the app's notification setting now, or null to leave it out
     */
    public boolean recordSession(NotificationPermission permission) throws IOException {
        return recordSession(configuration.random().newId(), permission);
    }

    /** Records the start of an app session with the caller's {@code session_id} (at most 128 bytes). */
    public boolean recordSession(String sessionId, NotificationPermission permission) throws IOException {
        if (!FieldRules.isText(sessionId, FieldRules.MAX_ID_BYTES)) return false;
        long now = configuration.clock().currentTimeMillis();
        return queue(events.session(sessionId, now, permission));
    }

    /**
     * Starts the display of a push that just arrived: call it first thing, so that {@code extension_ms} counts
     * from the arrival.
     */
    public NotificationDisplay beginDisplay(PushPayload payload) {
        return new NotificationDisplay(this, payload, configuration.clock().currentTimeMillis());
    }

    /** Sends what is queued, honouring the backoff, for at most three request timeouts (30 s by default). */
    public FlushResult flush() throws IOException {
        return flush(configuration.requestTimeoutMillis() * 3, false);
    }

    /**
     * Sends what is queued until the outbox is empty, a send fails, or {@code timeoutMillis} pass.
     *
     * @param ignoreBackoff send even while the backoff after a failure says wait: for the first attempt on a
     *     freshly recorded event, whose process may not live to see the backoff end
     */
    public FlushResult flush(long timeoutMillis, boolean ignoreBackoff) throws IOException {
        return flusher.flush(timeoutMillis, ignoreBackoff);
    }

    /** The outbox as it stands: what is queued, the running counts, the backoff. */
    public OutboxState status() throws IOException {
        return outbox.read();
    }

    private boolean queue(OutboxEvent event) throws IOException {
        outbox.append(Collections.singletonList(event));
        return true;
    }
}
