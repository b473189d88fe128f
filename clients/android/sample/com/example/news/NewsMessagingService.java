package com.example.news;

import com.google.firebase.messaging.FirebaseMessagingService;
import com.google.firebase.messaging.RemoteMessage;
import com.pushtally.android.PushTally;

/** The app's messaging service with PushTally's lines (see NewsApplication). */
public class NewsMessagingService extends FirebaseMessagingService {
    @Override
    public void onMessageReceived(RemoteMessage message) {
        if (PushTally.get(this).onMessageReceived(message)) return;
        // The app's own data messages go on here.
    }

    @Override
    public void onNewToken(String token) {
        // The app sends the token to its push backend, as before.
    }
}
