package com.pushtally.android.core;

/** How the collector answered one batch. */
final class SendOutcome {
    enum Kind {
        /** The collector answered for every event of the batch: remove them all; {@code refused} were refused. */
        DELIVERED,
        /** Nothing was acknowledged (offline, 5xx, 401, 403, 408, 429, no answer in time): keep the batch and back off. */
        RETRY,
        /** The collector has no such route (404): keep the batch for an upgraded collector, send the others. */
        ROUTE_MISSING,
        /** The request was too large (413): send the batch in smaller parts; an event refused alone is dropped. */
        TOO_LARGE
    }

    final Kind kind;
    final int refused;
    /** What {@code Retry-After} asked for, in milliseconds; -1 for nothing. */
    final long retryAfterMillis;

    private SendOutcome(Kind kind, int refused, long retryAfterMillis) {
        this.kind = kind;
        this.refused = refused;
        this.retryAfterMillis = retryAfterMillis;
    }

    static SendOutcome delivered(int refused) {
        return new SendOutcome(Kind.DELIVERED, refused, -1);
    }

    static SendOutcome retry(long retryAfterMillis) {
        return new SendOutcome(Kind.RETRY, 0, retryAfterMillis);
    }

    static SendOutcome routeMissing() {
        return new SendOutcome(Kind.ROUTE_MISSING, 0, -1);
    }

    static SendOutcome tooLarge() {
        return new SendOutcome(Kind.TOO_LARGE, 0, -1);
    }
}
