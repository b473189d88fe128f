package com.example.news;

import android.app.Activity;
import android.content.Intent;
import android.os.Bundle;
import com.pushtally.android.PushTally;

/** The Activity taps open, with PushTally's lines (see NewsApplication). */
public class MainActivity extends Activity {
    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        PushTally.get(this).onActivityIntent(getIntent());
        PushTally.get(this).recordSession();
    }

    @Override
    protected void onNewIntent(Intent intent) {
        super.onNewIntent(intent);
        setIntent(intent);
        PushTally.get(this).onActivityIntent(intent);
    }

    /** Where the app asks for Android 13's notification permission. */
    void askForNotifications() {
        PushTally.get(this).notificationPermissionRequested();
        // requestPermissions(new String[] {Manifest.permission.POST_NOTIFICATIONS}, 1);
    }
}
