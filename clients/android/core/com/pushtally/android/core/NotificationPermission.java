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

    /**
     * The setting an Android app has, from what the platform tells it.
     *
     * <p>From Android 13 (API 33) notifications need the {@code POST_NOTIFICATIONS} runtime permission: granted is
     * {@link #AUTHORIZED} (unless the user then blocked the app's notifications), and not granted is
     * {@link #DENIED} once the app has asked, {@link #NOT_DETERMINED} before. Earlier releases grant it at
     * install, so only the user's switch in the settings counts: on is {@link #AUTHORIZED}, off {@link #DENIED}.</p>
     *
     * @param sdkInt the device's API level ({@code Build.VERSION.SDK_INT})
     * @param permissionGranted whether {@code POST_NOTIFICATIONS} is granted (read on API 33 and later only)
     * @param notificationsEnabled {@code NotificationManagerCompat.areNotificationsEnabled()}
     * @param permissionRequested whether the app has asked for {@code POST_NOTIFICATIONS}
     */
    public static NotificationPermission fromAndroid(int sdkInt, boolean permissionGranted, boolean notificationsEnabled,
            boolean permissionRequested) {
        if (sdkInt >= 33 && !permissionGranted) return permissionRequested ? DENIED : NOT_DETERMINED;
        return notificationsEnabled ? AUTHORIZED : DENIED;
    }

    /** The value the collector takes in a session's {@code notification_permission} field. */
    public String wireValue() {
        return wireValue;
    }
}
