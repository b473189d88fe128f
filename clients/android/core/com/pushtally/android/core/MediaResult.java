package com.pushtally.android.core;

/** How a media download ended: its outcome, and the image when it arrived whole. */
public final class MediaResult {
    private final MediaOutcome outcome;
    private final byte[] bytes;
    private final String contentType;
    private final String reason;

    private MediaResult(MediaOutcome outcome, byte[] bytes, String contentType, String reason) {
        this.outcome = outcome;
        this.bytes = bytes;
        this.contentType = contentType;
        this.reason = reason;
    }

    static MediaResult arrived(byte[] bytes, String contentType) {
        return new MediaResult(MediaOutcome.ATTACHED, bytes, contentType, "downloaded");
    }

    static MediaResult failed(String reason) {
        return new MediaResult(MediaOutcome.FAILED, null, null, reason);
    }

    static MediaResult timedOut() {
        return new MediaResult(MediaOutcome.TIMED_OUT, null, null, "the budget ran out");
    }

    static MediaResult none() {
        return new MediaResult(MediaOutcome.NONE, null, null, "no media");
    }

    /**
     * {@link MediaOutcome#ATTACHED} when the image arrived (the platform may still fail to decode it, which then
     * makes the display's outcome {@link MediaOutcome#FAILED}), else why not.
     */
    public MediaOutcome outcome() {
        return outcome;
    }

    /** The image's bytes when it arrived, else null. */
    public byte[] bytes() {
        return bytes;
    }

    /** The host's {@code Content-Type} when the image arrived ({@code image/png}), else null. */
    public String contentType() {
        return contentType;
    }

    /** Why it ended as it did, for logs. */
    public String reason() {
        return reason;
    }

    @Override
    public String toString() {
        return outcome.wireValue() + " (" + reason + ")";
    }
}
