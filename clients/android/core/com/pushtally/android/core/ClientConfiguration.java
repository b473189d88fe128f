package com.pushtally.android.core;

import java.io.File;

/**
 * Where and how a {@link PushTallyClient} records and sends. Made with {@link #builder(String, File)}; every
 * setting but the collector and the directory has a default.
 */
public final class ClientConfiguration {
    /** Events per request by default: PushTallyKit's and the web client's batch (the collector takes 10,000). */
    public static final int DEFAULT_BATCH_SIZE = 100;
    /** The longest one request may take by default. */
    public static final long DEFAULT_REQUEST_TIMEOUT_MILLIS = 10_000;
    /** The largest image a display downloads by default. */
    public static final int DEFAULT_MAX_MEDIA_BYTES = 5 * 1024 * 1024;
    /**
     * How long a display may spend on its image by default. Firebase gives {@code onMessageReceived} a short
     * window and warns against long downloads in it: past the budget the plain notification is shown.
     */
    public static final long DEFAULT_MEDIA_BUDGET_MILLIS = 5_000;

    private final String collector;
    private final File directory;
    private final String ingestKey;
    private final String platform;
    private final String app;
    private final String appVersion;
    private final String osVersion;
    private final OutboxBounds bounds;
    private final Backoff backoff;
    private final int batchSize;
    private final long requestTimeoutMillis;
    private final int maxMediaBytes;
    private final long mediaBudgetMillis;
    private final Clock clock;
    private final RandomSource random;

    private ClientConfiguration(Builder builder) {
        collector = builder.collector;
        directory = builder.directory;
        ingestKey = builder.ingestKey;
        platform = builder.platform;
        app = builder.app;
        appVersion = builder.appVersion;
        osVersion = builder.osVersion;
        bounds = builder.bounds;
        backoff = builder.backoff;
        batchSize = builder.batchSize;
        requestTimeoutMillis = builder.requestTimeoutMillis;
        maxMediaBytes = builder.maxMediaBytes;
        mediaBudgetMillis = builder.mediaBudgetMillis;
        clock = builder.clock;
        random = builder.random;
    }

    /**
     * @param collector the collector's base URL ({@code https://collector.example.com}, or with a path prefix
     *     behind a proxy); the routes are appended to it
     * @param directory where the outbox and the install id live: the app's own files, the same for every process
     */
    public static Builder builder(String collector, File directory) {
        return new Builder(collector, directory);
    }

    /**
     * A builder whose directory is given later ({@link Builder#directory}): an app's settings are made before
     * its files can be asked for.
     *
     * @param collector as for {@link #builder(String, File)}
     */
    public static Builder builder(String collector) {
        return new Builder(collector, null);
    }

    /** The collector's base URL, without a trailing slash. */
    public String collector() {
        return collector;
    }

    /** Where the outbox and the install id live. */
    public File directory() {
        return directory;
    }

    /** Sent as {@code Authorization: Bearer} when set. */
    public String ingestKey() {
        return ingestKey;
    }

    /** Every event's {@code platform}: {@code android}. */
    public String platform() {
        return platform;
    }

    /** Sessions' {@code app}: the application id. */
    public String app() {
        return app;
    }

    /** Every event's {@code app_version}, or null to leave it out. */
    public String appVersion() {
        return appVersion;
    }

    /** Every event's {@code os_version}, or null to leave it out. */
    public String osVersion() {
        return osVersion;
    }

    /** What the outbox may hold. */
    public OutboxBounds bounds() {
        return bounds;
    }

    /** When to try again after a failed send. */
    public Backoff backoff() {
        return backoff;
    }

    /** The most events in one request. */
    public int batchSize() {
        return batchSize;
    }

    /** The longest one request to the collector may take. */
    public long requestTimeoutMillis() {
        return requestTimeoutMillis;
    }

    /** The largest image a display downloads. */
    public int maxMediaBytes() {
        return maxMediaBytes;
    }

    /** How long a display may spend on its image, from the message's arrival. */
    public long mediaBudgetMillis() {
        return mediaBudgetMillis;
    }

    /** The wall clock for event times, the age bound and the backoff. */
    public Clock clock() {
        return clock;
    }

    /** Where event ids and the backoff's jitter come from. */
    public RandomSource random() {
        return random;
    }

    /** Collects the settings; {@link #build()} checks them. */
    public static final class Builder {
        private String collector;
        private File directory;
        private String ingestKey;
        private String platform = "android";
        private String app;
        private String appVersion;
        private String osVersion;
        private OutboxBounds bounds = OutboxBounds.defaults();
        private Backoff backoff = Backoff.defaults();
        private int batchSize = DEFAULT_BATCH_SIZE;
        private long requestTimeoutMillis = DEFAULT_REQUEST_TIMEOUT_MILLIS;
        private int maxMediaBytes = DEFAULT_MAX_MEDIA_BYTES;
        private long mediaBudgetMillis = DEFAULT_MEDIA_BUDGET_MILLIS;
        private Clock clock = Clock.SYSTEM;
        private RandomSource random = RandomSource.SYSTEM;

