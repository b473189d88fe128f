package android.content;

/** API 1 */
public abstract class BroadcastReceiver {
    /** API 1 */
    public BroadcastReceiver() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public abstract void onReceive(Context context, Intent intent);

    /** API 11 */
    public final PendingResult goAsync() {
        throw new RuntimeException("Stub!");
    }

    /** API 11 */
    public static class PendingResult {
        PendingResult() {
            throw new RuntimeException("Stub!");
        }

        /** API 11 */
        public final void finish() {
            throw new RuntimeException("Stub!");
        }
    }
}
