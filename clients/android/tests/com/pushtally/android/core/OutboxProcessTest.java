package com.pushtally.android.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.OutputStream;
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
    // Far above what the tests write, so that the bound never trims an acknowledged event.
    private static final int MAX_EVENTS = 10_000;
    // How many events a paced writer may be ahead of the acknowledgements read: enough that it is always
    // writing when the kill lands, and few enough that every round together stays far under the bound.
    private static final int LEAD = 16;

    @TempDir
    File directory;

    @Test
    void everyAcknowledgedEventSurvivesAKillDashNineMidWrite() throws Exception {
        Set<String> acknowledged = new HashSet<String>();
        int mostWritten = 0;
        // Three writers in turn on one directory, each killed at a different point: a torn file left by one kill
        // would also break the next writer's reading of it.
        int round = 0;
        for (int killAfter : new int[] {40, 97, 150}) {
            acknowledged.addAll(recordUntilKilled("kill" + round++ + "-", killAfter));
            mostWritten += killAfter + LEAD;

            List<Map<String, Object>> lines = OutboxTest.assertEveryLineParses(new File(directory, Outbox.FILE_NAME));
            assertTrue(lines.get(0).containsKey("pushtally_outbox"), "the header line comes first");
            Set<String> stored = new HashSet<String>();
            PushTallyClient reader = new PushTallyClient(ClientConfiguration.builder("http://127.0.0.1:9", directory)
                    .bounds(new OutboxBounds(MAX_EVENTS, OutboxBounds.DEFAULT_MAX_AGE_MILLIS)).build());
            OutboxState state = reader.status();
            for (OutboxEvent event : state.events()) stored.add((String) event.fields().get("push_id"));
            assertEquals(lines.size() - 1, stored.size(), "every line is an event, each a different one");
            assertTrue(stored.size() <= mostWritten, "the writers kept to their pace: " + stored.size());
            assertEquals(0, state.dropped(), "no line was unreadable, and the bound trimmed nothing");
            assertEquals(0, state.damaged());
            for (String pushId : acknowledged) assertTrue(stored.contains(pushId), "acknowledged but lost: " + pushId);
        }
    }

    /**
     * Starts a paced writer, kills it with SIGKILL after {@code killAfter} acknowledgements, returns what it
     * acknowledged. The writer is given {@link #LEAD} events to write ahead and one more for each acknowledgement
     * read, so it is rewriting the outbox file whenever the kill lands, and never far ahead of the reading.
     */
    private Set<String> recordUntilKilled(String prefix, int killAfter) throws Exception {
        Process writer = ChildJvm.startWriter(directory, prefix, 0, MAX_EVENTS);
        Set<String> acknowledged = new HashSet<String>();
        try {
            BufferedReader lines = ChildJvm.lines(writer);
            OutputStream goAhead = writer.getOutputStream();
            assertEquals("ready", lines.readLine());
            goAhead.write(new byte[LEAD]);
            goAhead.flush();
            while (acknowledged.size() < killAfter) {
                String line = lines.readLine();
                if (line == null) throw new AssertionError("the writer ended before it was killed");
                assertTrue(line.startsWith("ack "), line);
                acknowledged.add(line.substring(4));
                goAhead.write(0);
                goAhead.flush();
            }
        } finally {
            writer.destroyForcibly();
            assertTrue(writer.waitFor(60, TimeUnit.SECONDS));
        }
        assertEquals(137, writer.exitValue(), "killed by SIGKILL (128 + 9)");
        return acknowledged;
    }

    @Test
    void twoProcessesRecordingIntoOneDirectoryLoseNothing() throws Exception {
        int each = 150;
        Process first = ChildJvm.startWriter(directory, "first-", each, MAX_EVENTS);
        Process second = ChildJvm.startWriter(directory, "second-", each, MAX_EVENTS);
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
