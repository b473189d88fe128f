package android.content;

/** API 1 */
public interface SharedPreferences {
    /** API 1 */
    boolean getBoolean(String key, boolean defValue);

    /** API 1 */
    Editor edit();

    /** API 1 */
    interface Editor {
        /** API 1 */
        Editor putBoolean(String key, boolean value);

        /** API 9 */
        void apply();
    }
}
