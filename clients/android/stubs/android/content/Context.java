package android.content;

import android.content.pm.PackageManager;
import java.io.File;

/** API 1 */
public abstract class Context {
    /** API 1 */
    public Context() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public static final int MODE_PRIVATE = 0;
    /** API 1 */
    public static final String NOTIFICATION_SERVICE = "notification";
    /** API 21 */
    public static final String JOB_SCHEDULER_SERVICE = "jobscheduler";

    /** API 1 */
    public abstract Context getApplicationContext();

    /** API 1 */
    public abstract String getPackageName();

    /** API 1 */
    public abstract PackageManager getPackageManager();

    /** API 21 */
    public abstract File getNoBackupFilesDir();

    /** API 1 */
    public abstract SharedPreferences getSharedPreferences(String name, int mode);

    /** API 1 */
    public abstract Object getSystemService(String name);
}
