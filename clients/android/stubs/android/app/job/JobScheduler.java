package android.app.job;

/** API 21 */
public abstract class JobScheduler {
    /** API 21 */
    public JobScheduler() {
        throw new RuntimeException("Stub!");
    }

    /** API 21 */
    public static final int RESULT_SUCCESS = 1;

    /** API 21 */
    public abstract int schedule(JobInfo job);
}
