package android.content.pm;

/** API 1 */
public class PackageInfo {
    /** API 1 */
    public PackageInfo() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public String versionName;
}
