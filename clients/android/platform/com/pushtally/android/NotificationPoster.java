package com.pushtally.android;

import android.annotation.SuppressLint;
import android.app.Notification;
import android.app.PendingIntent;
import android.content.Context;
import android.graphics.Bitmap;
import androidx.core.app.NotificationCompat;
import androidx.core.app.NotificationManagerCompat;
import com.pushtally.android.core.PushPayload;
import com.pushtally.android.core.RandomSource;

/** Builds a push's notification from its data message and posts it. */
final class NotificationPoster {
    /** Each push's notification is tagged with its id, so a push sent twice replaces its own notification only. */
    static final String TAG_PREFIX = "pushtally:";
    static final int NOTIFICATION_ID = 0;

    private final Context context;
    private final PushTallySettings settings;
    private final RandomSource random;

    NotificationPoster(Context context, PushTallySettings settings, RandomSource random) {
        this.context = context;
        this.settings = settings;
        this.random = random;
    }

    /**
     * Posts the notification to {@code channel}, with {@code picture} when there is one. The caller has checked
     * that the channel is one the notification is seen on ({@link NotificationVisibility#canShow}).
     */
    // Lint looks for a checkSelfPermission before notify; the caller's NotificationVisibility reads
    // areNotificationsEnabled, which covers the permission and the user's switches alike.
    @SuppressLint("MissingPermission")
    void post(PushPayload payload, String channel, Bitmap picture) {
        String tag = TAG_PREFIX + payload.pushId();
        NotificationCompat.Builder builder = new NotificationCompat.Builder(context, channel)
                .setSmallIcon(settings.smallIcon())
                .setAutoCancel(true)
                .setPriority(NotificationCompat.PRIORITY_DEFAULT);
        if (payload.title() != null) builder.setContentTitle(payload.title());
        if (payload.body() != null) builder.setContentText(payload.body());
        // Stable for the notification; each intent is told apart by its data (see TapIntents).
        int requestCode = tag.hashCode();
        PendingIntent open = TapIntents.open(context, settings.openActivity(), payload.pushId(), "open", random.newId(), tag,
                payload.url(), requestCode);
        if (open != null) builder.setContentIntent(open);
        builder.setDeleteIntent(TapIntents.dismiss(context, payload.pushId(), random.newId(), requestCode));
        for (PushPayload.Action action : payload.actions()) {
            PendingIntent tap = TapIntents.open(context, settings.openActivity(), payload.pushId(), action.id(), random.newId(),
                    tag, payload.url(), requestCode);
            if (tap != null) builder.addAction(0, action.title(), tap);
        }
        if (picture != null) {
            // Collapsed, the picture is the large icon; expanded, it is the big picture and the icon goes away.
            builder.setLargeIcon(picture)
                    .setStyle(new NotificationCompat.BigPictureStyle().bigPicture(picture).bigLargeIcon((Bitmap) null));
        } else if (payload.body() != null) {
            builder.setStyle(new NotificationCompat.BigTextStyle().bigText(payload.body()));
        }
        Notification notification = builder.build();
        NotificationManagerCompat.from(context).notify(tag, NOTIFICATION_ID, notification);
    }
}
