package android.util;

/** API 1 */
public class AndroidException extends Exception {
    /** API 1 */
    public AndroidException() {
        throw new RuntimeException("Stub!");
    }
}
