package com.pushtally.android.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 180, unit = TimeUnit.SECONDS)
class OutboxProcessTest {
    @TempDir
    File directory;

    @Test
    void everyAcknowledgedEventSurvivesAKillDashNineMidWrite() throws Exception {
        Process writer = ChildJvm.startWriter(directory, "kill-", 0);
        Set<String> acknowledged = new HashSet<String>();
        try {
            BufferedReader lines = ChildJvm.lines(writer);
            assertEquals("ready", lines.readLine());
            // The writer rewrites the outbox file for each event, so by the 150th acknowledgement it is busy
            // writing the next one whenever the kill lands.
            while (acknowledged.size() < 150) {
                String line = lines.readLine();
                if (line == null) throw new AssertionError("the writer ended before it was killed");
                assertTrue(line.startsWith("ack "), line);
                acknowledged.add(line.substring(4));
            }
        } finally {
            writer.destroyForcibly();
            assertTrue(writer.waitFor(60, TimeUnit.SECONDS));
        }
        assertEquals(137, writer.exitValue(), "killed by SIGKILL (128 + 9)");

        List<Map<String, Object>> lines = OutboxTest.assertEveryLineParses(new File(directory, Outbox.FILE_NAME));
        assertTrue(lines.get(0).containsKey("pushtally_outbox"), "the header line comes first");
        Set<String> stored = new HashSet<String>();
        PushTallyClient reader = new PushTallyClient(ClientConfiguration.builder("http://127.0.0.1:9", directory).build());
        for (OutboxEvent event : reader.status().events()) stored.add((String) event.fields().get("push_id"));
        assertEquals(lines.size() - 1, stored.size(), "every line is an event, each a different one");
        for (String pushId : acknowledged) assertTrue(stored.contains(pushId), "acknowledged but lost: " + pushId);
        assertNotEquals(0, stored.size());
    }

    @Test
    void twoProcessesRecordingIntoOneDirectoryLoseNothing() throws Exception {
        int each = 150;
        Process first = ChildJvm.startWriter(directory, "first-", each);
        Process second = ChildJvm.startWriter(directory, "second-", each);
        try {
            assertEquals(each, acknowledgements(first));
            assertEquals(each, acknowledgements(second));
            assertTrue(first.waitFor(60, TimeUnit.SECONDS));
            assertTrue(second.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, first.exitValue());
            assertEquals(0, second.exitValue());
        } finally {
            first.destroyForcibly();
            second.destroyForcibly();
        }
        PushTallyClient reader = new PushTallyClient(ClientConfiguration.builder("http://127.0.0.1:9", directory).build());
        Set<String> stored = new HashSet<String>();
        Set<String> devices = new HashSet<String>();
        for (OutboxEvent event : reader.status().events()) {
            stored.add((String) event.fields().get("push_id"));
            devices.add((String) event.fields().get("device_id"));
        }
        assertEquals(2 * each, reader.status().events().size());
        assertEquals(2 * each, stored.size());
        assertEquals(1, devices.size(), "both processes found or made the same install id");
        assertEquals(reader.installId(), devices.iterator().next());
    }

    private static int acknowledgements(Process writer) throws Exception {
        BufferedReader lines = ChildJvm.lines(writer);
        int count = 0;
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.startsWith("ack ")) count++;
        }
        return count;
    }
}
