package com.pushtally.android;

import android.app.job.JobInfo;
import android.app.job.JobScheduler;
import android.content.ComponentName;
import android.content.Context;
import android.util.Log;

/**
 * Leaves what could not be sent to the platform's job scheduler: {@link PushTallyFlushJob} runs once the device
 * has a network, after the client's backoff, even if the app is not running then.
 */
final class FlushScheduler {
    /** The scheduler's own backoff when a job asks to be run again. */
    private static final long JOB_BACKOFF_MILLIS = 30_000;

    private FlushScheduler() {}

    /** Schedules the flush job to run no sooner than {@code delayMillis} from now; replaces one already pending. */
    static void schedule(Context context, int jobId, long delayMillis) {
        JobScheduler scheduler = (JobScheduler) context.getSystemService(Context.JOB_SCHEDULER_SERVICE);
        if (scheduler == null) return;
        JobInfo job = new JobInfo.Builder(jobId, new ComponentName(context, PushTallyFlushJob.class))
                .setRequiredNetworkType(JobInfo.NETWORK_TYPE_ANY)
                .setMinimumLatency(Math.max(0, delayMillis))
                .setBackoffCriteria(JOB_BACKOFF_MILLIS, JobInfo.BACKOFF_POLICY_EXPONENTIAL)
                .build();
        if (scheduler.schedule(job) != JobScheduler.RESULT_SUCCESS) {
            Log.w(PushTally.LOG_TAG, "the flush job could not be scheduled; events wait for the next push or session");
        }
    }
}
