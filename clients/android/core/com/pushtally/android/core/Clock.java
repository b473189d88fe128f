package com.pushtally.android.core;

/**
 * The wall clock the client reads for event times, the outbox's age bound and the send backoff. Tests pass
 * their own to move time without waiting.
 */
public interface Clock {
    /** Milliseconds since 1970-01-01T00:00:00Z, as {@link System#currentTimeMillis()} counts them. */
    long currentTimeMillis();

    /** The system's clock. */
    Clock SYSTEM = new Clock() {
        @Override
        public long currentTimeMillis() {
            return System.currentTimeMillis();
        }
    };
}
