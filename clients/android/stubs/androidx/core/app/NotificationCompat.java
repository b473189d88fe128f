package androidx.core.app;

import android.app.Notification;
import android.app.PendingIntent;
import android.content.Context;
import android.graphics.Bitmap;

/** API 14; androidx.core 1.0.0 */
public class NotificationCompat {
    /** API 14; androidx.core 1.0.0 */
    public NotificationCompat() {
        throw new RuntimeException("Stub!");
    }

    /** API 14; androidx.core 1.0.0 */
    public static final int PRIORITY_DEFAULT = 0;

    /** API 14; androidx.core 1.0.0 */
    public static class Builder {
        /** API 14; androidx.core 1.0.0 */
        public Builder(Context context, String channelId) {
            throw new RuntimeException("Stub!");
        }

        /** API 14; androidx.core 1.0.0 */
        public Builder setSmallIcon(int icon) {
            throw new RuntimeException("Stub!");
        }

        /** API 14; androidx.core 1.0.0 */
        public Builder setContentTitle(CharSequence title) {
            throw new RuntimeException("Stub!");
        }

        /** API 14; androidx.core 1.0.0 */
        public Builder setContentText(CharSequence text) {
            throw new RuntimeException("Stub!");
        }

        /** API 14; androidx.core 1.0.0 */
        public Builder setAutoCancel(boolean autoCancel) {
            throw new RuntimeException("Stub!");
        }

        /** API 14; androidx.core 1.0.0 */
        public Builder setPriority(int pri) {
            throw new RuntimeException("Stub!");
        }

        /** API 14; androidx.core 1.0.0 */
        public Builder setContentIntent(PendingIntent intent) {
            throw new RuntimeException("Stub!");
        }

        /** API 14; androidx.core 1.0.0 */
        public Builder setDeleteIntent(PendingIntent intent) {
            throw new RuntimeException("Stub!");
        }

        /** API 14; androidx.core 1.0.0 */
        public Builder addAction(int icon, CharSequence title, PendingIntent intent) {
            throw new RuntimeException("Stub!");
        }

        /** API 14; androidx.core 1.0.0 */
        public Builder setLargeIcon(Bitmap icon) {
            throw new RuntimeException("Stub!");
        }

        /** API 14; androidx.core 1.0.0 */
        public Builder setStyle(Style style) {
            throw new RuntimeException("Stub!");
        }

        /** API 14; androidx.core 1.0.0 */
        public Notification build() {
            throw new RuntimeException("Stub!");
        }
    }

    /** API 14; androidx.core 1.0.0 */
    public abstract static class Style {
        /** API 14; androidx.core 1.0.0 */
        public Style() {
            throw new RuntimeException("Stub!");
        }
    }

    /** API 14; androidx.core 1.0.0 */
    public static class BigPictureStyle extends Style {
        /** API 14; androidx.core 1.0.0 */
        public BigPictureStyle() {
            throw new RuntimeException("Stub!");
        }

        /** API 14; androidx.core 1.0.0 */
        public BigPictureStyle bigPicture(Bitmap b) {
            throw new RuntimeException("Stub!");
        }

        /** API 14; androidx.core 1.0.0 */
        public BigPictureStyle bigLargeIcon(Bitmap b) {
            throw new RuntimeException("Stub!");
        }
    }

    /** API 14; androidx.core 1.0.0 */
    public static class BigTextStyle extends Style {
        /** API 14; androidx.core 1.0.0 */
        public BigTextStyle() {
            throw new RuntimeException("Stub!");
        }

        /** API 14; androidx.core 1.0.0 */
        public BigTextStyle bigText(CharSequence cs) {
            throw new RuntimeException("Stub!");
        }
    }
}
