package android.util;

/** API 1 */
public final class Log {
    Log() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public static int w(String tag, String msg) {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public static int w(String tag, String msg, Throwable tr) {
        throw new RuntimeException("Stub!");
    }
}
