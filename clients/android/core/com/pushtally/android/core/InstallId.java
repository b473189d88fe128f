package com.pushtally.android.core;

import java.io.File;
import java.io.IOException;
import java.nio.charset.Charset;

/**
 * The install id every event carries as {@code device_id}: made once, kept in a file beside the outbox, and the
 * same for every process of the app. It identifies an install, not a person: a reinstall makes a new one.
 */
final class InstallId {
    static final String FILE_NAME = "install-id";
    private static final Charset UTF8 = Charset.forName("UTF-8");

    private InstallId() {}

    /** The directory's install id, made and stored durably the first time. */
    static String load(File directory, RandomSource random) throws IOException {
        File file = new File(directory, FILE_NAME);
        String existing = readId(file);
        if (existing != null) return existing;
        // Two processes starting at once must agree on one id: the check and the write happen under the lock.
        FileLocks.Held lock = FileLocks.acquire(new File(directory, "outbox.lock"));
        try {
            existing = readId(file);
            if (existing != null) return existing;
            String made = random.newId();
            AtomicFile.write(file, made.getBytes(UTF8));
            return made;
        } finally {
            lock.close();
        }
    }

    private static String readId(File file) throws IOException {
        byte[] bytes = AtomicFile.read(file);
        if (bytes == null) return null;
        String id = new String(bytes, UTF8).trim();
        return id.isEmpty() ? null : id;
    }
}
