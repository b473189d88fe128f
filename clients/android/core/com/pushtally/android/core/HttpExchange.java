package com.pushtally.android.core;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;

/** Reading an answer's body with a limit, shared by the sender and the media download. */
final class HttpExchange {
    private HttpExchange() {}

    /**
     * Up to {@code limit} bytes of the body, then stops reading; null when the body has no stream (an error
     * answer without one). A longer body gives {@code limit + 1} bytes, so the caller can tell it was longer.
     */
    static byte[] readBody(HttpURLConnection connection, int status, int limit) throws IOException {
        InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
        if (in == null) return null;
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int total = 0;
            while (total <= limit) {
                int count = in.read(buffer, 0, Math.min(buffer.length, limit + 1 - total));
                if (count == -1) break;
                out.write(buffer, 0, count);
                total += count;
            }
            return out.toByteArray();
        } finally {
            in.close();
        }
    }
}
