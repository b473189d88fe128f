package com.pushtally.android.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OutboxTest {
    private static final long START = 1_763_625_600_000L;

    @TempDir
    File directory;

    private PushTallyClient client(Clock clock, String idPrefix) throws IOException {
        return new PushTallyClient(ClientConfiguration.builder("http://127.0.0.1:9", directory)
                .clock(clock).random(new TestRandom(0.5, idPrefix)).appVersion("4.2.0").osVersion("14").build());
    }

    @Test
    void recordedEventsAreReadBackAfterANewClientOpensTheDirectory() throws Exception {
        TestClock clock = new TestClock(START);
        PushTallyClient first = client(clock, "a-");
        assertTrue(first.recordDisplay("2018001", MediaOutcome.ATTACHED, 840));
        assertTrue(first.recordAction("2018001", "open"));
        assertTrue(first.recordSession(NotificationPermission.DENIED));

        PushTallyClient second = client(clock, "b-");
        assertEquals(first.installId(), second.installId(), "the install id is made once per directory");
        List<OutboxEvent> events = second.status().events();
        assertEquals(3, events.size());
        assertEquals(Route.RECEIPTS, events.get(0).route());
        assertEquals("{\"push_id\":\"2018001\",\"device_id\":\"" + first.installId() + "\",\"receipt_id\":\"a-2\","
                + "\"ts\":1763625600.000,\"platform\":\"android\",\"app_version\":\"4.2.0\",\"os_version\":\"14\","
                + "\"media\":\"attached\",\"extension_ms\":840}", events.get(0).wireLine());
        assertEquals(Route.ACTIONS, events.get(1).route());
        assertEquals("open", events.get(1).fields().get("action"));
        assertEquals(Route.SESSIONS, events.get(2).route());
        assertEquals("denied", events.get(2).fields().get("notification_permission"));
    }

    @Test
    void unusableFieldsRecordNothing() throws Exception {
        PushTallyClient client = client(new TestClock(START), "x-");
        StringBuilder long129 = new StringBuilder();
        for (int index = 0; index < 129; index++) long129.append('p');
        assertFalse(client.recordDisplay(""));
        assertFalse(client.recordDisplay(long129.toString()));
        assertFalse(client.recordDisplay("bad\u0000id"));
        assertFalse(client.recordAction("2018001", ""));
        assertEquals(0, client.status().events().size());
    }

    @Test
    void theCountBoundKeepsTheNewest1000AndCountsTheRestAsDropped() throws Exception {
        TestClock clock = new TestClock(START);
        PushTallyClient client = client(clock, "c-");
        List<OutboxEvent> batch = new ArrayList<OutboxEvent>();
        for (int index = 0; index < 1004; index++) {
            batch.add(new OutboxEvent(Route.RECEIPTS, "bulk-" + index, clock.currentTimeMillis(),
                    java.util.Collections.<String, Object>singletonMap("push_id", "p" + index)));
        }
        assertEquals(4, client.outbox().append(batch));
        clock.advance(1);
        assertTrue(client.recordDisplay("newest"));

        OutboxState state = client.status();
        assertEquals(1000, state.events().size());
        assertEquals(5, state.dropped());
        assertEquals("bulk-5", state.events().get(0).id(), "the oldest go first");
        assertEquals("newest", state.events().get(999).fields().get("push_id"));
    }

    @Test
    void theAgeBoundDropsWhatIsOlderThanSevenDays() throws Exception {
        TestClock clock = new TestClock(START);
        PushTallyClient client = client(clock, "d-");
        assertTrue(client.recordDisplay("old"));
        clock.advance(1);
        assertTrue(client.recordDisplay("younger"));

        clock.set(START + OutboxBounds.DEFAULT_MAX_AGE_MILLIS);
        assertEquals(0, client.outbox().trim(), "exactly seven days old is kept");
        clock.advance(1);
        assertEquals(1, client.outbox().trim());
        OutboxState state = client.status();
        assertEquals(1, state.events().size());
        assertEquals("younger", state.events().get(0).fields().get("push_id"));
        assertEquals(1, state.dropped());

        clock.advance(OutboxBounds.DEFAULT_MAX_AGE_MILLIS);
        assertTrue(client.recordDisplay("fresh"), "recording applies the bound too");
        assertEquals(1, client.status().events().size());
        assertEquals(2, client.status().dropped());
    }

    @Test
    void twoThreadsRecordingAtOnceLoseNothing() throws Exception {
        final int perThread = 300;
        final PushTallyClient[] clients = {client(Clock.SYSTEM, "t0-"), client(Clock.SYSTEM, "t1-")};
        final CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            List<Future<Void>> done = new ArrayList<Future<Void>>();
            for (int thread = 0; thread < 2; thread++) {
                final PushTallyClient client = clients[thread];
                final String prefix = "thread" + thread + "-";
                done.add(threads.submit(new Callable<Void>() {
                    @Override
                    public Void call() throws Exception {
                        start.await();
                        for (int index = 0; index < perThread; index++) {
                            assertTrue(client.recordAction(prefix + index, "open"));
                        }
                        return null;
                    }
                }));
            }
            start.countDown();
            for (Future<Void> each : done) each.get(100, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }
        OutboxState state = clients[0].status();
        Set<String> pushes = new HashSet<String>();
        Set<String> ids = new HashSet<String>();
        for (OutboxEvent event : state.events()) {
            pushes.add((String) event.fields().get("push_id"));
            ids.add(event.id());
        }
        assertEquals(2 * perThread, state.events().size());
        assertEquals(2 * perThread, pushes.size(), "every recorded event is there once");
        assertEquals(2 * perThread, ids.size());
        assertEquals(0, state.dropped());
        assertEveryLineParses(new File(directory, Outbox.FILE_NAME));
    }

    @Test
    void aDamagedLineIsDroppedAndCountedWithoutLosingTheOthers() throws Exception {
        PushTallyClient client = client(new TestClock(START), "e-");
        client.recordDisplay("one");
        client.recordDisplay("two");
        File file = new File(directory, Outbox.FILE_NAME);
        List<String> lines = Files.readAllLines(file.toPath(), StandardCharsets.UTF_8);
        lines.set(1, lines.get(1).substring(0, 10));
        Files.write(file.toPath(), lines, StandardCharsets.UTF_8);

        OutboxState state = client.status();
        assertEquals(1, state.events().size());
        assertEquals("two", state.events().get(0).fields().get("push_id"));
        assertEquals(1, state.dropped());
        assertEquals(1, state.damaged());
    }

    @Test
    void aDamagedHeaderIsCountedAndWhatCanBeReadOfItIsKept() throws Exception {
        PushTallyClient client = client(new TestClock(START), "h-");
        client.recordDisplay("one");
        client.recordDisplay("two");
        File file = new File(directory, Outbox.FILE_NAME);
        List<String> lines = Files.readAllLines(file.toPath(), StandardCharsets.UTF_8);
        String header = "{\"pushtally_outbox\":1,\"dropped\":7,\"rejected\":3,\"damaged\":0,\"failures\":2,"
                + "\"not_before\":1763625700000}";
        // Torn inside the failure count: the counts before the tear are kept, the rest read as 0.
        lines.set(0, header.substring(0, header.indexOf("\"failures\"") + 12));
        Files.write(file.toPath(), lines, StandardCharsets.UTF_8);

        OutboxState state = client.status();
        assertEquals(2, state.events().size(), "every event kept");
        assertEquals(7, state.dropped(), "a header is no event: nothing more counted as dropped");
        assertEquals(3, state.rejected());
        assertEquals(1, state.damaged());
        assertEquals(0, state.consecutiveFailures());

        // The next write puts a whole header back, with the damage counted once.
        client.recordDisplay("three");
        assertEveryLineParses(file);
        state = client.status();
        assertEquals(3, state.events().size());
        assertEquals(7, state.dropped());
        assertEquals(3, state.rejected());
        assertEquals(1, state.damaged());
    }

    @Test
    void aHeaderCutAwayOrUnreadableKeepsEveryEvent() throws Exception {
        PushTallyClient client = client(new TestClock(START), "g-");
        client.recordDisplay("one");
        client.recordDisplay("two");
        File file = new File(directory, Outbox.FILE_NAME);
        List<String> lines = Files.readAllLines(file.toPath(), StandardCharsets.UTF_8);

        Files.write(file.toPath(), lines.subList(1, lines.size()), StandardCharsets.UTF_8);
        OutboxState cut = client.status();
        assertEquals(2, cut.events().size(), "the first event, now the first line, kept");
        assertEquals("one", cut.events().get(0).fields().get("push_id"));
        assertEquals(1, cut.damaged());
        assertEquals(0, cut.dropped());

        lines.set(0, "\u0000\u0000garbage");
        Files.write(file.toPath(), lines, StandardCharsets.UTF_8);
        OutboxState garbage = client.status();
        assertEquals(2, garbage.events().size());
        assertEquals(1, garbage.damaged());
        assertEquals(0, garbage.dropped());
    }

    /** Every line of an outbox file is one complete JSON object: the file was never torn. */
    static List<java.util.Map<String, Object>> assertEveryLineParses(File file) throws Exception {
        List<java.util.Map<String, Object>> objects = new ArrayList<java.util.Map<String, Object>>();
        String text = new String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8);
        assertTrue(text.endsWith("\n"), "the file ends with a whole line");
        for (String line : text.split("\n")) objects.add(Json.parseObject(line));
        return objects;
    }
}
