package android.content;

/** API 1 */
public class Intent {
    /** API 1 */
    public Intent(Context packageContext, Class<?> cls) {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public Intent(Intent o) {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public static final int FLAG_ACTIVITY_NEW_TASK = 268435456;
    /** API 1 */
    public static final int FLAG_ACTIVITY_SINGLE_TOP = 536870912;
    /** API 1 */
    public static final int FLAG_ACTIVITY_LAUNCHED_FROM_HISTORY = 1048576;

    /** API 1 */
    public Intent setData(android.net.Uri data) {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public Intent addFlags(int flags) {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public int getFlags() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public Intent putExtra(String name, String value) {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public String getStringExtra(String name) {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public void removeExtra(String name) {
        throw new RuntimeException("Stub!");
    }
}
