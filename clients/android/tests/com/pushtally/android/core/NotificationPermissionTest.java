package com.pushtally.android.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NotificationPermissionTest {
    @Test
    void android13AndLaterGoByTheRuntimePermissionAndWhetherTheAppAsked() {
        assertEquals(NotificationPermission.AUTHORIZED, NotificationPermission.fromAndroid(33, true, true, true));
        assertEquals(NotificationPermission.AUTHORIZED, NotificationPermission.fromAndroid(34, true, true, false));
        assertEquals(NotificationPermission.DENIED, NotificationPermission.fromAndroid(33, true, false, true),
                "granted, then blocked in the settings");
        assertEquals(NotificationPermission.DENIED, NotificationPermission.fromAndroid(33, false, false, true));
        assertEquals(NotificationPermission.NOT_DETERMINED, NotificationPermission.fromAndroid(35, false, false, false));
    }

    @Test
    void earlierReleasesGoByTheSwitchInTheSettings() {
        assertEquals(NotificationPermission.AUTHORIZED, NotificationPermission.fromAndroid(32, false, true, false));
        assertEquals(NotificationPermission.DENIED, NotificationPermission.fromAndroid(26, false, false, false));
        assertEquals(NotificationPermission.DENIED, NotificationPermission.fromAndroid(21, false, false, true));
    }

    @Test
    void wireValuesAreTheCollectors() {
        assertEquals("authorized", NotificationPermission.AUTHORIZED.wireValue());
        assertEquals("denied", NotificationPermission.DENIED.wireValue());
        assertEquals("not_determined", NotificationPermission.NOT_DETERMINED.wireValue());
        assertEquals("timed_out", MediaOutcome.TIMED_OUT.wireValue());
    }
}
