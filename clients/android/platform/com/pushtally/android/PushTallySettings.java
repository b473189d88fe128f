package com.pushtally.android;

import com.pushtally.android.core.ClientConfiguration;

/**
 * What the app tells PushTally once, in {@code Application.onCreate}: the collector, the notifications' icon
 * and channel, and which Activity a tap opens. Made with {@link #builder(String, int)}.
 */
public final class PushTallySettings {
    /** The job id the flush job is scheduled under by default; change it if the app uses it for a job of its own. */
    public static final int DEFAULT_JOB_ID = 0x50540001;
    /** The channel notifications go to when the push names none the app has, by default. */
    public static final String DEFAULT_CHANNEL_ID = "pushtally";

    private final String collector;
    private final int smallIcon;
    private final String ingestKey;
    private final Class<?> openActivity;
    private final String channelId;
    private final CharSequence channelName;
    private final int jobId;
    private final long mediaBudgetMillis;
    private final int maxMediaBytes;
    private final long sendBudgetMillis;

    private PushTallySettings(Builder builder) {
        collector = builder.collector;
        smallIcon = builder.smallIcon;
        ingestKey = builder.ingestKey;
        openActivity = builder.openActivity;
        channelId = builder.channelId;
        channelName = builder.channelName;
        jobId = builder.jobId;
        mediaBudgetMillis = builder.mediaBudgetMillis;
        maxMediaBytes = builder.maxMediaBytes;
        sendBudgetMillis = builder.sendBudgetMillis;
    }

    /**
     * @param collector the collector's base URL ({@code https://collector.example.com})
     * @param smallIcon the notifications' small icon, a drawable resource id ({@code R.drawable.ic_notification})
     */
    public static Builder builder(String collector, int smallIcon) {
        return new Builder(collector, smallIcon);
    }

    /** The collector's base URL. */
    public String collector() {
        return collector;
    }

    /** The notifications' small icon, a drawable resource id. */
    public int smallIcon() {
        return smallIcon;
    }

    /** The ingest key sent as {@code Authorization: Bearer}, or null. */
    public String ingestKey() {
        return ingestKey;
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

    /** How long a push may spend on its image, from its arrival. */
    public long mediaBudgetMillis() {
        return mediaBudgetMillis;
    }

    /** The largest image a push downloads. */
    public int maxMediaBytes() {
        return maxMediaBytes;
    }

    /** How long an event recorded now may spend on its first send before it is left to the flush job. */
    public long sendBudgetMillis() {
        return sendBudgetMillis;
    }

    /** Collects the settings; every one but the collector and the icon has a default. */
    public static final class Builder {
        private final String collector;
        private final int smallIcon;
        private String ingestKey;
        private Class<?> openActivity;
        private String channelId = DEFAULT_CHANNEL_ID;
        private CharSequence channelName = "Notifications";
        private int jobId = DEFAULT_JOB_ID;
        private long mediaBudgetMillis = ClientConfiguration.DEFAULT_MEDIA_BUDGET_MILLIS;
        private int maxMediaBytes = ClientConfiguration.DEFAULT_MAX_MEDIA_BYTES;
        private long sendBudgetMillis = 3_000;

        private Builder(String collector, int smallIcon) {
            this.collector = collector;
            this.smallIcon = smallIcon;
        }

        /** An ingest key, for a collector run with {@code --require-ingest-key}. */
        public Builder ingestKey(String ingestKey) {
            this.ingestKey = ingestKey;
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
            this.mediaBudgetMillis = mediaBudgetMillis;
            return this;
        }

        /** The largest image a push downloads (5 MiB by default); a larger one is shown without it. */
        public Builder maxMediaBytes(int maxMediaBytes) {
            this.maxMediaBytes = maxMediaBytes;
            return this;
        }

        /** How long a just-recorded event may spend on its first send (3 s by default). */
        public Builder sendBudgetMillis(long sendBudgetMillis) {
            this.sendBudgetMillis = sendBudgetMillis;
            return this;
        }

        /** @throws IllegalArgumentException for a collector that is not an http(s) URL, or a channel without id or name */
        public PushTallySettings build() {
            // Checked here, in Application.onCreate, rather than when the first push arrives.
            if (collector == null || !(collector.startsWith("http://") || collector.startsWith("https://"))) {
                throw new IllegalArgumentException("the collector must be an http(s) URL, not " + collector);
            }
            if (channelId == null || channelName == null) throw new IllegalArgumentException("a channel needs an id and a name");
            return new PushTallySettings(this);
        }
    }
}
