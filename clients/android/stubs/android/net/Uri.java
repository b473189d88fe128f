package android.net;

/** API 1 */
public abstract class Uri {
    /** API 1 */
    Uri() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public static Uri fromParts(String scheme, String ssp, String fragment) {
        throw new RuntimeException("Stub!");
    }
}
