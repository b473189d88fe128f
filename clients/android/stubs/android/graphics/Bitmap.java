package android.graphics;

/** API 1 */
public final class Bitmap {
    Bitmap() {
        throw new RuntimeException("Stub!");
    }
}
