package com.pushtally.android;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;

/**
 * Records the dismissal of a PushTally notification (swiped away, or cleared with the others): the notification's
 * {@code deleteIntent}. Declare it in the app's manifest, not exported.
 */
public final class PushTallyDismissReceiver extends BroadcastReceiver {
    @Override
    public void onReceive(Context context, Intent intent) {
        // The file write happens off the main thread, and goAsync keeps the broadcast open only until the dismissal
        // is on the disk; the send that follows runs on a thread of its own, never holding the broadcast.
        final PendingResult pending = goAsync();
        PushTally.get(context).onDismissIntent(intent, new Runnable() {
            @Override
            public void run() {
                pending.finish();
            }
        });
    }
}
