package com.pushtally.android.core;

import java.io.File;
import java.io.InputStream;
import java.io.PrintStream;

/**
 * A child process for the outbox's process tests: records display receipts into a directory, one after the
 * other, and prints {@code ack <push id>} once each {@code recordDisplay} has returned.
 *
 * <p>Arguments: the directory, a push id prefix, how many to record (0 for paced: one event for each byte read
 * from standard input, until it ends), and the outbox's event bound.</p>
 */
public final class OutboxWriterMain {
    private OutboxWriterMain() {}

    public static void main(String[] arguments) throws Exception {
        File directory = new File(arguments[0]);
        String prefix = arguments[1];
        int count = Integer.parseInt(arguments[2]);
        int maxEvents = Integer.parseInt(arguments[3]);
        PushTallyClient client = new PushTallyClient(ClientConfiguration.builder("http://127.0.0.1:9", directory)
                .bounds(new OutboxBounds(maxEvents, OutboxBounds.DEFAULT_MAX_AGE_MILLIS)).build());
        InputStream goAhead = System.in;
        PrintStream out = System.out;
        out.println("ready");
        out.flush();
        for (int index = 0; count == 0 || index < count; index++) {
            if (count == 0 && goAhead.read() == -1) return;
            String pushId = prefix + index;
            if (!client.recordDisplay(pushId)) throw new IllegalStateException("not recorded: " + pushId);
            out.println("ack " + pushId);
            out.flush();
        }
    }
}
