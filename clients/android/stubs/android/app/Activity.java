package android.app;

import android.content.Intent;
import android.os.Bundle;
import android.view.ContextThemeWrapper;

/** API 1 */
public class Activity extends ContextThemeWrapper {
    /** API 1 */
    public Activity() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    protected void onCreate(Bundle savedInstanceState) {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    protected void onNewIntent(Intent intent) {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public Intent getIntent() {
        throw new RuntimeException("Stub!");
    }

    /** API 1 */
    public void setIntent(Intent newIntent) {
        throw new RuntimeException("Stub!");
    }
}
