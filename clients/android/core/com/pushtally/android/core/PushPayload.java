package com.pushtally.android.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * What a PushTally data message carries, read from FCM's data map (every value a string):
 *
 * <pre>
 * {"push_id": "2018001", "title": "Spring sale", "body": "Up to 40% off",
 *  "image": "https://cdn.example.com/sale.jpg", "url": "/sale", "channel_id": "offers",
 *  "actions": "[{\"action\":\"later\",\"title\":\"Later\"}]"}
 * </pre>
 *
 * <p>{@code actions} is a JSON array in a string (FCM data values cannot nest), of the web client's shape:
 * {@code action} is the id recorded when the button is tapped, {@code title} its label. A message without a
 * usable {@code push_id} is not PushTally's: {@link #pushId()} is null and nothing is recorded for it.</p>
 */
public final class PushPayload {
    /** Android shows at most three action buttons on a notification. */
    public static final int MAX_ACTIONS = 3;

    private final String pushId;
    private final String title;
    private final String body;
    private final String image;
    private final String url;
    private final String channelId;
    private final List<Action> actions;

    /** One action button. */
    public static final class Action {
        private final String id;
        private final String title;

        /** A button recording {@code id} when tapped, labelled {@code title}. */
        public Action(String id, String title) {
            this.id = id;
            this.title = title;
        }

        /** The id recorded as the action when it is tapped (at most 64 bytes). */
        public String id() {
            return id;
        }

        /** The button's label. */
        public String title() {
            return title;
        }
    }

    private PushPayload(String pushId, String title, String body, String image, String url, String channelId, List<Action> actions) {
        this.pushId = pushId;
        this.title = title;
        this.body = body;
        this.image = image;
        this.url = url;
        this.channelId = channelId;
        this.actions = Collections.unmodifiableList(actions);
    }

    /** Reads a data message's map (FCM's {@code RemoteMessage.getData()}). */
    public static PushPayload fromData(Map<String, String> data) {
        String pushId = text(data, "push_id");
        if (pushId != null && !FieldRules.isText(pushId, FieldRules.MAX_ID_BYTES)) pushId = null;
        return new PushPayload(pushId, text(data, "title"), text(data, "body"), text(data, "image"), text(data, "url"),
                text(data, "channel_id"), actions(text(data, "actions")));
    }

    /** The push's id, or null when the message names none the collector would take. */
    public String pushId() {
        return pushId;
    }

    /** The notification's title, or null. */
    public String title() {
        return title;
    }

    /** The notification's text, or null. */
    public String body() {
        return body;
    }

    /** The image's URL, or null when the push names none. */
    public String image() {
        return image;
    }

    /** Where the app should go when the notification is tapped, as the backend sent it; null for none. */
    public String url() {
        return url;
    }

    /** The notification channel the backend asked for; null for the app's default. */
    public String channelId() {
        return channelId;
    }

    /** The action buttons, at most {@link #MAX_ACTIONS}; those without an id or a title are left out. */
    public List<Action> actions() {
        return actions;
    }

    private static String text(Map<String, String> data, String key) {
        String value = data == null ? null : data.get(key);
        return value == null || value.isEmpty() ? null : value;
    }

    private static List<Action> actions(String json) {
        List<Action> actions = new ArrayList<Action>();
        if (json == null) return actions;
        Object parsed;
        try {
            parsed = Json.parse(json);
        } catch (Json.ParseException unreadable) {
            // Buttons are extras: a push whose list cannot be read is still shown, without them.
            return actions;
        }
        if (!(parsed instanceof List)) return actions;
        for (Object item : (List<?>) parsed) {
            if (actions.size() == MAX_ACTIONS) break;
            if (!(item instanceof Map)) continue;
            Object id = ((Map<?, ?>) item).get("action");
            Object title = ((Map<?, ?>) item).get("title");
            if (id instanceof String && FieldRules.isText((String) id, FieldRules.MAX_ACTION_BYTES)
                    && title instanceof String && !((String) title).isEmpty()) {
                actions.add(new Action((String) id, (String) title));
            }
        }
        return actions;
    }
}