        private Builder(String collector, File directory) {
            this.collector = collector;
            this.directory = directory;
        }

        /** Where the outbox and the install id live, when the builder was made without it. */
        public Builder directory(File directory) {
            this.directory = directory;
            return this;
        }

        /** A builder with the same settings, changed independently of this one. */
        public Builder copy() {
            Builder copy = new Builder(collector, directory);
            copy.ingestKey = ingestKey;
            copy.platform = platform;
            copy.app = app;
            copy.appVersion = appVersion;
            copy.osVersion = osVersion;
            copy.bounds = bounds;
            copy.backoff = backoff;
            copy.batchSize = batchSize;
            copy.requestTimeoutMillis = requestTimeoutMillis;
            copy.maxMediaBytes = maxMediaBytes;
            copy.mediaBudgetMillis = mediaBudgetMillis;
            copy.clock = clock;
            copy.random = random;
            return copy;
        }

        /** An ingest key, for a collector run with {@code --require-ingest-key}; anything in an app is public. */
        public Builder ingestKey(String ingestKey) {
            this.ingestKey = ingestKey == null || ingestKey.isEmpty() ? null : ingestKey;
            return this;
        }

        /** Overrides {@code platform} ({@code android}). */
        public Builder platform(String platform) {
            this.platform = platform;
            return this;
        }

        /** Sessions' {@code app}, the application id ({@code com.example.news}). */
        public Builder app(String app) {
            this.app = app;
            return this;
        }

        /** Every event's {@code app_version}: the version users see ({@code versionName}). */
        public Builder appVersion(String appVersion) {
            this.appVersion = appVersion;
            return this;
        }

        /** Every event's {@code os_version} ({@code 14}, {@code 8.1.0}). */
        public Builder osVersion(String osVersion) {
            this.osVersion = osVersion;
            return this;
        }

        /** What the outbox may hold (1,000 events, 7 days by default). */
        public Builder bounds(OutboxBounds bounds) {
            this.bounds = bounds;
            return this;
        }

        /** When to try again after a failed send (2 s doubling to 1 h by default). */
        public Builder backoff(Backoff backoff) {
            this.backoff = backoff;
            return this;
        }

        /** Events per request, 1 to 10,000. */
        public Builder batchSize(int batchSize) {
            this.batchSize = batchSize;
            return this;
        }

        /** The longest one request to the collector may take. */
        public Builder requestTimeoutMillis(long requestTimeoutMillis) {
            this.requestTimeoutMillis = requestTimeoutMillis;
            return this;
        }

        /** The largest image a display downloads; a larger one is {@link MediaOutcome#FAILED}. */
        public Builder maxMediaBytes(int maxMediaBytes) {
            this.maxMediaBytes = maxMediaBytes;
            return this;
        }

        /** How long a display may spend on its image, from the message's arrival. */
        public Builder mediaBudgetMillis(long mediaBudgetMillis) {
            this.mediaBudgetMillis = mediaBudgetMillis;
            return this;
        }

        /** The wall clock ({@link Clock#SYSTEM} by default); tests pass their own. */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** Where ids and jitter come from ({@link RandomSource#SYSTEM} by default); tests pass their own. */
        public Builder random(RandomSource random) {
            this.random = random;
            return this;
        }

        /** @throws IllegalArgumentException for a setting out of its range, or no directory */
        public ClientConfiguration build() {
            check();
            if (directory == null) throw new IllegalArgumentException("a directory for the outbox is required");
            return new ClientConfiguration(this);
        }

        /**
         * Checks every setting but the directory as {@link #build()} does, for a builder whose directory comes
         * later: a mistake is found where the settings are made.
         *
         * @throws IllegalArgumentException for a setting out of its range
         */
        public Builder check() {
            if (collector == null || !(collector.startsWith("http://") || collector.startsWith("https://"))) {
                throw new IllegalArgumentException("the collector must be an http(s) URL, not " + collector);
            }
            while (collector.endsWith("/")) collector = collector.substring(0, collector.length() - 1);
            if (platform == null || !FieldRules.isText(platform, 32)) throw new IllegalArgumentException("bad platform " + platform);
            if (batchSize < 1 || batchSize > 10_000) throw new IllegalArgumentException("batch size must be 1 to 10000");
            if (requestTimeoutMillis < 1 || requestTimeoutMillis > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("request timeout out of range");
            }
            if (maxMediaBytes < 1) throw new IllegalArgumentException("the media limit must be positive");
            if (mediaBudgetMillis < 0) throw new IllegalArgumentException("the media budget must not be negative");
            if (bounds == null || backoff == null || clock == null || random == null) throw new NullPointerException();
            return this;
        }
    }
}
