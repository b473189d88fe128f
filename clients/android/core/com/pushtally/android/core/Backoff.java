package com.pushtally.android.core;

/**
 * When to try the collector again after a failure: exponential and capped, with jitter so that a fleet of
 * phones coming back online does not retry in lockstep, and never sooner than the collector's
 * {@code Retry-After}. PushTallyKit's schedule: 2 s doubling to 1 h, times a factor in [0.5, 1].
 */
public final class Backoff {
    /** The first delay by default. */
    public static final long DEFAULT_BASE_MILLIS = 2000;
    /** The longest delay by default. */
    public static final long DEFAULT_CAP_MILLIS = 60L * 60 * 1000;

    private final long baseMillis;
    private final long capMillis;

    /**
     * @param baseMillis the delay after the first failure (before jitter), at least 1
     * @param capMillis the longest delay (before jitter), at least {@code baseMillis}
     */
    public Backoff(long baseMillis, long capMillis) {
        if (baseMillis < 1 || capMillis < baseMillis) throw new IllegalArgumentException("need 1 <= base <= cap");
        this.baseMillis = baseMillis;
        this.capMillis = capMillis;
    }

    /** 2 s doubling to 1 h. */
    public static Backoff defaults() {
        return new Backoff(DEFAULT_BASE_MILLIS, DEFAULT_CAP_MILLIS);
    }

    /**
     * The wait before the next attempt.
     *
     * @param failures consecutive failures so far, this one included (1 after the first)
     * @param unit a random number in [0, 1): the jitter factor is {@code 0.5 + unit / 2}
     * @param retryAfterMillis what the collector's {@code Retry-After} asked for, or a negative number for none
     * @return {@code max(min(cap, base * 2^(failures - 1)) * jitter, retryAfter)}, in milliseconds
     */
    public long delayMillis(int failures, double unit, long retryAfterMillis) {
        long exponential = capMillis;
        int doublings = Math.max(0, failures - 1);
        // Shifting past 62 bits would overflow; the cap is reached long before.
        if (doublings < 62 && baseMillis <= (capMillis >> doublings)) exponential = baseMillis << doublings;
        double jitter = 0.5 + Math.max(0, Math.min(unit, 1)) / 2;
        long delay = (long) Math.floor(exponential * jitter);
        return Math.max(delay, retryAfterMillis);
    }
}
