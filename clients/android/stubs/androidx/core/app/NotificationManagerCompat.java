package androidx.core.app;

import android.app.Notification;
import android.content.Context;

/** API 14; androidx.core 1.0.0 */
public final class NotificationManagerCompat {
    NotificationManagerCompat() {
        throw new RuntimeException("Stub!");
    }

    /** API 14; androidx.core 1.0.0 */
    public static NotificationManagerCompat from(Context context) {
        throw new RuntimeException("Stub!");
    }

    /** API 14; androidx.core 1.0.0 */
    public boolean areNotificationsEnabled() {
        throw new RuntimeException("Stub!");
    }

    /** API 14; androidx.core 1.0.0 */
    public void notify(String tag, int id, Notification notification) {
        throw new RuntimeException("Stub!");
    }

    /** API 14; androidx.core 1.0.0 */
    public void cancel(String tag, int id) {
        throw new RuntimeException("Stub!");
    }
}
