package com.pushtally.android.core;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task when a deadline passes, unless cancelled first: how a blocking HTTP exchange is cut off at its
 * budget. A socket's read timeout only bounds each wait for bytes, so a host that trickles a byte at a time
 * could otherwise hold a download far past it; disconnecting from another thread ends the blocked read at once.
 */
final class Watchdog {
    private static final ScheduledThreadPoolExecutor TIMER = new ScheduledThreadPoolExecutor(1, new ThreadFactory() {
        @Override
        public Thread newThread(Runnable task) {
            Thread thread = new Thread(task, "pushtally-watchdog");
            // Never what keeps a process alive.
            thread.setDaemon(true);
            return thread;
        }
    });

    static {
        // Cancelled deadlines (the usual case: the exchange finished first) leave the queue at once.
        TIMER.setRemoveOnCancelPolicy(true);
    }

    private final ScheduledFuture<?> future;

    private Watchdog(ScheduledFuture<?> future) {
        this.future = future;
    }

    /** Runs {@code task} after {@code delayMillis} (at once when it is 0 or less) unless {@link #cancel()}led. */
    static Watchdog start(Runnable task, long delayMillis) {
        return new Watchdog(TIMER.schedule(task, Math.max(0, delayMillis), TimeUnit.MILLISECONDS));
    }

    /** Stops the task from running if it has not started. */
    void cancel() {
        future.cancel(false);
    }
}
