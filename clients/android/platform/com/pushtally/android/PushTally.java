package com.pushtally.android;

import android.Manifest;
import android.content.Context;
import android.content.Intent;
import android.content.SharedPreferences;
import android.content.pm.PackageManager;
import android.graphics.Bitmap;
import android.os.Build;
import android.util.Log;
import androidx.core.app.NotificationManagerCompat;
import androidx.core.content.ContextCompat;
import com.google.firebase.messaging.RemoteMessage;
import com.pushtally.android.core.ClientConfiguration;
import com.pushtally.android.core.FlushResult;
import com.pushtally.android.core.MediaFetcher;
import com.pushtally.android.core.MediaOutcome;
import com.pushtally.android.core.MediaResult;
import com.pushtally.android.core.NotificationDisplay;
import com.pushtally.android.core.NotificationPermission;
import com.pushtally.android.core.PushPayload;
import com.pushtally.android.core.PushTallyClient;
import com.pushtally.android.core.RandomSource;
import java.io.File;
import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * PushTally in an Android app: shows a push's notification from its FCM data message and records its display,
 * the taps on it, its dismissal and the app's sessions, and sends them to the collector.
 *
 * <p>Set up once in {@code Application.onCreate} with {@link #initialize}; then {@link #get} anywhere in the
 * app's process. Recording never blocks the caller on the network, and a failure to record (a full disk) is
 * logged, never thrown: analytics must not crash the app.</p>
 */
public final class PushTally {
    /** The Intent extra a tap's Activity finds the push's {@code url} in, when the push carried one. */
    public static final String EXTRA_URL = "com.pushtally.URL";
    static final String LOG_TAG = "PushTally";
    private static final String PREFERENCES = "com.pushtally";
    private static final String PERMISSION_REQUESTED = "post_notifications_requested";
    // Well inside the time the platform lets a job run, so the job ends on its own terms and reschedules what is
    // left, rather than being stopped mid-send; a full outbox goes out in far less.
    private static final long JOB_FLUSH_MILLIS = 3 * 60 * 1000;

    private static volatile PushTally instance;

    private final Context context;
    private final PushTallySettings settings;
    // Recording writes to the disk and nothing else, so a tap or a dismissal is on the disk at once; sending,
    // which can wait on the network for as long as a flush job lasts, has a thread of its own.
    private final ExecutorService recording = daemonExecutor("pushtally-record");
    private final ExecutorService sending = daemonExecutor("pushtally-send");
    // At most one send waits to run: it reads the outbox when it starts, so it takes every event recorded before.
    private final AtomicBoolean sendWaiting = new AtomicBoolean();
    private ClientConfiguration configuration;
    private PushTallyClient client;

    /** Called when the flush job's work has ended. */
    interface JobCallback {
        void finished(boolean reschedule);
    }

    /** One event to record with the client. */
    private interface Recording {
        void record(PushTallyClient client) throws IOException;
    }

    private PushTally(Context context, PushTallySettings settings) {
        this.context = context;
        this.settings = settings;
    }

    /**
     * Sets PushTally up for the app's process; call it in {@code Application.onCreate}, which runs before any of
     * the app's services, receivers and jobs. A second call keeps the first settings.
     */
    public static PushTally initialize(Context context, PushTallySettings settings) {
        synchronized (PushTally.class) {
            if (instance == null) instance = new PushTally(context.getApplicationContext(), settings);
            return instance;
        }
    }

    /**
     * The instance {@link #initialize} made.
     *
     * @throws IllegalStateException when {@code initialize} was not called in this process
     */
    public static PushTally get(Context context) {
        PushTally made = instance;
        if (made == null) {
            throw new IllegalStateException("PushTally.initialize(context, settings) must be called in Application.onCreate first");
        }
        return made;
    }

    /**
     * Handles a message from the app's {@code FirebaseMessagingService.onMessageReceived}: a data message with a
     * {@code push_id} is shown as a notification (title, body, image, action buttons) and its display recorded,
     * when the app's notifications and the notification's channel (and its group) are on; then what is queued
     * is sent. Runs on the calling thread (FCM's worker), within the media and send budgets.
     *
     * @return true when the message was PushTally's and was handled; false for any other message, which the
     *     app handles itself
     */
    public boolean onMessageReceived(RemoteMessage message) {
        PushPayload payload = PushPayload.fromData(message.getData());
        if (payload.pushId() == null) return false;
        String channel = NotificationVisibility.channelFor(context, payload.channelId(), settings);
        if (!NotificationVisibility.canShow(context, channel)) {
            // The system would drop it: nothing is displayed, so no receipt, and no image is fetched for it.
            sendNow();
            return true;
        }
        PushTallyClient client = client();
        NotificationDisplay display = client == null ? null : client.beginDisplay(payload);
        MediaOutcome outcome = MediaOutcome.NONE;
        Bitmap picture = null;
        if (payload.image() != null) {
            ClientConfiguration limits = configuration();
            MediaResult media = display != null
                    ? display.fetchMedia()
                    : new MediaFetcher(limits.maxMediaBytes()).fetch(payload.image(), limits.mediaBudgetMillis());
            outcome = media.outcome();
            if (outcome == MediaOutcome.ATTACHED) {
                picture = PictureDecoder.decode(media.bytes());
                if (picture == null) outcome = MediaOutcome.FAILED;
            }
            if (outcome != MediaOutcome.ATTACHED) Log.w(LOG_TAG, "push " + payload.pushId() + " shown without its image: " + media);
        }
        RandomSource random = client == null ? RandomSource.SYSTEM : client.configuration().random();
        new NotificationPoster(context, settings, random).post(payload, channel, picture);
        if (display != null) {
            try {
                display.recordShown(outcome);
            } catch (IOException failed) {
                Log.w(LOG_TAG, "the display of push " + payload.pushId() + " could not be recorded", failed);
            }
        }
        sendNow();
        return true;
    }

    /**
     * Records the tap that opened an Activity: call it from the Activity that taps open (see
     * {@link PushTallySettings.Builder#openActivity}), in {@code onCreate} with {@code getIntent()} and in
     * {@code onNewIntent} with the new Intent. An Intent that is not a PushTally tap is ignored, as is one the
     * Activity was relaunched with from the recent apps list.
     *
     * @return true when the Intent was a tap, now being recorded
     */
    public boolean onActivityIntent(Intent intent) {
        if (intent == null) return false;
        final String pushId = intent.getStringExtra(TapIntents.EXTRA_PUSH_ID);
        if (pushId == null) return false;
        if ((intent.getFlags() & Intent.FLAG_ACTIVITY_LAUNCHED_FROM_HISTORY) != 0) return false;
        String given = intent.getStringExtra(TapIntents.EXTRA_ACTION);
        final String action = given != null ? given : "open";
        final String receiptId = intent.getStringExtra(TapIntents.EXTRA_RECEIPT_ID);
        String tag = intent.getStringExtra(TapIntents.EXTRA_NOTIFICATION_TAG);
        // Only the notification's own tap cancels it (auto-cancel); a button's tap leaves it up otherwise.
        if (tag != null && !"open".equals(action)) NotificationManagerCompat.from(context).cancel(tag, NotificationPoster.NOTIFICATION_ID);
        // The same Intent object read again (onCreate, then onResume code calling this twice) records nothing more.
        intent.removeExtra(TapIntents.EXTRA_PUSH_ID);
        recordThenSend("the tap on push " + pushId, action(pushId, action, receiptId), null);
        return true;
    }

    /**
     * Records the start of an app session with the app's notification setting (see
     * {@link NotificationPermission#fromAndroid}); call it when the app comes to the foreground.
     */
    public void recordSession() {
        recordThenSend("the session", new Recording() {
            @Override
            public void record(PushTallyClient client) throws IOException {
                client.recordSession(notificationPermission());
            }
        }, null);
    }

    /**
     * Notes that the app asked for Android 13's {@code POST_NOTIFICATIONS} permission: call it when the app makes
     * the request. Until then a permission not granted is {@code not_determined}; after, {@code denied}.
     */
    public void notificationPermissionRequested() {
        preferences().edit().putBoolean(PERMISSION_REQUESTED, true).apply();
    }

    /** The app's notification setting now, as sessions report it. */
    public NotificationPermission notificationPermission() {
        boolean granted = Build.VERSION.SDK_INT >= Build.VERSION_CODES.TIRAMISU
                && ContextCompat.checkSelfPermission(context, Manifest.permission.POST_NOTIFICATIONS) == PackageManager.PERMISSION_GRANTED;
        boolean enabled = NotificationManagerCompat.from(context).areNotificationsEnabled();
        return NotificationPermission.fromAndroid(Build.VERSION.SDK_INT, granted, enabled,
                preferences().getBoolean(PERMISSION_REQUESTED, false));
    }

    /** Sends what is queued, off the calling thread; what cannot be sent now is left to the flush job. */
    public void flush() {
        sendSoon();
    }

    /** The client underneath, for what this class does not cover; null when its directory cannot be opened. */
    public PushTallyClient client() {
        synchronized (this) {
            if (client != null) return client;
            try {
                client = new PushTallyClient(configuration());
            } catch (IOException failed) {
                Log.w(LOG_TAG, "the outbox cannot be opened; nothing is recorded until it can", failed);
            }
            return client;
        }
    }

    /** Records a dismissal; {@code done} runs once it is on the disk (or failed), before any send. */
    void onDismissIntent(Intent intent, Runnable done) {
        String pushId = intent.getStringExtra(TapIntents.EXTRA_PUSH_ID);
        if (pushId == null) {
            done.run();
            return;
        }
        recordThenSend("the dismissal of push " + pushId,
                action(pushId, "dismiss", intent.getStringExtra(TapIntents.EXTRA_RECEIPT_ID)), done);
    }

    void onFlushJob(final JobCallback callback) {
        sending.execute(new Runnable() {
            @Override
            public void run() {
                PushTallyClient client = client();
                if (client == null) {
                    callback.finished(true);
                    return;
                }
                try {
                    FlushResult result = client.flush(JOB_FLUSH_MILLIS, false);
                    // Finished before the next job is scheduled: scheduling a job's own id while it runs stops it.
                    callback.finished(false);
                    scheduleIfQueued(client, result);
                } catch (IOException failed) {
                    Log.w(LOG_TAG, "the outbox could not be read", failed);
                    callback.finished(true);
                }
            }
        });
    }

    /**
     * Records on the recording thread, then leaves the send to the sending thread: the event is on the disk
     * without waiting for any send in progress. {@code done}, if any, runs once the recording has ended.
     */
    private void recordThenSend(final String what, final Recording event, final Runnable done) {
        recording.execute(new Runnable() {
            @Override
            public void run() {
                boolean recorded = false;
                try {
                    PushTallyClient client = client();
                    if (client != null) {
                        event.record(client);
                        recorded = true;
                    }
                } catch (IOException failed) {
                    Log.w(LOG_TAG, what + " could not be recorded", failed);
                } finally {
                    if (done != null) done.run();
                }
                if (recorded) sendSoon();
            }
        });
    }

    private static Recording action(final String pushId, final String action, final String receiptId) {
        return new Recording() {
            @Override
            public void record(PushTallyClient client) throws IOException {
                if (receiptId != null) {
                    client.recordAction(pushId, action, receiptId);
                } else {
                    client.recordAction(pushId, action);
                }
            }
        };
    }

    /** {@link #sendNow} on the sending thread, unless a send is already waiting there (it will take these too). */
    private void sendSoon() {
        if (!sendWaiting.compareAndSet(false, true)) return;
        sending.execute(new Runnable() {
            @Override
            public void run() {
                sendWaiting.set(false);
                sendNow();
            }
        });
    }

    /**
     * One attempt to send at once, for events just recorded (their process may not live to see a backoff end);
     * what is left goes to the flush job.
     */
    private void sendNow() {
        PushTallyClient client = client();
        if (client == null) return;
        try {
            scheduleIfQueued(client, client.flush(settings.sendBudgetMillis(), true));
        } catch (IOException failed) {
            Log.w(LOG_TAG, "the outbox could not be read", failed);
        }
    }

    private void scheduleIfQueued(PushTallyClient client, FlushResult result) {
        if (result.queued() == 0) return;
        long now = client.configuration().clock().currentTimeMillis();
        FlushScheduler.schedule(context, settings.jobId(), Math.max(0, result.retryAtMillis() - now));
    }

    /** The client's configuration: the settings, the app's own details, and its outbox directory. */
    private ClientConfiguration configuration() {
        synchronized (this) {
            if (configuration == null) {
                // Not backed up: a restored install id would make two devices one.
                File directory = new File(context.getNoBackupFilesDir(), "pushtally");
                configuration = settings.clientConfiguration(directory)
                        .app(context.getPackageName())
                        .appVersion(appVersion())
                        .osVersion(Build.VERSION.RELEASE)
                        .build();
            }
            return configuration;
        }
    }

    private static ExecutorService daemonExecutor(final String name) {
        return Executors.newSingleThreadExecutor(new ThreadFactory() {
            @Override
            public Thread newThread(Runnable task) {
                Thread thread = new Thread(task, name);
                thread.setDaemon(true);
                return thread;
            }
        });
    }

    private SharedPreferences preferences() {
        return context.getSharedPreferences(PREFERENCES, Context.MODE_PRIVATE);
    }

    private String appVersion() {
        try {
            return context.getPackageManager().getPackageInfo(context.getPackageName(), 0).versionName;
        } catch (PackageManager.NameNotFoundException impossible) {
            // The app's own package is always installed while its code runs.
            return null;
        }
    }
}
