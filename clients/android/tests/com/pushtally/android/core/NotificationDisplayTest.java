package com.pushtally.android.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NotificationDisplayTest {
    private static final long START = 1_763_625_600_000L;

    @TempDir
    File directory;

    @Test
    void recordsOneReceiptWithTheMediaOutcomeAndTheTimeToShow() throws Exception {
        TestClock clock = new TestClock(START);
        try (LocalServer media = new LocalServer(request -> new LocalServer.Answer(200, "image/png", MediaFetcherTest.PNG))) {
            PushTallyClient client = new PushTallyClient(ClientConfiguration.builder("http://127.0.0.1:9", directory)
                    .clock(clock).random(new TestRandom(0.5, "d-")).build());
            Map<String, String> data = new HashMap<String, String>();
            data.put("push_id", "2018001");
            data.put("title", "Spring sale");
            data.put("image", media.url() + "/sale.png");

            NotificationDisplay display = client.beginDisplay(PushPayload.fromData(data));
            MediaResult result = display.fetchMedia();
            assertEquals(MediaOutcome.ATTACHED, result.outcome(), result.toString());
            clock.advance(1234);
            assertTrue(display.recordShown(result.outcome()));
            assertFalse(display.recordShown(MediaOutcome.FAILED), "one receipt per display");

            List<OutboxEvent> events = client.status().events();
            assertEquals(1, events.size());
            assertEquals("attached", events.get(0).fields().get("media"));
            assertEquals(1234L, events.get(0).fields().get("extension_ms"));
        }
    }

    @Test
    void aPushWithoutAnImageIsNoneAndTheTimeIsHeldToTheCollectorsRange() throws Exception {
        TestClock clock = new TestClock(START);
        PushTallyClient client = new PushTallyClient(ClientConfiguration.builder("http://127.0.0.1:9", directory)
                .clock(clock).build());
        Map<String, String> data = new HashMap<String, String>();
        data.put("push_id", "2018002");
        NotificationDisplay display = client.beginDisplay(PushPayload.fromData(data));
        assertEquals(MediaOutcome.NONE, display.fetchMedia().outcome());
        clock.advance(90_000);
        display.recordShown(MediaOutcome.NONE);
        Map<String, Object> fields = client.status().events().get(0).fields();
        assertEquals("none", fields.get("media"));
        assertEquals(60_000L, fields.get("extension_ms"));
    }

    @Test
    void theBudgetCountsFromTheArrival() throws Exception {
        TestClock clock = new TestClock(START);
        PushTallyClient client = new PushTallyClient(ClientConfiguration.builder("http://127.0.0.1:9", directory)
                .clock(clock).mediaBudgetMillis(5000).build());
        Map<String, String> data = new HashMap<String, String>();
        data.put("push_id", "2018003");
        data.put("image", "http://127.0.0.1:9/never.png");
        NotificationDisplay display = client.beginDisplay(PushPayload.fromData(data));
        clock.advance(5000);
        assertEquals(MediaOutcome.TIMED_OUT, display.fetchMedia().outcome(), "nothing left of the budget");
    }
}
