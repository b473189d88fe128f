package com.pushtally.android.core;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Downloads a push's image within a time budget, the Android counterpart of PushTallyKit's media download: an
 * HTTP(S) GET whose answer must be a 2xx of an image type within a size limit, all of it before the deadline.
 * The image is kept in memory (it is decoded into a bitmap next), so the size limit also bounds memory.
 */
public final class MediaFetcher {
    private final int maxBytes;

    /** @param maxBytes the largest image taken; a larger one is {@link MediaOutcome#FAILED} */
    public MediaFetcher(int maxBytes) {
        if (maxBytes < 1) throw new IllegalArgumentException("maxBytes must be positive");
        this.maxBytes = maxBytes;
    }

    /**
     * Fetches {@code url} until {@code budgetMillis} have passed.
     *
     * @return {@link MediaOutcome#ATTACHED} with the bytes; {@link MediaOutcome#FAILED} for a URL that is not
     *     http(s), an answer other than 2xx, a type that is not an image (SVG included, which notifications cannot
     *     show), an empty body or one over the size limit, or a network error; {@link MediaOutcome#TIMED_OUT}
     *     when the budget ran out first, however far the download had got
     */
    public MediaResult fetch(String url, long budgetMillis) {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, budgetMillis));
        if (url == null || !(startsWithIgnoringCase(url, "http://") || startsWithIgnoringCase(url, "https://"))) {
            return MediaResult.failed("not an http(s) URL");
        }
        if (budgetMillis <= 0) return MediaResult.timedOut();
        final HttpURLConnection connection;
        try {
            connection = (HttpURLConnection) new URL(url).openConnection();
        } catch (IOException | RuntimeException unusable) {
            return MediaResult.failed("unusable URL: " + unusable.getMessage());
        }
        final AtomicBoolean cutOff = new AtomicBoolean();
        Watchdog watchdog = Watchdog.start(new Runnable() {
            @Override
            public void run() {
                cutOff.set(true);
                connection.disconnect();
            }
        }, budgetMillis);
        try {
            int timeout = (int) Math.max(1, Math.min(Integer.MAX_VALUE, budgetMillis));
            connection.setConnectTimeout(timeout);
            connection.setReadTimeout(timeout);
            connection.setUseCaches(false);
            connection.setRequestProperty("Accept", "image/*");
            int status = connection.getResponseCode();
            if (status < 200 || status >= 300) return MediaResult.failed("HTTP " + status);
            String type = connection.getContentType();
            if (!isImageType(type)) return MediaResult.failed("not an image: " + type);
            long declared = declaredLength(connection.getHeaderField("Content-Length"));
            if (declared > maxBytes) return MediaResult.failed("larger than " + maxBytes + " bytes: " + declared);
            byte[] bytes = HttpExchange.readBody(connection, status, maxBytes);
            if (System.nanoTime() - deadline >= 0 || cutOff.get()) return MediaResult.timedOut();
            if (bytes == null || bytes.length == 0) return MediaResult.failed("empty body");
            if (bytes.length > maxBytes) return MediaResult.failed("larger than " + maxBytes + " bytes");
            return MediaResult.arrived(bytes, type);
        } catch (SocketTimeoutException slow) {
            return MediaResult.timedOut();
        } catch (IOException | RuntimeException failure) {
            // The watchdog's disconnect surfaces as an I/O error of the read it ended.
            if (cutOff.get() || System.nanoTime() - deadline >= 0) return MediaResult.timedOut();
            return MediaResult.failed(failure.getClass().getSimpleName() + ": " + failure.getMessage());
        } finally {
            watchdog.cancel();
            connection.disconnect();
        }
    }

    /** {@code image/...} with any parameters, but not SVG, which is a document rather than a bitmap. */
    static boolean isImageType(String contentType) {
        if (contentType == null) return false;
        String type = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return type.startsWith("image/") && type.length() > "image/".length() && !type.startsWith("image/svg");
    }

    /**
     * The {@code Content-Length} a host declared, or -1. Read from the header rather than
     * {@code getContentLengthLong()}, which Android has only from API 24 on.
     */
    static long declaredLength(String header) {
        if (header == null) return -1;
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException unreadable) {
            return -1;
        }
    }

    private static boolean startsWithIgnoringCase(String text, String prefix) {
        return text.regionMatches(true, 0, prefix, 0, prefix.length());
    }
}
