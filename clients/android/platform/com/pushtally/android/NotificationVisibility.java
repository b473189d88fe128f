package com.pushtally.android;

import android.app.NotificationChannel;
import android.app.NotificationChannelGroup;
import android.app.NotificationManager;
import android.content.Context;
import android.os.Build;
import androidx.core.app.NotificationManagerCompat;

/**
 * Whether a notification posted now would reach the screen: the app's notifications are on (which on Android 13
 * includes the runtime permission), and on Android 8 and later its channel exists and is not blocked, nor the
 * channel's group (Android 9). A display receipt is recorded only then: a notification the system drops silently
 * was never displayed.
 */
final class NotificationVisibility {
    private NotificationVisibility() {}

    static boolean canShow(Context context, String channelId) {
        if (!NotificationManagerCompat.from(context).areNotificationsEnabled()) return false;
        if (Build.VERSION.SDK_INT < Build.VERSION_CODES.O) return true;
        NotificationManager manager = (NotificationManager) context.getSystemService(Context.NOTIFICATION_SERVICE);
        if (manager == null) return false;
        NotificationChannel channel = manager.getNotificationChannel(channelId);
        if (channel == null || channel.getImportance() == NotificationManager.IMPORTANCE_NONE) return false;
        if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.P && channel.getGroup() != null) {
            NotificationChannelGroup group = manager.getNotificationChannelGroup(channel.getGroup());
            if (group != null && group.isBlocked()) return false;
        }
        return true;
    }

    /**
     * The channel to post to: the one the push names if the app created it, else the default one, created here
     * on first use (Android 8 and later drop notifications posted to a channel that does not exist).
     */
    static String channelFor(Context context, String requested, PushTallySettings settings) {
        if (Build.VERSION.SDK_INT < Build.VERSION_CODES.O) return requested != null ? requested : settings.channelId();
        NotificationManager manager = (NotificationManager) context.getSystemService(Context.NOTIFICATION_SERVICE);
        if (manager == null) return settings.channelId();
        if (requested != null && manager.getNotificationChannel(requested) != null) return requested;
        if (manager.getNotificationChannel(settings.channelId()) == null) {
            manager.createNotificationChannel(
                    new NotificationChannel(settings.channelId(), settings.channelName(), NotificationManager.IMPORTANCE_DEFAULT));
        }
        return settings.channelId();
    }
}
