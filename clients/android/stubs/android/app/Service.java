package android.app;

import android.content.ContextWrapper;

/** API 1 */
public abstract class Service extends ContextWrapper {
    /** API 1 */
    public Service() {
        super(null);
        throw new RuntimeException("Stub!");
    }
}
