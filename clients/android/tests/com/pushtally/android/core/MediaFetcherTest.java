package com.pushtally.android.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MediaFetcherTest {
    static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    private static final int LIMIT = 1024;

    private final CountDownLatch released = new CountDownLatch(1);
    private LocalServer server;

    @BeforeEach
    void start() throws Exception {
        server = new LocalServer(request -> {
            switch (request.path) {
                case "/fast.png":
                    return new LocalServer.Answer(200, "image/png", PNG);
                case "/photo.jpg":
                    return new LocalServer.Answer(200, "IMAGE/JPEG; charset=binary", new byte[LIMIT]);
                case "/page":
                    return new LocalServer.Answer(200, "text/html; charset=utf-8", "<html></html>".getBytes("UTF-8"));
                case "/drawing.svg":
                    return new LocalServer.Answer(200, "image/svg+xml", "<svg/>".getBytes("UTF-8"));
                case "/big.jpg":
                    return new LocalServer.Answer(200, "image/jpeg", new byte[LIMIT + 1]);
                case "/empty.png":
                    return new LocalServer.Answer(200, "image/png", new byte[0]);
                case "/slow.png":
                    // Stalls for 5 s (or until the test ends) before answering at all.
                    released.await(5, TimeUnit.SECONDS);
                    return new LocalServer.Answer(200, "image/png", PNG);
                default:
                    return LocalServer.Answer.json(404, "{\"error\":\"not_found\"}");
            }
        });
        // A body of unknown length (chunked), over the limit: only reading it can tell.
        server.server().createContext("/chunked.jpg", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "image/jpeg");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(new byte[LIMIT * 3]);
            }
        });
    }

    @AfterEach
    void stop() {
        released.countDown();
        server.close();
    }

    private MediaResult fetch(String path, long budgetMillis) {
        return new MediaFetcher(LIMIT).fetch(server.url() + path, budgetMillis);
    }

    @Test
    void aFastImageArrives() {
        MediaResult result = fetch("/fast.png", 5000);
        assertEquals(MediaOutcome.ATTACHED, result.outcome(), result.toString());
        assertArrayEquals(PNG, result.bytes());
        assertEquals("image/png", result.contentType());
        assertEquals(MediaOutcome.ATTACHED, fetch("/photo.jpg", 5000).outcome(), "exactly at the limit, any case of type");
    }

    @Test
    void anErrorAnswerFails() {
        MediaResult result = fetch("/missing.png", 5000);
        assertEquals(MediaOutcome.FAILED, result.outcome());
        assertNull(result.bytes());
        assertTrue(result.reason().contains("404"), result.reason());
    }

    @Test
    void aTypeThatIsNoBitmapImageFails() {
        assertEquals(MediaOutcome.FAILED, fetch("/page", 5000).outcome());
        assertEquals(MediaOutcome.FAILED, fetch("/drawing.svg", 5000).outcome());
    }

    @Test
    void anImageOverTheLimitFailsWhetherDeclaredOrNot() {
        assertEquals(MediaOutcome.FAILED, fetch("/big.jpg", 5000).outcome());
        MediaResult chunked = fetch("/chunked.jpg", 5000);
        assertEquals(MediaOutcome.FAILED, chunked.outcome(), chunked.toString());
        assertEquals(MediaOutcome.FAILED, fetch("/empty.png", 5000).outcome(), "an empty body is no image");
    }

    @Test
    void aSlowImageTimesOutAtTheBudget() {
        long started = System.nanoTime();
        MediaResult result = fetch("/slow.png", 300);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertEquals(MediaOutcome.TIMED_OUT, result.outcome(), result.toString());
        // Not before the budget (less a little for timer granularity), and well before the image's 5 s stall: the
        // upper margin is for a loaded machine.
        assertTrue(tookMillis >= 250 && tookMillis < 4500, "gave up after " + tookMillis + " ms");
    }

    @Test
    void urlsThatAreNotHttpFailAndNoBudgetIsATimeout() {
        assertEquals(MediaOutcome.FAILED, new MediaFetcher(LIMIT).fetch("file:///etc/passwd", 5000).outcome());
        assertEquals(MediaOutcome.FAILED, new MediaFetcher(LIMIT).fetch("not a url", 5000).outcome());
        assertEquals(MediaOutcome.TIMED_OUT, fetch("/fast.png", 0).outcome());
    }

    @Test
    void readsContentTypes() {
        assertTrue(MediaFetcher.isImageType("image/webp"));
        assertFalse(MediaFetcher.isImageType("image/"));
        assertFalse(MediaFetcher.isImageType(null));
        assertFalse(MediaFetcher.isImageType("application/octet-stream"));
    }
}
