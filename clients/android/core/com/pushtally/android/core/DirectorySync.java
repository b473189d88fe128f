package com.pushtally.android.core;

import java.io.File;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/**
 * Forces a directory's entries (a rename into it) to the disk, where the platform allows it.
 *
 * <p>A rename survives the process dying without this; it only matters when the whole device loses power
 * right after. Java can open a directory only through {@code java.nio.file}, which Android has from API 26
 * on: this class is kept apart so that on older releases the missing classes fail here, caught, and nowhere
 * else.</p>
 */
final class DirectorySync {
    private static volatile boolean unsupported;

    private DirectorySync() {}

    static void force(File directory) {
        if (unsupported) return;
        try {
            FileChannel channel = FileChannel.open(directory.toPath(), StandardOpenOption.READ);
            try {
                channel.force(true);
            } finally {
                channel.close();
            }
        } catch (LinkageError olderAndroid) {
            unsupported = true;
        } catch (Exception notADirectoryChannel) {
            // Some file systems refuse to open or force a directory; the file itself was forced already.
        }
    }
}
