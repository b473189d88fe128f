package com.example.news;

import android.app.Application;
import com.pushtally.android.PushTally;
import com.pushtally.android.PushTallySettings;

/**
 * What an app adds, as the README shows it: compiled by clients/android/build against the stubs, so the
 * README's lines are known to match the library. Never shipped.
 */
public class NewsApplication extends Application {
    // R.drawable.ic_notification in a real app.
    static final int NOTIFICATION_ICON = 0x7f080001;

    @Override
    public void onCreate() {
        super.onCreate();
        PushTally.initialize(this, PushTallySettings.builder("https://collector.example.com", NOTIFICATION_ICON)
                .openActivity(MainActivity.class)
                .build());
    }
}
