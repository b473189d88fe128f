package android.app;

/** API 1 */
public class NotificationManager {
    NotificationManager() {
        throw new RuntimeException("Stub!");
    }

    /** API 24 */
    public static final int IMPORTANCE_NONE = 0;
    /** API 24 */
    public static final int IMPORTANCE_DEFAULT = 3;

    /** API 26 */
    public NotificationChannel getNotificationChannel(String channelId) {
        throw new RuntimeException("Stub!");
    }

    /** API 26 */
    public void createNotificationChannel(NotificationChannel channel) {
        throw new RuntimeException("Stub!");
    }

    /** API 28 */
    public NotificationChannelGroup getNotificationChannelGroup(String channelGroupId) {
        throw new RuntimeException("Stub!");
    }
}
