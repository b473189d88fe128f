package com.pushtally.android;

import android.graphics.Bitmap;
import android.graphics.BitmapFactory;
import com.pushtally.android.core.ImageScale;

/** Turns a downloaded image into the bitmap a notification shows, shrunk to what a notification needs. */
final class PictureDecoder {
    private PictureDecoder() {}

    /** The bitmap, or null when the bytes are no image the platform can decode. */
    static Bitmap decode(byte[] bytes) {
        BitmapFactory.Options bounds = new BitmapFactory.Options();
        bounds.inJustDecodeBounds = true;
        BitmapFactory.decodeByteArray(bytes, 0, bytes.length, bounds);
        if (bounds.outWidth <= 0 || bounds.outHeight <= 0) return null;
        BitmapFactory.Options options = new BitmapFactory.Options();
        options.inSampleSize = ImageScale.sampleSize(bounds.outWidth, bounds.outHeight, ImageScale.DEFAULT_MAX_EDGE);
        return BitmapFactory.decodeByteArray(bytes, 0, bytes.length, options);
    }
}
