package android.content.pm;

import android.content.Intent;
import android.util.AndroidException;

/** API 1 */
public abstract class PackageManager {
    /** API 1 */
    public PackageManager() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public static final int PERMISSION_GRANTED = 0;

    /** API 1 */
    public abstract PackageInfo getPackageInfo(String packageName, int flags) throws NameNotFoundException;

    /** API 3 */
    public abstract Intent getLaunchIntentForPackage(String packageName);

    /** API 1 */
    public static class NameNotFoundException extends AndroidException {
        /** API 1 */
        public NameNotFoundException() {
            throw new RuntimeException("Stub!");
        }
    }
}
