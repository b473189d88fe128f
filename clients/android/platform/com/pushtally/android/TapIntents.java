package com.pushtally.android;

import android.app.PendingIntent;
import android.content.Context;
import android.content.Intent;
import android.net.Uri;
import android.os.Build;

/**
 * The PendingIntents a PushTally notification carries. Taps go straight to an Activity: from Android 12 on a
 * notification may not start an Activity through a receiver or service in between (a "trampoline"), and the
 * Activity then records the tap itself. Dismissals go to {@link PushTallyDismissReceiver}, which starts nothing.
 *
 * <p>Every intent's data is a {@code pushtally:} URI naming its own receipt id: the system tells PendingIntents
 * apart by their intents' data (not their extras), so no two of them, of one notification or of two, are ever
 * taken for one, whose extras {@code FLAG_UPDATE_CURRENT} would overwrite. Request codes stay stable per
 * notification.</p>
 */
final class TapIntents {
    static final String EXTRA_PUSH_ID = "com.pushtally.PUSH_ID";
    static final String EXTRA_ACTION = "com.pushtally.ACTION";
    static final String EXTRA_RECEIPT_ID = "com.pushtally.RECEIPT_ID";
    static final String EXTRA_NOTIFICATION_TAG = "com.pushtally.NOTIFICATION_TAG";
    static final String DATA_SCHEME = "pushtally";

    private TapIntents() {}

    /**
     * Opens {@code openActivity} (or the launcher Activity) with what the tap was; null when the app has no
     * Activity to open. {@code receiptId} is made now, once per button, so a tap the Activity reads twice
     * (recreated after a configuration change) counts once at the collector.
     */
    static PendingIntent open(Context context, Class<?> openActivity, String pushId, String action, String receiptId,
            String tag, String url, int requestCode) {
        Intent intent;
        if (openActivity != null) {
            intent = new Intent(context, openActivity);
        } else {
            Intent launcher = context.getPackageManager().getLaunchIntentForPackage(context.getPackageName());
            if (launcher == null) return null;
            intent = new Intent(launcher);
        }
        // A PendingIntent's Activity starts outside any task of the app's; single top brings a running one to
        // onNewIntent instead of stacking a second copy.
        intent.addFlags(Intent.FLAG_ACTIVITY_NEW_TASK | Intent.FLAG_ACTIVITY_SINGLE_TOP);
        intent.setData(distinct(receiptId));
        intent.putExtra(EXTRA_PUSH_ID, pushId);
        intent.putExtra(EXTRA_ACTION, action);
        intent.putExtra(EXTRA_RECEIPT_ID, receiptId);
        intent.putExtra(EXTRA_NOTIFICATION_TAG, tag);
        if (url != null) intent.putExtra(PushTally.EXTRA_URL, url);
        return PendingIntent.getActivity(context, requestCode, intent, flags());
    }

    /** Tells {@link PushTallyDismissReceiver} the notification was swiped away or cleared. */
    static PendingIntent dismiss(Context context, String pushId, String receiptId, int requestCode) {
        Intent intent = new Intent(context, PushTallyDismissReceiver.class);
        intent.setData(distinct(receiptId));
        intent.putExtra(EXTRA_PUSH_ID, pushId);
        intent.putExtra(EXTRA_RECEIPT_ID, receiptId);
        return PendingIntent.getBroadcast(context, requestCode, intent, flags());
    }

    /** What makes an intent unlike every other: the intents name their components, so data never routes them. */
    private static Uri distinct(String receiptId) {
        return Uri.fromParts(DATA_SCHEME, receiptId, null);
    }

    /**
     * Immutable where the platform has the flag (API 23; required from API 31): nothing may fill in these
     * intents. Updating the current one only ever meets the same notification's own intent (see the data above).
     */
    private static int flags() {
        int flags = PendingIntent.FLAG_UPDATE_CURRENT;
        if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.M) flags |= PendingIntent.FLAG_IMMUTABLE;
        return flags;
    }
}
