package com.pushtally.android.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SenderTest {
    private static final long START = 1_763_625_600_000L;
    private static final String ACCEPTED = "{\"accepted\":1,\"duplicates\":0,\"rejected\":[]}";

    @TempDir
    File directory;

    private final TestClock clock = new TestClock(START);

    private PushTallyClient client(LocalServer server, String ingestKey) throws IOException {
        return new PushTallyClient(ClientConfiguration.builder(server.url() + "/", directory)
                .ingestKey(ingestKey).appVersion("4.2.0").osVersion("14").app("com.example.news")
                .clock(clock).random(new TestRandom(0.5, "id-")).requestTimeoutMillis(5000).build());
    }

    private static List<Map<String, Object>> lines(LocalServer.Request request) throws Exception {
        List<Map<String, Object>> lines = new ArrayList<Map<String, Object>>();
        String body = request.text();
        assertTrue(body.endsWith("\n"), "each line ends with a newline");
        for (String line : body.split("\n")) lines.add(Json.parseObject(line));
        return lines;
    }

    @Test
    void postsNdjsonBatchesOneRouteAtATimeWithEveryField() throws Exception {
        try (LocalServer server = new LocalServer(request -> LocalServer.Answer.json(200, ACCEPTED))) {
            PushTallyClient client = client(server, "ingest-secret");
            client.recordDisplay("2018001", MediaOutcome.TIMED_OUT, 5012);
            clock.advance(250);
            client.recordAction("2018001", "open");
            client.recordAction("2018001", "later");
            client.recordSession(NotificationPermission.AUTHORIZED);

            FlushResult result = client.flush();
            assertEquals(4, result.delivered());
            assertEquals(0, result.queued());

            List<LocalServer.Request> requests = server.requests();
            assertEquals(3, requests.size(), "one request per route: " + requests.size());
            for (LocalServer.Request request : requests) {
                assertEquals("POST", request.method);
                assertEquals("application/x-ndjson", request.header("Content-Type"));
                assertEquals("Bearer ingest-secret", request.header("Authorization"));
            }
            assertEquals("/v1/receipts", requests.get(0).path);
            Map<String, Object> receipt = lines(requests.get(0)).get(0);
            assertEquals("2018001", receipt.get("push_id"));
            assertEquals(client.installId(), receipt.get("device_id"));
            assertEquals("id-2", receipt.get("receipt_id"));
            assertEquals(new BigDecimal("1763625600.000"), receipt.get("ts"));
            assertEquals("android", receipt.get("platform"));
            assertEquals("4.2.0", receipt.get("app_version"));
            assertEquals("14", receipt.get("os_version"));
            assertEquals("timed_out", receipt.get("media"));
            assertEquals(5012L, receipt.get("extension_ms"));
            assertFalse(receipt.containsKey("action"));

            assertEquals("/v1/actions", requests.get(1).path);
            List<Map<String, Object>> actions = lines(requests.get(1));
            assertEquals(2, actions.size());
            assertEquals("open", actions.get(0).get("action"));
            assertEquals("later", actions.get(1).get("action"));
            assertEquals(new BigDecimal("1763625600.250"), actions.get(0).get("ts"));
            assertEquals("android", actions.get(1).get("platform"));
            assertFalse(actions.get(0).containsKey("media"));

            assertEquals("/v1/sessions", requests.get(2).path);
            Map<String, Object> session = lines(requests.get(2)).get(0);
            assertEquals(client.installId(), session.get("device_id"));
            assertEquals("id-5", session.get("session_id"));
            assertEquals("com.example.news", session.get("app"));
            assertEquals("authorized", session.get("notification_permission"));
        }
    }

    @Test
    void cutsALongQueueIntoBatchesOfAHundred() throws Exception {
        try (LocalServer server = new LocalServer(request -> LocalServer.Answer.json(200, ACCEPTED))) {
            PushTallyClient client = client(server, null);
            for (int index = 0; index < 250; index++) client.recordDisplay("p" + index);
            FlushResult result = client.flush();
            assertEquals(250, result.delivered());
            List<LocalServer.Request> requests = server.requests();
            assertEquals(3, requests.size());
            assertEquals(100, lines(requests.get(0)).size());
            assertEquals(100, lines(requests.get(1)).size());
            assertEquals(50, lines(requests.get(2)).size());
            assertEquals("p0", lines(requests.get(0)).get(0).get("push_id"), "oldest first");
            assertNull(requests.get(0).header("Authorization"), "no key, no header");
        }
    }

    @Test
    void aRefusedBatchIsDroppedAndCounted() throws Exception {
        for (int status : new int[] {400, 415, 422}) {
            try (LocalServer server = new LocalServer(request ->
                    LocalServer.Answer.json(status, "{\"error\":\"forbidden\",\"message\":\"no\"}"))) {
                File own = new File(directory, "status-" + status);
                PushTallyClient client = new PushTallyClient(ClientConfiguration.builder(server.url(), own)
                        .clock(clock).random(new TestRandom(0.5, "r-")).build());
                client.recordDisplay("a");
                client.recordDisplay("b");
                client.recordDisplay("c");
                FlushResult result = client.flush();
                assertEquals(0, result.delivered(), "status " + status);
                assertEquals(3, result.refused(), "status " + status);
                assertEquals(0, result.queued(), "status " + status);
                assertEquals(3, result.rejected(), "status " + status);
                assertEquals(0, result.retryAtMillis(), "a refusal is an answer, not a failure");
            }
        }
    }

    @Test
    void aRefusedIngestKeyKeepsTheBatchAndBacksOff() throws Exception {
        for (int status : new int[] {401, 403}) {
            AtomicInteger answer = new AtomicInteger(status);
            try (LocalServer server = new LocalServer(request -> answer.get() == 200
                    ? LocalServer.Answer.json(200, "{\"accepted\":3,\"duplicates\":0,\"rejected\":[]}")
                    : LocalServer.Answer.json(answer.get(), "{\"error\":\"unauthorized\",\"message\":\"no\"}"))) {
                File own = new File(directory, "status-" + status);
                TestClock ownClock = new TestClock(START);
                PushTallyClient client = new PushTallyClient(ClientConfiguration.builder(server.url(), own)
                        .ingestKey("rotated").clock(ownClock).random(new TestRandom(0.5, "k-")).build());
                client.recordDisplay("a");
                client.recordDisplay("b");
                client.recordDisplay("c");
                FlushResult refused = client.flush();
                assertEquals(0, refused.delivered(), "status " + status);
                assertEquals(0, refused.refused(), "status " + status);
                assertEquals(3, refused.queued(), "status " + status + ": the events wait for a key the collector takes");
                assertEquals(0, refused.rejected(), "status " + status);
                assertEquals(START + 1500, refused.retryAtMillis(), "status " + status + ": backed off as for a 5xx");

                answer.set(200);
                ownClock.advance(1500);
                FlushResult delivered = client.flush();
                assertEquals(3, delivered.delivered(), "status " + status);
                assertEquals(0, delivered.queued(), "status " + status);
                assertEquals(0, delivered.rejected(), "status " + status);
                assertEquals(2, server.requests().size(), "status " + status);
            }
        }
    }

    @Test
    void aBatchTooLargeIsSentInHalvesAndOnlyAnEventRefusedAloneIsDropped() throws Exception {
        // The collector takes at most two lines a request, and never the line of the push "huge".
        try (LocalServer server = new LocalServer(request -> {
            String body = request.text();
            boolean tooLarge = body.split("\n").length > 2 || body.contains("\"huge\"");
            return tooLarge
                    ? LocalServer.Answer.json(413, "{\"error\":\"too_large\",\"message\":\"smaller\"}")
                    : LocalServer.Answer.json(200, ACCEPTED);
        })) {
            PushTallyClient client = client(server, null);
            for (String push : new String[] {"a", "b", "huge", "c", "d"}) client.recordDisplay(push);
            FlushResult result = client.flush();
            assertEquals(4, result.delivered());
            assertEquals(1, result.refused());
            assertEquals(0, result.queued());
            assertEquals(1, result.rejected());
            assertEquals(0, result.retryAtMillis(), "a 413 is an answer, not a failure");

            List<String> taken = new ArrayList<String>();
            List<Integer> sizes = new ArrayList<Integer>();
            for (LocalServer.Request request : server.requests()) {
                List<Map<String, Object>> lines = lines(request);
                sizes.add(lines.size());
                if (lines.size() <= 2 && !request.text().contains("\"huge\"")) {
                    for (Map<String, Object> line : lines) taken.add((String) line.get("push_id"));
                }
            }
            assertEquals(List.of("a", "b", "c", "d"), taken, "every other event delivered once, oldest first");
            assertEquals(List.of(5, 2, 2, 1, 1, 1), sizes, "halved on each 413, down to the event alone");
        }
    }

    @Test
    void linesRefusedInABatchAnswerAreDroppedAndTheRestDelivered() throws Exception {
        String answer = "{\"accepted\":2,\"duplicates\":0,\"rejected\":[{\"index\":1,\"error\":\"too_long\","
                + "\"message\":\"app_version is longer than 64 bytes\",\"field\":\"app_version\"}]}";
        try (LocalServer server = new LocalServer(request -> LocalServer.Answer.json(200, answer))) {
            PushTallyClient client = client(server, null);
            client.recordDisplay("a");
            client.recordDisplay("b");
            client.recordDisplay("c");
            FlushResult result = client.flush();
            assertEquals(2, result.delivered());
            assertEquals(1, result.refused());
            assertEquals(0, result.queued());
            assertEquals(1, client.status().rejected());
        }
    }

    @Test
    void retriesLaterAfter5xx408And429WithExponentialJitteredBackoff() throws Exception {
        AtomicInteger status = new AtomicInteger(500);
        try (LocalServer server = new LocalServer(request -> status.get() == 200
                ? LocalServer.Answer.json(200, ACCEPTED)
                : LocalServer.Answer.json(status.get(), "{\"error\":\"unavailable\",\"message\":\"later\"}"))) {
            PushTallyClient client = client(server, null);
            client.recordDisplay("kept");

            FlushResult first = client.flush();
            assertEquals(1, first.queued());
            assertEquals(0, first.refused());
            // Jitter unit 0.5: 2 s * 0.75.
            assertEquals(START + 1500, first.retryAtMillis());

            status.set(408);
            assertEquals(1, client.flush().queued(), "within the backoff nothing is sent");
            assertEquals(1, server.requests().size());
            clock.advance(1500);
            FlushResult second = client.flush();
            assertEquals(2, server.requests().size());
            assertEquals(START + 1500 + 3000, second.retryAtMillis(), "4 s * 0.75");

            status.set(429);
            clock.advance(3000);
            FlushResult third = client.flush();
            assertEquals(START + 4500 + 6000, third.retryAtMillis(), "8 s * 0.75");
            assertEquals(3, client.status().consecutiveFailures());

            status.set(200);
            clock.advance(6000);
            FlushResult delivered = client.flush();
            assertEquals(1, delivered.delivered());
            assertEquals(0, delivered.queued());
            assertEquals(0, delivered.retryAtMillis(), "an answer clears the backoff");
            assertEquals(0, client.status().consecutiveFailures());
        }
    }

    @Test
    void honoursRetryAfter() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (LocalServer server = new LocalServer(request -> calls.incrementAndGet() == 1
                ? LocalServer.Answer.json(503, "{\"error\":\"overloaded\",\"message\":\"later\"}", "Retry-After", "120")
                : LocalServer.Answer.json(200, ACCEPTED))) {
            PushTallyClient client = client(server, null);
            client.recordDisplay("waits");
            assertEquals(START + 120_000, client.flush().retryAtMillis(), "Retry-After outweighs 1.5 s of backoff");

            clock.advance(119_999);
            assertEquals(1, client.flush().queued());
            assertEquals(1, server.requests().size(), "not a millisecond early");

            FlushResult forced = client.flush(5000, true);
            assertEquals(1, forced.delivered(), "a fresh event's first attempt may ignore the backoff");
            assertEquals(2, server.requests().size());
        }
    }

    @Test
    void aMissingRouteKeepsItsEventsAndTheOtherRoutesStillGoOut() throws Exception {
        try (LocalServer server = new LocalServer(request -> request.path.equals("/v1/sessions")
                ? LocalServer.Answer.json(404, "{\"error\":\"not_found\",\"message\":\"no route\"}")
                : LocalServer.Answer.json(200, ACCEPTED))) {
            PushTallyClient client = client(server, null);
            client.recordSession(null);
            client.recordDisplay("sent");
            FlushResult result = client.flush();
            assertEquals(1, result.delivered());
            assertEquals(1, result.queued());
            assertEquals(Route.SESSIONS, client.status().events().get(0).route());
            assertFalse(client.status().events().get(0).fields().containsKey("notification_permission"));
            assertEquals(0, client.status().rejected());
        }
    }

    @Test
    void noCollectorAtAllIsARetryNotALoss() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        PushTallyClient client = new PushTallyClient(ClientConfiguration.builder("http://127.0.0.1:" + port, directory)
                .clock(clock).random(new TestRandom(0.0, "n-")).build());
        client.recordDisplay("offline");
        FlushResult result = client.flush();
        assertEquals(1, result.queued());
        assertEquals(START + 1000, result.retryAtMillis());
        assertEquals(0, result.rejected());
    }

    @Test
    void aCollectorThatNeverAnswersIsCutOffAtTheTimeout() throws Exception {
        try (LocalServer server = new LocalServer(request -> {
            Thread.sleep(5000);
            return LocalServer.Answer.json(200, ACCEPTED);
        })) {
            PushTallyClient client = client(server, null);
            client.recordDisplay("stalled");
            long started = System.nanoTime();
            FlushResult result = client.flush(300, true);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertEquals(1, result.queued());
            // Cut off well before the collector's 5 s stall; the margin is for a loaded machine.
            assertTrue(tookMillis < 4500, "the flush gave up after " + tookMillis + " ms");
        }
    }
}
