package com.google.firebase.messaging;

import android.app.Service;

/**
 * API 19; firebase-messaging 20.0.0. (The real class extends Service through Firebase's EnhancedIntentService,
 * which apps never call.)
 */
public class FirebaseMessagingService extends Service {
    /** API 19; firebase-messaging 20.0.0 */
    public FirebaseMessagingService() {
        throw new RuntimeException("Stub!");
    }

    /** API 19; firebase-messaging 20.0.0 */
    public void onMessageReceived(RemoteMessage message) {
        throw new RuntimeException("Stub!");
    }

    /** API 19; firebase-messaging 20.0.0 */
    public void onNewToken(String token) {
        throw new RuntimeException("Stub!");
    }

    /** API 19; firebase-messaging 20.0.0 */
    public void onDeletedMessages() {
        throw new RuntimeException("Stub!");
    }
}
