package com.pushtally.android;

import com.pushtally.android.core.ClientConfiguration;
import java.io.File;

/**
 * What the app tells PushTally once, in {@code Application.onCreate}: the collector, the notifications' icon
 * and channel, and which Activity a tap opens. Made with {@link #builder(String, int)}.
 */
public final class PushTallySettings {
    /** The job id the flush job is scheduled under by default; change it if the app uses it for a job of its own. */
    public static final int DEFAULT_JOB_ID = 0x50540001;
    /** The channel notifications go to when the push names none the app has, by default. */
    public static final String DEFAULT_CHANNEL_ID = "pushtally";

    // The collector, ingest key and media settings, held and checked by the core's own builder.
    private final ClientConfiguration.Builder client;
    private final int smallIcon;
    private final Class<?> openActivity;
    private final String channelId;
    private final CharSequence channelName;
    private final int jobId;
    private final long sendBudgetMillis;

    private PushTallySettings(Builder builder) {
        client = builder.client.copy();
        smallIcon = builder.smallIcon;
        openActivity = builder.openActivity;
        channelId = builder.channelId;
        channelName = builder.channelName;
        jobId = builder.jobId;
        sendBudgetMillis = builder.sendBudgetMillis;
    }

    /**
     * @param collector the collector's base URL ({@code https://collector.example.com})
     * @param smallIcon the notifications' small icon, a drawable resource id ({@code R.drawable.ic_notification})
     */
    public static Builder builder(String collector, int smallIcon) {
        return new Builder(collector, smallIcon);
    }

    /** The notifications' small icon, a drawable resource id. */
    public int smallIcon() {
        return smallIcon;
    }

    /** The Activity a tap opens; null for the app's launcher Activity. */
    public Class<?> openActivity() {
        return openActivity;
    }

    /** The default channel's id. */
    public String channelId() {
        return channelId;
    }

    /** The default channel's name, as the system settings show it. */
    public CharSequence channelName() {
        return channelName;
    }

    /** The id the flush job is scheduled under. */
    public int jobId() {
        return jobId;
    }

    /**
     * The client's settings from these (collector, ingest key, media), with its outbox in {@code directory}; the
     * caller adds what only the running app knows.
     */
    ClientConfiguration.Builder clientConfiguration(File directory) {
        return client.copy().directory(directory);
    }

    /** How long an event recorded now may spend on its first send before it is left to the flush job. */
    public long sendBudgetMillis() {
        return sendBudgetMillis;
    }

    /** Collects the settings; every one but the collector and the icon has a default. */
    public static final class Builder {
        private final ClientConfiguration.Builder client;
        private final int smallIcon;
        private Class<?> openActivity;
        private String channelId = DEFAULT_CHANNEL_ID;
        private CharSequence channelName = "Notifications";
        private int jobId = DEFAULT_JOB_ID;
        private long sendBudgetMillis = 3_000;

        private Builder(String collector, int smallIcon) {
            this.client = ClientConfiguration.builder(collector);
            this.smallIcon = smallIcon;
        }

        /** An ingest key, for a collector run with {@code --require-ingest-key}. */
        public Builder ingestKey(String ingestKey) {
            client.ingestKey(ingestKey);
            return this;
        }

        /**
         * The Activity a tap on a notification or one of its buttons opens (it calls
         * {@link PushTally#onActivityIntent}); the launcher Activity when not set.
         */
        public Builder openActivity(Class<?> openActivity) {
            this.openActivity = openActivity;
            return this;
        }

        /**
         * The channel for pushes that name none the app has created (made with this name on first use, at the
         * default importance, on Android 8 and later).
         */
        public Builder channel(String channelId, CharSequence channelName) {
            this.channelId = channelId;
            this.channelName = channelName;
            return this;
        }

        /** The id the flush job is scheduled under ({@link #DEFAULT_JOB_ID} by default). */
        public Builder jobId(int jobId) {
            this.jobId = jobId;
            return this;
        }

        /** How long a push may spend on its image, from its arrival; the plain notification is shown past it. */
        public Builder mediaBudgetMillis(long mediaBudgetMillis) {
            client.mediaBudgetMillis(mediaBudgetMillis);
            return this;
        }

        /** The largest image a push downloads (5 MiB by default); a larger one is shown without it. */
        public Builder maxMediaBytes(int maxMediaBytes) {
            client.maxMediaBytes(maxMediaBytes);
            return this;
        }

        /** How long a just-recorded event may spend on its first send (3 s by default). */
        public Builder sendBudgetMillis(long sendBudgetMillis) {
            this.sendBudgetMillis = sendBudgetMillis;
            return this;
        }

        /**
         * @throws IllegalArgumentException for a collector that is not an http(s) URL, media settings out of
         *     range, or a channel without id or name
         */
        public PushTallySettings build() {
            // Checked here, in Application.onCreate, rather than when the first push arrives.
            client.check();
            if (channelId == null || channelName == null) throw new IllegalArgumentException("a channel needs an id and a name");
            return new PushTallySettings(this);
        }
    }
}
