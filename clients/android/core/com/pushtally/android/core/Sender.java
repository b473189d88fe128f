package com.pushtally.android.core;

import java.io.IOException;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.Charset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Posts one batch of events to its route as NDJSON and reads what the collector made of it.
 *
 * <p>The answers, as PushTallyKit and the web client read them: a {@code 2xx} took the batch, and its body's
 * {@code rejected} lists the lines it refused by index (dropped, since sending them again would not help); a
 * {@code 400} took none of it ({@code rejected} names every line, or the body could not be read): all dropped;
 * {@code 404} is a collector without the route: kept; {@code 408}, {@code 429}, {@code 5xx}, a redirect
 * (never followed with a body) and no answer at all are retried later, after {@code Retry-After} when given;
 * so are {@code 401} and {@code 403}: a wrong or rotated ingest key is the app's to fix, and the events must
 * survive until it is; {@code 413} says the batch is too large, not its events (the flush sends it in halves);
 * any other {@code 4xx} ({@code 415}) refuses the whole batch.</p>
 */
final class Sender {
    static final String CONTENT_TYPE = "application/x-ndjson";
    private static final Charset UTF8 = Charset.forName("UTF-8");
    // A batch answer names at most one refusal per line of a batch; this leaves ample room for every one.
    private static final int MAX_ANSWER_BYTES = 1 << 20;

    private final String collector;
    private final String ingestKey;
    private final long requestTimeoutMillis;
    private final Clock clock;

    Sender(String collector, String ingestKey, long requestTimeoutMillis, Clock clock) {
        this.collector = collector;
        this.ingestKey = ingestKey;
        this.requestTimeoutMillis = requestTimeoutMillis;
        this.clock = clock;
    }

    /** The request body for a batch: its events' lines, one per line. */
    static byte[] body(List<OutboxEvent> batch) {
        StringBuilder out = new StringBuilder();
        for (OutboxEvent event : batch) out.append(event.wireLine()).append('\n');
        return out.toString().getBytes(UTF8);
    }

    /** Sends {@code batch} (events of one route), giving up after {@code budgetMillis}. */
    SendOutcome send(Route route, List<OutboxEvent> batch, long budgetMillis) {
        long timeout = Math.max(1, Math.min(requestTimeoutMillis, budgetMillis));
        byte[] body = body(batch);
        final HttpURLConnection connection;
        try {
            connection = (HttpURLConnection) new URL(collector + "/" + route.path()).openConnection();
        } catch (IOException unusable) {
            return SendOutcome.retry(-1);
        }
        // The read timeout bounds each wait for bytes; the watchdog bounds the whole exchange.
        Watchdog watchdog = Watchdog.start(new Runnable() {
            @Override
            public void run() {
                connection.disconnect();
            }
        }, timeout);
        try {
            connection.setRequestMethod("POST");
            connection.setConnectTimeout((int) timeout);
            connection.setReadTimeout((int) timeout);
            connection.setUseCaches(false);
            connection.setInstanceFollowRedirects(false);
            connection.setDoOutput(true);
            connection.setFixedLengthStreamingMode(body.length);
            connection.setRequestProperty("Content-Type", CONTENT_TYPE);
            connection.setRequestProperty("Accept", "application/json");
            if (ingestKey != null) connection.setRequestProperty("Authorization", "Bearer " + ingestKey);
            OutputStream out = connection.getOutputStream();
            try {
                out.write(body);
            } finally {
                out.close();
            }
            int status = connection.getResponseCode();
            byte[] answer = HttpExchange.readBody(connection, status, MAX_ANSWER_BYTES);
            return outcome(status, answer, connection.getHeaderField("Retry-After"), batch.size());
        } catch (IOException | RuntimeException noAnswer) {
            // Offline, refused, reset, timed out or cut off by the watchdog: nothing is known to be stored.
            return SendOutcome.retry(-1);
        } finally {
            watchdog.cancel();
            connection.disconnect();
        }
    }

    SendOutcome outcome(int status, byte[] answer, String retryAfter, int lines) {
        if (status >= 200 && status < 300) return SendOutcome.delivered(refusedLines(answer, lines));
        if (status == 404) return SendOutcome.routeMissing();
        if (status == 413) return SendOutcome.tooLarge();
        // A key the collector does not take: the events are good, the app's configuration is not. Kept.
        if (status == 401 || status == 403 || status == 408 || status == 429 || status >= 500 || status < 200 || (status >= 300 && status < 400)) {
            return SendOutcome.retry(RetryAfter.millis(retryAfter, clock.currentTimeMillis()));
        }
        // 400, 415 and the rest of 4xx: nothing of the batch was taken, and sending it again would be refused again.
        return SendOutcome.delivered(lines);
    }

    /** How many lines a batch answer ({@code {"accepted":N,"rejected":[{"index":I,...}]}}) refused. */
    static int refusedLines(byte[] answer, int lines) {
        if (answer == null || answer.length == 0) return 0;
        Map<String, Object> parsed;
        try {
            parsed = Json.parseObject(new String(answer, UTF8));
        } catch (Json.ParseException unreadable) {
            // The collector took the batch (2xx); an answer it did not write as documented refuses nothing.
            return 0;
        }
        Object rejected = parsed.get("rejected");
        if (!(rejected instanceof List)) return 0;
        Set<Long> indices = new HashSet<Long>();
        for (Object item : (List<?>) rejected) {
            Object index = item instanceof Map ? ((Map<?, ?>) item).get("index") : null;
            if (index instanceof Long && (Long) index >= 0 && (Long) index < lines) indices.add((Long) index);
        }
        return indices.size();
    }
}
