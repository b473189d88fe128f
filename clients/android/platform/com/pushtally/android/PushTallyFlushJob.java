package com.pushtally.android;

import android.app.job.JobParameters;
import android.app.job.JobService;

/**
 * Sends what the outbox holds once the device is online: scheduled by PushTally whenever events are left unsent.
 * Declare it in the app's manifest with {@code android:permission="android.permission.BIND_JOB_SERVICE"}.
 */
public final class PushTallyFlushJob extends JobService {
    @Override
    public boolean onStartJob(final JobParameters params) {
        PushTally.get(this).onFlushJob(new PushTally.JobCallback() {
            @Override
            public void finished(boolean reschedule) {
                jobFinished(params, reschedule);
            }
        });
        // The flush goes on off the main thread; jobFinished says when it ends.
        return true;
    }

    @Override
    public boolean onStopJob(JobParameters params) {
        // Stopped by the system (the network went away): run again later. The outbox keeps every event either way.
        return true;
    }
}
