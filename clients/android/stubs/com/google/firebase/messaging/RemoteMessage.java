package com.google.firebase.messaging;

import java.util.Map;

/** API 19; firebase-messaging 20.0.0 */
public final class RemoteMessage {
    RemoteMessage() {
        throw new RuntimeException("Stub!");
    }

    /** API 19; firebase-messaging 20.0.0 */
    public Map<String, String> getData() {
        throw new RuntimeException("Stub!");
    }

    /** API 19; firebase-messaging 20.0.0 */
    public String getMessageId() {
        throw new RuntimeException("Stub!");
    }

    /** API 19; firebase-messaging 20.0.0 */
    public long getSentTime() {
        throw new RuntimeException("Stub!");
    }
}
