package android.app.job;

import android.content.ComponentName;

/** API 21 */
public class JobInfo {
    JobInfo() {
        throw new RuntimeException("Stub!");
    }

    /** API 21 */
    public static final int NETWORK_TYPE_ANY = 1;
    /** API 21 */
    public static final int BACKOFF_POLICY_EXPONENTIAL = 1;

    /** API 21 */
    public static final class Builder {
        /** API 21 */
        public Builder(int jobId, ComponentName jobService) {
            throw new RuntimeException("Stub!");
        }

        /** API 21 */
        public Builder setRequiredNetworkType(int networkType) {
            throw new RuntimeException("Stub!");
        }

        /** API 21 */
        public Builder setMinimumLatency(long minLatencyMillis) {
            throw new RuntimeException("Stub!");
        }

        /** API 21 */
        public Builder setBackoffCriteria(long initialBackoffMillis, int backoffPolicy) {
            throw new RuntimeException("Stub!");
        }

        /** API 21 */
        public JobInfo build() {
            throw new RuntimeException("Stub!");
        }
    }
}
