package android;

/** API 1 */
public final class Manifest {
    /** API 1 */
    public Manifest() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public static final class permission {
        /** API 1 */
        public permission() {
            throw new RuntimeException("Stub!");
        }

        /** API 33 */
        public static final String POST_NOTIFICATIONS = "android.permission.POST_NOTIFICATIONS";
    }
}
