package com.pushtally.android.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BackoffTest {
    private final Backoff backoff = Backoff.defaults();

    @Test
    void doublesFromTwoSecondsWithJitterBetweenHalfAndWhole() {
        assertEquals(1000, backoff.delayMillis(1, 0.0, -1), "the smallest jitter halves the delay");
        assertEquals(1500, backoff.delayMillis(1, 0.5, -1));
        assertEquals(4000, backoff.delayMillis(2, 1.0, -1));
        assertEquals(8000, backoff.delayMillis(3, 1.0, -1));
        assertEquals(2048 * 1000, backoff.delayMillis(11, 1.0, -1));
    }

    @Test
    void stopsAtTheCap() {
        assertEquals(3_600_000, backoff.delayMillis(12, 1.0, -1));
        assertEquals(1_800_000, backoff.delayMillis(1000, 0.0, -1));
        assertEquals(3_600_000, backoff.delayMillis(Integer.MAX_VALUE, 1.0, -1));
    }

    @Test
    void retryAfterWinsWhenItIsLonger() {
        assertEquals(120_000, backoff.delayMillis(1, 0.5, 120_000));
        assertEquals(1500, backoff.delayMillis(1, 0.5, 1000), "a shorter Retry-After does not shorten the backoff");
    }

    @Test
    void readsRetryAfterAsSecondsOrAnHttpDate() {
        assertEquals(120_000, RetryAfter.millis("120", 0));
        assertEquals(-1, RetryAfter.millis(null, 0));
        assertEquals(-1, RetryAfter.millis("soon", 0));
        // Sun, 06 Nov 1994 08:49:37 GMT is 784111777 s after 1970.
        assertEquals(30_000, RetryAfter.millis("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_747_000L));
        assertEquals(0, RetryAfter.millis("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_800_000L), "a date passed is now");
        assertEquals(24L * 3600 * 1000, RetryAfter.millis("99999999999", 0), "a day at most");
    }
}
