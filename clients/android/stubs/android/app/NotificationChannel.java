package android.app;

/** API 26 */
public final class NotificationChannel {
    /** API 26 */
    public NotificationChannel(String id, CharSequence name, int importance) {
        throw new RuntimeException("Stub!");
    }

    /** API 26 */
    public int getImportance() {
        throw new RuntimeException("Stub!");
    }

    /** API 26 */
    public String getGroup() {
        throw new RuntimeException("Stub!");
    }
}
