package android.os;

/** API 1 */
public final class Bundle {
    /** API 1 */
    public Bundle() {
        throw new RuntimeException("Stub!");
    }
}
