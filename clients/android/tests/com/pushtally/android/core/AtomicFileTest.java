package com.pushtally.android.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {
    @TempDir
    File directory;

    @Test
    void aWriteReplacesTheFileAndLeavesNoTemporaryFile() throws Exception {
        File target = new File(directory, "state");
        AtomicFile.write(target, "old".getBytes(StandardCharsets.UTF_8));
        AtomicFile.write(target, "new".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals("new".getBytes(StandardCharsets.UTF_8), AtomicFile.read(target));
        assertFalse(AtomicFile.temporaryFor(target).exists());
    }

    @Test
    void aFailedRenameRemovesTheTemporaryFile() throws Exception {
        // A directory that is not empty cannot be replaced by a file: the rename fails.
        File target = new File(directory, "occupied");
        assertTrue(target.mkdir());
        Files.write(new File(target, "inside").toPath(), new byte[] {1});
        IOException failed = assertThrows(IOException.class, () -> AtomicFile.write(target, new byte[] {2}));
        assertTrue(failed.getMessage().contains("cannot rename"), failed.getMessage());
        assertFalse(AtomicFile.temporaryFor(target).exists(), "the temporary file is cleaned up");
        assertTrue(new File(target, "inside").exists(), "the target is as it was");
    }
}
