package android.app;

/** API 1 */
public class Notification {
    /** API 1 */
    public Notification() {
        throw new RuntimeException("Stub!");
    }
}
