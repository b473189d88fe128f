package androidx.core.content;

import android.content.Context;

/** API 14; androidx.core 1.0.0 */
public class ContextCompat {
    /** API 14; androidx.core 1.0.0 */
    protected ContextCompat() {
        throw new RuntimeException("Stub!");
    }

    /** API 14; androidx.core 1.0.0 */
    public static int checkSelfPermission(Context context, String permission) {
        throw new RuntimeException("Stub!");
    }
}
