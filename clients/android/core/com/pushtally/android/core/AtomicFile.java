package com.pushtally.android.core;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Whole-file writes that a dying process cannot tear: the bytes go to a temporary file beside the target,
 * are forced to the disk, and the temporary file is renamed over the target, which POSIX makes atomic. A
 * reader sees the old file or the new one, never part of either.
 *
 * <p>Callers serialise writers of one target (the temporary name is fixed, so a writer killed before its
 * rename leaves a file that the next write simply replaces).</p>
 */
final class AtomicFile {
    private AtomicFile() {}

    /**
     * Replaces {@code target} with {@code bytes}, durably. On failure the target is as it was and the temporary
     * file is gone.
     */
    static void write(File target, byte[] bytes) throws IOException {
        File temporary = temporaryFor(target);
        boolean renamed = false;
        try {
            // A failing close() is added to what the write threw, never put in its place.
            try (FileOutputStream out = new FileOutputStream(temporary)) {
                out.write(bytes);
                out.flush();
                // Forced before the rename: otherwise a crash after it could leave the new name on empty blocks.
                out.getFD().sync();
            }
            if (!temporary.renameTo(target)) {
                throw new IOException("cannot rename " + temporary + " to " + target);
            }
            renamed = true;
        } finally {
            // Best effort, never throwing over the write's own exception: one that cannot be deleted is
            // replaced by the next write anyway.
            if (!renamed) temporary.delete();
        }
        DirectorySync.force(target.getParentFile());
    }

    /** The temporary file a write of {@code target} goes through. */
    static File temporaryFor(File target) {
        return new File(target.getParentFile(), target.getName() + ".tmp");
    }

    /** The file's bytes, or null when it does not exist. */
    static byte[] read(File file) throws IOException {
        InputStream in;
        try {
            in = new FileInputStream(file);
        } catch (FileNotFoundException missing) {
            if (!file.exists()) return null;
            throw missing;
        }
        try (InputStream opened = in) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            byte[] buffer = new byte[16 * 1024];
            int count;
            while ((count = opened.read(buffer)) != -1) bytes.write(buffer, 0, count);
            return bytes.toByteArray();
        }
    }
}
