package com.pushtally.android.core;

import java.util.concurrent.atomic.AtomicLong;

/** A wall clock that moves only when a test moves it. */
final class TestClock implements Clock {
    private final AtomicLong millis;

    TestClock(long startMillis) {
        millis = new AtomicLong(startMillis);
    }

    @Override
    public long currentTimeMillis() {
        return millis.get();
    }

    void advance(long deltaMillis) {
        millis.addAndGet(deltaMillis);
    }

    void set(long value) {
        millis.set(value);
    }
}
