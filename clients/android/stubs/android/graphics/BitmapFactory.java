package android.graphics;

/** API 1 */
public class BitmapFactory {
    /** API 1 */
    public BitmapFactory() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public static Bitmap decodeByteArray(byte[] data, int offset, int length, Options opts) {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public static class Options {
        /** API 1 */
        public Options() {
            throw new RuntimeException("Stub!");
        }

        /** API 1 */
        public boolean inJustDecodeBounds;
        /** API 1 */
        public int inSampleSize;
        /** API 1 */
        public int outWidth;
        /** API 1 */
        public int outHeight;
    }
}
