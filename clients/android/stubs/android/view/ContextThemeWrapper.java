package android.view;

import android.content.ContextWrapper;

/** API 1 */
public class ContextThemeWrapper extends ContextWrapper {
    /** API 1 */
    public ContextThemeWrapper() {
        super(null);
        throw new RuntimeException("Stub!");
    }
}
