package android.app.job;

/** API 21 */
public class JobParameters {
    JobParameters() {
        throw new RuntimeException("Stub!");
    }

    /** API 21 */
    public int getJobId() {
        throw new RuntimeException("Stub!");
    }
}
