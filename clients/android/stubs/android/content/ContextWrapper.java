package android.content;

import android.content.pm.PackageManager;
import java.io.File;

/** API 1 */
public class ContextWrapper extends Context {
    /** API 1 */
    public ContextWrapper(Context base) {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    @Override
    public Context getApplicationContext() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    @Override
    public String getPackageName() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    @Override
    public PackageManager getPackageManager() {
        throw new RuntimeException("Stub!");
    }

    /** API 21 */
    @Override
    public File getNoBackupFilesDir() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    @Override
    public SharedPreferences getSharedPreferences(String name, int mode) {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    @Override
    public Object getSystemService(String name) {
        throw new RuntimeException("Stub!");
    }
}
