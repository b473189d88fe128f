package com.pushtally.android.core;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One notification on its way to the screen, from the message's arrival to the notification shown: fetches
 * the push's image within the budget left, and records exactly one display receipt, with its {@code media}
 * outcome and {@code extension_ms} (milliseconds from the arrival to the notification shown), once the caller
 * knows the notification was really shown.
 */
public final class NotificationDisplay {
    private final PushTallyClient client;
    private final PushPayload payload;
    private final long arrivedAtMillis;
    private final AtomicBoolean recorded = new AtomicBoolean();

    NotificationDisplay(PushTallyClient client, PushPayload payload, long arrivedAtMillis) {
        this.client = client;
        this.payload = payload;
        this.arrivedAtMillis = arrivedAtMillis;
    }

    /** The push being shown. */
    public PushPayload payload() {
        return payload;
    }

    /** When the message arrived, by the client's clock; {@code extension_ms} counts from here. */
    public long arrivedAtMillis() {
        return arrivedAtMillis;
    }

    /**
     * Downloads the push's image with what is left of the media budget (counted from the arrival); a push
     * without one is {@link MediaOutcome#NONE} at once.
     */
    public MediaResult fetchMedia() {
        if (payload.image() == null) return MediaResult.none();
        ClientConfiguration configuration = client.configuration();
        long elapsed = Math.max(0, configuration.clock().currentTimeMillis() - arrivedAtMillis);
        long left = configuration.mediaBudgetMillis() - elapsed;
        return new MediaFetcher(configuration.maxMediaBytes()).fetch(payload.image(), left);
    }

    /**
     * Records the display receipt, once: call it right after the notification was shown, with what became of
     * its image. Later calls record nothing.
     *
     * @return true when this call recorded it
     */
    public boolean recordShown(MediaOutcome outcome) throws IOException {
        if (payload.pushId() == null || !recorded.compareAndSet(false, true)) return false;
        long now = client.configuration().clock().currentTimeMillis();
        return client.recordDisplay(payload.pushId(), outcome, now - arrivedAtMillis);
    }
}
