package com.pushtally.android.core;

import java.util.concurrent.atomic.AtomicInteger;

/** Randomness known in advance: a fixed jitter unit and numbered ids. */
final class TestRandom implements RandomSource {
    private final double unit;
    private final String prefix;
    private final AtomicInteger next = new AtomicInteger();

    TestRandom(double unit, String prefix) {
        this.unit = unit;
        this.prefix = prefix;
    }

    @Override
    public double nextUnit() {
        return unit;
    }

    @Override
    public String newId() {
        return prefix + next.incrementAndGet();
    }
}
