package android.os;

/** API 1 */
public class Build {
    /** API 1 */
    public Build() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public static class VERSION {
        /** API 1 */
        public VERSION() {
            throw new RuntimeException("Stub!");
        }

        // Assigned in a static block, as in android.jar, so that javac cannot inline them as constants: their
        // values are the device's, read when the app runs.
        /** API 4 */
        public static final int SDK_INT;
        /** API 1 */
        public static final String RELEASE;

        static {
            SDK_INT = 0;
            RELEASE = null;
        }
    }

    /** API 4 */
    public static class VERSION_CODES {
        /** API 4 */
        public VERSION_CODES() {
            throw new RuntimeException("Stub!");
        }

        /** API 23 */
        public static final int M = 23;
        /** API 26 */
        public static final int O = 26;
        /** API 28 */
        public static final int P = 28;
        /** API 33 */
        public static final int TIRAMISU = 33;
    }
}
