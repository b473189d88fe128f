package com.pushtally.android.core;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Locks that hold across threads and processes at once: a {@link ReentrantLock} per lock file within this
 * process, then an OS lock ({@code fcntl}) on the file for other processes. Both are needed: Java refuses a
 * second OS lock on one file from the same process (OverlappingFileLockException) instead of waiting for it.
 */
final class FileLocks {
    private static final ConcurrentHashMap<String, ReentrantLock> PROCESS_LOCKS = new ConcurrentHashMap<String, ReentrantLock>();
    // How often a timed acquisition asks the OS again: FileChannel has no timed lock.
    private static final long POLL_MILLIS = 20;

    private FileLocks() {}

    /** A held lock; {@link #close()} releases it. */
    static final class Held {
        private final ReentrantLock processLock;
        private final RandomAccessFile file;
        private final FileLock fileLock;

        Held(ReentrantLock processLock, RandomAccessFile file, FileLock fileLock) {
            this.processLock = processLock;
            this.file = file;
            this.fileLock = fileLock;
        }

        void close() {
            try {
                fileLock.release();
            } catch (IOException ignored) {
                // Closing the file below releases it too.
            }
            try {
                file.close();
            } catch (IOException ignored) {
                // Nothing more to release.
            }
            processLock.unlock();
        }
    }

    /** Waits as long as it takes for the lock on {@code lockFile}. */
    static Held acquire(File lockFile) throws IOException {
        ReentrantLock processLock = processLock(lockFile);
        if (processLock.isHeldByCurrentThread()) throw new IllegalStateException("lock taken twice: " + lockFile);
        processLock.lock();
        try {
            RandomAccessFile file = new RandomAccessFile(lockFile, "rw");
            try {
                return new Held(processLock, file, file.getChannel().lock());
            } catch (IOException | RuntimeException failed) {
                file.close();
                throw failed;
            }
        } catch (IOException | RuntimeException failed) {
            processLock.unlock();
            throw failed;
        }
    }

    /** The lock on {@code lockFile} if it can be had within {@code timeoutMillis}; null otherwise. */
    static Held tryAcquire(File lockFile, long timeoutMillis) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, timeoutMillis));
        ReentrantLock processLock = processLock(lockFile);
        if (processLock.isHeldByCurrentThread()) throw new IllegalStateException("lock taken twice: " + lockFile);
        try {
            if (!processLock.tryLock(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) return null;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return null;
        }
        try {
            RandomAccessFile file = new RandomAccessFile(lockFile, "rw");
            try {
                FileChannel channel = file.getChannel();
                while (true) {
                    FileLock lock = channel.tryLock();
                    if (lock != null) return new Held(processLock, file, lock);
                    long left = deadline - System.nanoTime();
                    if (left <= 0) break;
                    Thread.sleep(Math.min(POLL_MILLIS, TimeUnit.NANOSECONDS.toMillis(left) + 1));
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            } catch (IOException | RuntimeException failed) {
                file.close();
                throw failed;
            }
            file.close();
        } catch (IOException | RuntimeException failed) {
            processLock.unlock();
            throw failed;
        }
        processLock.unlock();
        return null;
    }

    private static ReentrantLock processLock(File lockFile) throws IOException {
        String key = lockFile.getCanonicalPath();
        ReentrantLock lock = PROCESS_LOCKS.get(key);
        if (lock == null) {
            ReentrantLock made = new ReentrantLock();
            lock = PROCESS_LOCKS.putIfAbsent(key, made);
            if (lock == null) lock = made;
        }
        return lock;
    }
}
