package android.app.job;

import android.app.Service;

/** API 21 */
public abstract class JobService extends Service {
    /** API 21 */
    public JobService() {
        throw new RuntimeException("Stub!");
    }

    /** API 21 */
    public abstract boolean onStartJob(JobParameters params);

    /** API 21 */
    public abstract boolean onStopJob(JobParameters params);

    /** API 21 */
    public final void jobFinished(JobParameters params, boolean wantsReschedule) {
        throw new RuntimeException("Stub!");
    }
}
