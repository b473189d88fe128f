package android.app;

import android.content.ContextWrapper;

/** API 1 */
public class Application extends ContextWrapper {
    /** API 1 */
    public Application() {
        super(null);
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public void onCreate() {
        throw new RuntimeException("Stub!");
    }
}
