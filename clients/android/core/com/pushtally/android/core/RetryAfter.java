package com.pushtally.android.core;

import java.text.ParseException;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.Locale;
import java.util.TimeZone;

/** Reads a {@code Retry-After} header: delay-seconds or an HTTP date (RFC 9110, section 10.2.3). */
final class RetryAfter {
    // Longer than any backoff the client itself would wait: a value past it is a collector's mistake.
    private static final long MAX_MILLIS = 24L * 60 * 60 * 1000;

    private RetryAfter() {}

    /** The wait the header asks for in milliseconds, or -1 when there is none or it cannot be read. */
    static long millis(String header, long nowMillis) {
        if (header == null) return -1;
        String value = header.trim();
        if (value.isEmpty()) return -1;
        if (isDigits(value)) {
            if (value.length() > 9) return MAX_MILLIS;
            return Math.min(MAX_MILLIS, Long.parseLong(value) * 1000);
        }
        // SimpleDateFormat is not thread-safe, so each call makes its own.
        SimpleDateFormat format = new SimpleDateFormat("EEE, dd MMM yyyy HH:mm:ss zzz", Locale.US);
        format.setTimeZone(TimeZone.getTimeZone("GMT"));
        try {
            Date date = format.parse(value);
            return Math.min(MAX_MILLIS, Math.max(0, date.getTime() - nowMillis));
        } catch (ParseException notADate) {
            return -1;
        }
    }

    private static boolean isDigits(String value) {
        for (int index = 0; index < value.length(); index++) {
            char character = value.charAt(index);
            if (character < '0' || character > '9') return false;
        }
        return true;
    }
}
