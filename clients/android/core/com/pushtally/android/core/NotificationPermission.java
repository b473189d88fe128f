package com.pushtally.android.core;

/**
 * The app's notification setting when a session starts, as the collector's audience report counts devices by it
 * ({@code notification_permission}).
 */
public enum NotificationPermission {
    /** Notifications are allowed. */
    AUTHORIZED("authorized"),
    /** The user refused or turned them off. */
    DENIED("denied"),
    /** The app has not asked yet (Android 13's runtime permission, before the request). */
    NOT_DETERMINED("not_determined");

    private final String wireValue;

    NotificationPermission(String wireValue) {
        this.wireValue = wireValue;
    }

    /** The value the collector takes in a session's {@code notification_permission} field. */
    public String wireValue() {
        return wireValue;
    }
}
