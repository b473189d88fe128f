package com.pushtally.android.core;

import java.io.File;
import java.io.IOException;
import java.nio.charset.Charset;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A durable queue of events in one directory, safe for several threads and processes at once.
 *
 * <p>The queue is one file, {@code outbox.ndjson}: a header line with the running counts and the backoff,
 * then one line per event, oldest first. Every change rewrites it whole through {@link AtomicFile} (temporary
 * file, fsync, rename) under a lock that holds across threads and processes, so an event whose
 * {@link #append} returned is on the disk and stays there however the process ends, and a reader never
 * sees a torn file. The bounds keep it small (1,000 events by default), which keeps rewriting it whole cheap.</p>
 */
public final class Outbox {
    /** The queue file's name in its directory. */
    public static final String FILE_NAME = "outbox.ndjson";
    private static final Charset UTF8 = Charset.forName("UTF-8");
    private static final String FORMAT_KEY = "pushtally_outbox";

    private final File directory;
    private final File file;
    private final File lockFile;
    private final OutboxBounds bounds;
    private final Clock clock;

    /** Work done on the state under the outbox's lock. */
    public interface Update<T> {
        /** Reads or changes {@code state}; what it changes is written back when it returns. */
        T apply(OutboxState state) throws IOException;
    }

    /**
     * @param directory where the queue lives; made if missing. Give every process of the app the same one.
     * @param bounds what the queue may hold
     * @param clock the clock the age bound is read against
     */
    public Outbox(File directory, OutboxBounds bounds, Clock clock) throws IOException {
        if (!directory.isDirectory() && !directory.mkdirs() && !directory.isDirectory()) {
            throw new IOException("cannot make the outbox directory " + directory);
        }
        this.directory = directory;
        this.file = new File(directory, FILE_NAME);
        this.lockFile = new File(directory, "outbox.lock");
        this.bounds = bounds;
        this.clock = clock;
    }

    /** The directory the queue lives in. */
    public File directory() {
        return directory;
    }

    /**
     * Queues events durably, then drops what is past the bounds (the oldest first).
     *
     * @return how many events the bounds dropped
     */
    public int append(final List<OutboxEvent> events) throws IOException {
        return update(new Update<Integer>() {
            @Override
            public Integer apply(OutboxState state) {
                for (OutboxEvent event : events) state.add(event);
                return bounds.trim(state, clock.currentTimeMillis());
            }
        });
    }

    /** Drops what is past the bounds now; returns how many it dropped. */
    public int trim() throws IOException {
        return update(new Update<Integer>() {
            @Override
            public Integer apply(OutboxState state) {
                return bounds.trim(state, clock.currentTimeMillis());
            }
        });
    }

    /** The queue as it is on the disk now. */
    public OutboxState read() throws IOException {
        FileLocks.Held lock = FileLocks.acquire(lockFile);
        try {
            return load();
        } finally {
            lock.close();
        }
    }

    /**
     * Runs {@code update} on the state under the lock and writes the state back if it changed. Keep it short:
     * every other thread and process that records an event waits for it.
     */
    public <T> T update(Update<T> update) throws IOException {
        FileLocks.Held lock = FileLocks.acquire(lockFile);
        try {
            OutboxState state = load();
            T result = update.apply(state);
            if (state.changed) save(state);
            return result;
        } finally {
            lock.close();
        }
    }

    private OutboxState load() throws IOException {
        OutboxState state = new OutboxState();
        byte[] bytes = AtomicFile.read(file);
        if (bytes == null) return state;
        String[] lines = new String(bytes, UTF8).split("\n");
        int unreadable = 0;
        boolean headerDamaged = false;
        for (int index = 0; index < lines.length; index++) {
            String line = lines[index];
            if (line.isEmpty()) continue;
            if (index == 0) {
                headerDamaged = !readHeader(line, state);
                if (!headerDamaged) continue;
            }
            try {
                state.events.add(OutboxEvent.fromStoredLine(line));
            } catch (Json.ParseException damaged) {
                // Only damage from outside can do this (writes are renamed in whole): the line is counted as
                // dropped when the state is next written, instead of blocking the queue behind it. A first line
                // that is neither header nor event is the damaged header, counted apart: it held no event.
                if (index > 0) unreadable++;
            }
        }
        state.addDropped(unreadable);
        state.damaged += unreadable + (headerDamaged ? 1 : 0);
        state.changed = unreadable > 0 || headerDamaged;
        return state;
    }

    /**
     * Reads the header line into {@code state}; false when it is damaged, after keeping every count that can
     * still be read from it (a torn line keeps those before the tear).
     */
    private static boolean readHeader(String line, OutboxState state) {
        Map<String, Object> header;
        try {
            header = Json.parseObject(line);
        } catch (Json.ParseException unreadable) {
            header = null;
        }
        if (header != null) {
            // Whole JSON but no header (an event, say, where the header was cut away): nothing to salvage.
            if (!(header.get(FORMAT_KEY) instanceof Long)) return false;
            state.dropped = number(header.get("dropped"));
            state.rejected = number(header.get("rejected"));
            state.damaged = number(header.get("damaged"));
            state.consecutiveFailures = (int) Math.min(Integer.MAX_VALUE, number(header.get("failures")));
            state.notBeforeMillis = number(header.get("not_before"));
            return true;
        }
        state.dropped = salvaged(line, "dropped");
        state.rejected = salvaged(line, "rejected");
        state.damaged = salvaged(line, "damaged");
        state.consecutiveFailures = (int) Math.min(Integer.MAX_VALUE, salvaged(line, "failures"));
        state.notBeforeMillis = salvaged(line, "not_before");
        return false;
    }

    /** The number written as {@code "key":N} in a line that is not whole JSON; 0 when none can be read. */
    private static long salvaged(String line, String key) {
        Matcher matcher = Pattern.compile("\"" + key + "\":(\\d{1,18})[,}]").matcher(line);
        return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    }

    private static long number(Object value) {
        return value instanceof Long ? (Long) value : 0;
    }

    private void save(OutboxState state) throws IOException {
        StringBuilder out = new StringBuilder();
        out.append("{\"").append(FORMAT_KEY).append("\":1")
                .append(",\"dropped\":").append(state.dropped)
                .append(",\"rejected\":").append(state.rejected)
                .append(",\"damaged\":").append(state.damaged)
                .append(",\"failures\":").append(state.consecutiveFailures)
                .append(",\"not_before\":").append(state.notBeforeMillis)
                .append("}\n");
        for (OutboxEvent event : state.events) out.append(event.storedLine()).append('\n');
        AtomicFile.write(file, out.toString().getBytes(UTF8));
        state.changed = false;
    }
}
