package android.app;

/** API 26 */
public final class NotificationChannelGroup {
    /** API 26 */
    public NotificationChannelGroup(String id, CharSequence name) {
        throw new RuntimeException("Stub!");
    }

    /** API 28 */
    public boolean isBlocked() {
        throw new RuntimeException("Stub!");
    }
}
