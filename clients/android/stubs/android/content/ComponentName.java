package android.content;

/** API 1 */
public final class ComponentName {
    /** API 1 */
    public ComponentName(Context packageContext, Class<?> cls) {
        throw new RuntimeException("Stub!");
    }
}
