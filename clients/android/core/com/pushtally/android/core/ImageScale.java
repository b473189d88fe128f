package com.pushtally.android.core;

/**
 * How far to shrink an image while decoding it for a notification: a photo straight from a camera would be
 * tens of megabytes as a bitmap, far more than a notification shows or its parcel should carry.
 */
public final class ImageScale {
    /** The longest edge a notification's picture needs, in pixels, by default. */
    public static final int DEFAULT_MAX_EDGE = 1024;

    private ImageScale() {}

    /**
     * The power of two to divide both edges by ({@code BitmapFactory.Options.inSampleSize}) so that the longer
     * edge is at most {@code maxEdge}: decoders subsample by powers of two exactly and cheaply.
     */
    public static int sampleSize(int width, int height, int maxEdge) {
        int longer = Math.max(width, height);
        int sample = 1;
        while (longer / sample > maxEdge && sample < (1 << 30)) sample *= 2;
        return sample;
    }
}
