package com.pushtally.android.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.pushtally.android.core.ClientConfiguration;
import com.pushtally.android.core.FlushResult;
import com.pushtally.android.core.MediaOutcome;
import com.pushtally.android.core.NotificationPermission;
import com.pushtally.android.core.PushTallyClient;
import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client against the real collector: {@code $PUSHTALLY_BINARY serve} on a fresh SQLite database, then on a
 * fresh PostgreSQL database ({@code $PUSHTALLY_TEST_POSTGRES}, as scripts/test sets it). Three
 * devices (three outbox directories, so three install ids) show a push, tap, dismiss and start sessions through
 * the client's own outbox and sender; the first receipts batch reaches the collector but its answer is lost on
 * the way back, so the client sends the same batch again. The reports must count every display, tap and
 * dismissal once, under the platform {@code android}; the same push sent to iOS through APNs (a send record of its
 * own) sets each platform's sent and display rate side by side.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CollectorEndToEndTest {
    private static final String PUSH_ID = "android-e2e-1";
    private static final String CAMPAIGN = "android e2e";

    @TempDir
    File directory;

    @Test
    void theCollectorCountsWhatTheClientSentOnceUnderAndroidOnSQLite() throws Exception {
        countsOnce(null);
    }

    /** The same on PostgreSQL, the server scripts/test starts ({@code PUSHTALLY_TEST_POSTGRES}). */
    @Test
    void theCollectorCountsWhatTheClientSentOnceUnderAndroidOnPostgreSQL() throws Exception {
        String postgres = System.getenv("PUSHTALLY_TEST_POSTGRES");
        if (postgres == null || postgres.isEmpty()) {
            fail("PUSHTALLY_TEST_POSTGRES is not set: it must name a PostgreSQL server (scripts/test sets it from "
                    + "scripts/postgres); this test never skips");
        }
        countsOnce(postgres);
    }

    private void countsOnce(String postgres) throws Exception {
        String binary = System.getenv("PUSHTALLY_BINARY");
        if (binary == null || binary.isEmpty()) {
            fail("PUSHTALLY_BINARY is not set: it must name the built pushtally executable (scripts/test sets it to "
                    + ".build/debug/pushtally); this test never skips");
        }
        if (!new File(binary).canExecute()) fail("PUSHTALLY_BINARY=" + binary + " is not an executable file");

        File serverDirectory = new File(directory, postgres == null ? "server-sqlite" : "server-postgres");
        assertTrue(serverDirectory.mkdirs());
        try (CollectorProcess collector = CollectorProcess.start(binary, serverDirectory, postgres)) {
            String token = collector.adminToken;
            Http registered = Http.exchange("PUT", collector.url() + "/v1/pushes/" + PUSH_ID, token, "application/json",
                    ("{\"campaign\":\"" + CAMPAIGN + "\",\"title\":\"Spring sale\",\"sent_at\":\""
                            + Instant.now().minusSeconds(60) + "\",\"sent\":3,\"platform\":\"android\"}").getBytes(StandardCharsets.UTF_8));
            assertEquals(201, registered.status, registered.toString());
            // The same push went to iOS devices through APNs: a second send record, naming its platform, and one
            // display receipt as PushTallyKit posts it.
            Http apns = Http.exchange("POST", collector.url() + "/v1/pushes/" + PUSH_ID + "/sends", token, "application/json",
                    "{\"batch_id\":\"apns\",\"sent\":2,\"platform\":\"ios\"}".getBytes(StandardCharsets.UTF_8));
            assertEquals(200, apns.status, apns.toString());
            Http iosReceipt = Http.exchange("POST", collector.url() + "/v1/receipts", null, "application/json",
                    ("{\"push_id\":\"" + PUSH_ID + "\",\"receipt_id\":\"ios-1\",\"device_id\":\"ios-device\",\"platform\":\"ios\"}")
                            .getBytes(StandardCharsets.UTF_8));
            assertTrue(iosReceipt.status / 100 == 2, iosReceipt.toString());

            HttpServer proxy = answerLosingProxy(collector.url());
            try {
                String viaProxy = "http://127.0.0.1:" + proxy.getAddress().getPort();
                PushTallyClient first = device(viaProxy, "first");
                PushTallyClient second = device(viaProxy, "second");
                PushTallyClient third = device(viaProxy, "third");

                assertTrue(first.recordDisplay(PUSH_ID, MediaOutcome.ATTACHED, 840));
                assertTrue(first.recordAction(PUSH_ID, "open"));
                assertTrue(first.recordSession(NotificationPermission.AUTHORIZED));
                // The receipts batch is stored, but its answer never arrives: the rest waits behind the failure.
                FlushResult lost = first.flush(20_000, true);
                assertEquals(0, lost.delivered(), lost.toString());
                assertEquals(3, lost.queued(), lost.toString());
                assertTrue(lost.retryAtMillis() > 0, "a lost answer backs off: " + lost);
                // The same batch again, and the rest after it.
                FlushResult retried = first.flush(20_000, true);
                assertEquals(3, retried.delivered(), retried.toString());
                assertEquals(0, retried.queued(), retried.toString());

                assertTrue(second.recordDisplay(PUSH_ID, MediaOutcome.NONE, 120));
                assertTrue(second.recordAction(PUSH_ID, "open"));
                assertTrue(second.recordAction(PUSH_ID, "later"));
                assertTrue(second.recordSession(NotificationPermission.DENIED));
                assertTrue(third.recordDisplay(PUSH_ID, MediaOutcome.TIMED_OUT, 5000));
                assertTrue(third.recordAction(PUSH_ID, "dismiss"));
                assertTrue(third.recordSession(NotificationPermission.NOT_DETERMINED));
                for (PushTallyClient device : new PushTallyClient[] {second, third}) {
                    FlushResult sent = device.flush(20_000, false);
                    assertEquals(0, sent.queued(), sent.toString());
                    assertEquals(0, sent.rejected(), sent.toString());
                }
            } finally {
                proxy.stop(0);
            }

            Map<String, Object> push = onlyRow(report(collector, "/v1/reports/pushes/" + PUSH_ID), "pushes");
            assertEquals(5L, push.get("displayed"), "four receipts arrived from Android, one of them twice, and one from iOS: " + push);
            assertEquals(1L, push.get("duplicates"), "the retried receipt counts once: " + push);
            assertEquals(4L, push.get("displayed_unique"), push.toString());
            assertEquals(2L, push.get("opened_unique"), push.toString());
            assertEquals(2L, push.get("opened"), push.toString());
            assertEquals(1L, push.get("dismissed"), push.toString());
            assertEquals(1L, ((Map<?, ?>) push.get("actions")).get("later"), push.toString());
            assertEquals(1L, push.get("media_attached"), push.toString());
            assertEquals(1L, push.get("media_timed_out"), push.toString());
            assertEquals(0L, push.get("media_failed"), push.toString());

            Map<String, Object> android = onlyRow(report(collector, "/v1/reports/pushes/" + PUSH_ID + "?platform=android"), "pushes");
            assertEquals(3L, android.get("displayed_unique"), "every display was android's: " + android);
            assertEquals(2L, android.get("opened_unique"), android.toString());
            assertEquals(1L, android.get("dismissed"), android.toString());

            Map<String, Object> byPlatform = platformRow(collector, "android");
            assertEquals(3L, byPlatform.get("displayed_unique"), byPlatform.toString());
            assertEquals(2L, byPlatform.get("opened_unique"), byPlatform.toString());
            assertEquals(1L, byPlatform.get("dismissed"), byPlatform.toString());
            // Each platform's own sends and display rate, side by side: Android 3 of 3, iOS 1 of 2.
            assertEquals(3L, byPlatform.get("sent"), byPlatform.toString());
            assertEquals(1.0, rate(byPlatform), byPlatform.toString());
            Map<String, Object> ios = platformRow(collector, "ios");
            assertEquals(2L, ios.get("sent"), ios.toString());
            assertEquals(1L, ios.get("displayed_unique"), ios.toString());
            assertEquals(0.5, rate(ios), ios.toString());

            Map<String, Object> audience = onlyRow(report(collector, "/v1/reports/audience"), "audience");
            assertEquals(3L, audience.get("devices"), audience.toString());
            assertEquals(1L, audience.get("authorized"), audience.toString());
            assertEquals(1L, audience.get("denied"), audience.toString());
            assertEquals(1L, audience.get("not_determined"), audience.toString());
        }
    }

    /** A row's {@code display_rate}, which JSON writes as {@code 1} or {@code 0.5} alike. */
    private static double rate(Map<String, Object> row) {
        Object rate = row.get("display_rate");
        if (!(rate instanceof Number)) throw new AssertionError("display_rate is not a number: " + row);
        return ((Number) rate).doubleValue();
    }

    /** The campaign's row of {@code platform} in {@code campaigns?by=platform}. */
    private static Map<String, Object> platformRow(CollectorProcess collector, String platform) throws Exception {
        for (Object row : (List<?>) report(collector, "/v1/reports/campaigns?by=platform").get("campaigns")) {
            Map<?, ?> campaign = (Map<?, ?>) row;
            if (CAMPAIGN.equals(campaign.get("campaign")) && platform.equals(campaign.get("platform"))) {
                @SuppressWarnings("unchecked")
                Map<String, Object> found = (Map<String, Object>) campaign;
                return found;
            }
        }
        throw new AssertionError("no " + platform + " row in campaigns?by=platform");
    }

    private PushTallyClient device(String collector, String name) throws IOException {
        return new PushTallyClient(ClientConfiguration.builder(collector, new File(directory, name))
                .app("com.example.news").appVersion("4.2.0").osVersion("14").build());
    }

    private static Map<String, Object> report(CollectorProcess collector, String path) throws Exception {
        Http answer = Http.exchange("GET", collector.url() + path, collector.adminToken, null, null);
        assertEquals(200, answer.status, path + ": " + answer + "\n" + collector.log());
        return answer.json();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> onlyRow(Map<String, Object> report, String key) {
        List<?> rows = (List<?>) report.get(key);
        assertEquals(1, rows.size(), report.toString());
        return (Map<String, Object>) rows.get(0);
    }

    /**
     * Forwards every request to the collector; the first receipts batch's answer is then replaced by a 503, as
     * if the connection broke after the collector stored it.
     */
    private static HttpServer answerLosingProxy(String collector) throws IOException {
        AtomicBoolean lost = new AtomicBoolean();
        HttpServer proxy = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        proxy.createContext("/", exchange -> {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            Http forwarded = Http.exchange(exchange.getRequestMethod(), collector + exchange.getRequestURI(), null,
                    exchange.getRequestHeaders().getFirst("Content-Type"), body);
            if (authorization != null) throw new IOException("no ingest key was configured, so none may be sent");
            int status = forwarded.status;
            byte[] answer = forwarded.body.getBytes(StandardCharsets.UTF_8);
            if (exchange.getRequestURI().getPath().equals("/v1/receipts") && lost.compareAndSet(false, true)) {
                status = 503;
                answer = "{\"error\":\"unavailable\",\"message\":\"answer lost\"}".getBytes(StandardCharsets.UTF_8);
            }
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
            exchange.close();
        });
        proxy.start();
        return proxy;
    }
}
