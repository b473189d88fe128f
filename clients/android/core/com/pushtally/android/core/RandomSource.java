package com.pushtally.android.core;

import java.security.SecureRandom;
import java.util.UUID;

/**
 * Where the client's randomness comes from: event ids and the backoff's jitter. Tests pass their own so that
 * ids and delays are known in advance.
 */
public interface RandomSource {
    /** A number in [0, 1), for the backoff's jitter. */
    double nextUnit();

    /** A fresh id for one event (the random UUID form the collector's retries are recognised by). */
    String newId();

    /** Random UUIDs and a shared {@link SecureRandom}: safe to call from any thread. */
    RandomSource SYSTEM = new RandomSource() {
        private final SecureRandom random = new SecureRandom();

        @Override
        public double nextUnit() {
            return random.nextDouble();
        }

        @Override
        public String newId() {
            return UUID.randomUUID().toString();
        }
    };
}
