package com.pushtally.android.e2e;

import com.pushtally.android.core.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** One HTTP exchange with the collector, as its backend and dashboard make them. */
final class Http {
    final int status;
    final String body;

    private Http(int status, String body) {
        this.status = status;
        this.body = body;
    }

    static Http exchange(String method, String url, String token, String contentType, byte[] body) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
        connection.setRequestMethod(method);
        connection.setConnectTimeout(10_000);
        connection.setReadTimeout(30_000);
        if (token != null) connection.setRequestProperty("Authorization", "Bearer " + token);
        if (body != null) {
            connection.setDoOutput(true);
            connection.setRequestProperty("Content-Type", contentType);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(body);
            }
        }
        int status = connection.getResponseCode();
        InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        if (in != null) {
            try (InputStream stream = in) {
                byte[] buffer = new byte[8192];
                for (int count = stream.read(buffer); count != -1; count = stream.read(buffer)) read.write(buffer, 0, count);
            }
        }
        connection.disconnect();
        return new Http(status, new String(read.toByteArray(), StandardCharsets.UTF_8));
    }

    Map<String, Object> json() throws Json.ParseException {
        return Json.parseObject(body);
    }

    @Override
    public String toString() {
        return status + " " + body;
    }
}
