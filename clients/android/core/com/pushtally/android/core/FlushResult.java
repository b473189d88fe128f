package com.pushtally.android.core;

/** What one flush did, and where the outbox stands after it. */
public final class FlushResult {
    private final int delivered;
    private final int refused;
    private final int queued;
    private final long dropped;
    private final long rejected;
    private final long retryAtMillis;
    private final boolean busy;

    FlushResult(int delivered, int refused, int queued, long dropped, long rejected, long retryAtMillis, boolean busy) {
        this.delivered = delivered;
        this.refused = refused;
        this.queued = queued;
        this.dropped = dropped;
        this.rejected = rejected;
        this.retryAtMillis = retryAtMillis;
        this.busy = busy;
    }

    /** Events the collector took in this flush (retries it recognised included). */
    public int delivered() {
        return delivered;
    }

    /** Events the collector refused in this flush, now dropped. */
    public int refused() {
        return refused;
    }

    /** Events still queued after it. */
    public int queued() {
        return queued;
    }

    /** The running count of events the outbox's bounds dropped unsent. */
    public long dropped() {
        return dropped;
    }

    /** The running count of events the collector refused. */
    public long rejected() {
        return rejected;
    }

    /**
     * When the next send may be tried (milliseconds since 1970), after a failure; 0 when nothing holds it back.
     * A flush that honours the backoff before then sends nothing.
     */
    public long retryAtMillis() {
        return retryAtMillis;
    }

    /** True when another thread or process was flushing and this one did not wait long enough to take over. */
    public boolean busy() {
        return busy;
    }

    @Override
    public String toString() {
        return "FlushResult{delivered=" + delivered + ", refused=" + refused + ", queued=" + queued + ", dropped=" + dropped
                + ", rejected=" + rejected + ", retryAtMillis=" + retryAtMillis + ", busy=" + busy + "}";
    }
}
