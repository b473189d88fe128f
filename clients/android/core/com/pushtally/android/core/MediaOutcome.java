package com.pushtally.android.core;

/** What became of a push's image, as a display receipt reports it ({@code media}). */
public enum MediaOutcome {
    /** The push named no image. */
    NONE("none"),
    /** The image was downloaded and shown in the notification. */
    ATTACHED("attached"),
    /**
     * The image could not be shown: an error answer, a type that is not an image, a file over the size limit,
     * a URL that is not http(s), or bytes the platform could not decode. The plain notification was shown.
     */
    FAILED("failed"),
    /** The image did not arrive within the budget: the plain notification was shown. */
    TIMED_OUT("timed_out");

    private final String wireValue;

    MediaOutcome(String wireValue) {
        this.wireValue = wireValue;
    }

    /** The value the collector takes in a receipt's {@code media} field. */
    public String wireValue() {
        return wireValue;
    }
}
