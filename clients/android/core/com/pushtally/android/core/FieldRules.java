package com.pushtally.android.core;

import java.nio.charset.Charset;

/**
 * The collector's rules for the fields the app names, checked before an event is queued: an event the
 * collector would refuse is better not recorded (the caller learns at once) than sent and counted as
 * rejected later.
 */
final class FieldRules {
    static final int MAX_ID_BYTES = 128;
    static final int MAX_ACTION_BYTES = 64;
    private static final Charset UTF8 = Charset.forName("UTF-8");

    private FieldRules() {}

    /** Not empty, at most {@code limit} bytes of UTF-8, and no control characters (the collector refuses them). */
    static boolean isText(String text, int limit) {
        if (text == null || text.isEmpty() || text.getBytes(UTF8).length > limit) return false;
        for (int index = 0; index < text.length(); index++) {
            char character = text.charAt(index);
            if (character < 0x20 || character == 0x7F) return false;
        }
        return true;
    }
}
