package android.app;

import android.content.Context;
import android.content.Intent;

/** API 1 */
public final class PendingIntent {
    PendingIntent() {
        throw new RuntimeException("Stub!");
    }

    /** API 3 */
    public static final int FLAG_UPDATE_CURRENT = 134217728;
    /** API 23 */
    public static final int FLAG_IMMUTABLE = 67108864;

    /** API 1 */
    public static PendingIntent getActivity(Context context, int requestCode, Intent intent, int flags) {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public static PendingIntent getBroadcast(Context context, int requestCode, Intent intent, int flags) {
        throw new RuntimeException("Stub!");
    }
}
