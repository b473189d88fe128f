package com.pushtally.android.e2e;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real {@code pushtally serve} on 127.0.0.1, a free port and a fresh database (a SQLite file, or a PostgreSQL
 * database made for it and dropped after), as the collector's own tests start it: the admin token a first serve
 * creates and the port it listens on are read from its output.
 */
final class CollectorProcess implements AutoCloseable {
    private static final Pattern TOKEN = Pattern.compile("PUSHTALLY_TOKEN=(\\S+)");
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)");

    private final Process process;
    private final File log;
    /** The PostgreSQL server's URL (its own database named) and the database made for this collector, or null. */
    private final String[] postgres;
    final String adminToken;
    final int port;

    private CollectorProcess(Process process, File log, String[] postgres, String adminToken, int port) {
        this.process = process;
        this.log = log;
        this.postgres = postgres;
        this.adminToken = adminToken;
        this.port = port;
    }

    /** Starts {@code binary serve} on a SQLite file in {@code directory}; waits at most 60 s for it to listen. */
    static CollectorProcess start(String binary, File directory) throws Exception {
        return start(binary, directory, null);
    }

    /**
     * Starts {@code binary serve} on a new database of the PostgreSQL server at {@code postgresURL} (a URL such as
     * {@code postgres://user:password@127.0.0.1:5432/postgres}, made with {@code psql}), or on a SQLite file in
     * {@code directory} when it is null.
     */
    static CollectorProcess start(String binary, File directory, String postgresURL) throws Exception {
        File log = new File(directory, "server.log");
        String[] postgres = null;
        String database = new File(directory, "pushtally.sqlite").getPath();
        if (postgresURL != null) {
            String name = "pushtally_android_" + Long.toHexString(System.nanoTime());
            psql(postgresURL, "CREATE DATABASE " + name);
            postgres = new String[] {postgresURL, name};
            database = postgresURL.substring(0, postgresURL.lastIndexOf('/') + 1) + name;
        }
        // Both streams end up in the log, appended: the server never blocks on a full pipe, however much it says.
        Process process = new ProcessBuilder(binary, "serve", "--host", "127.0.0.1", "--port", "0",
                "--database", database, "--device-secret", new File(directory, "device.secret").getPath(),
                "--log-level", "warning")
                .redirectError(ProcessBuilder.Redirect.appendTo(log)).start();
        CompletableFuture<String[]> started = new CompletableFuture<String[]>();
        Thread drain = new Thread(() -> {
            String token = null;
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                 Writer copy = new OutputStreamWriter(new FileOutputStream(log, true), StandardCharsets.UTF_8)) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    copy.write(line + "\n");
                    copy.flush();
                    if (started.isDone()) continue;
                    Matcher tokenLine = TOKEN.matcher(line);
                    if (tokenLine.find()) token = tokenLine.group(1);
                    Matcher listening = LISTENING.matcher(line);
                    if (listening.find()) started.complete(new String[] {token, listening.group(1)});
                }
            } catch (IOException ended) {
                // The server ended, or its output could not be copied: whoever waits is told below.
            } finally {
                // Ended before it listened, if not completed already.
                started.complete(null);
            }
        }, "pushtally serve output");
        drain.setDaemon(true);
        drain.start();
        String[] found;
        try {
            found = started.get(60, TimeUnit.SECONDS);
        } catch (TimeoutException slow) {
            found = null;
        }
        if (found == null || found[0] == null) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            if (postgres != null) psql(postgres[0], "DROP DATABASE IF EXISTS " + postgres[1] + " WITH (FORCE)");
            throw new AssertionError("pushtally serve did not start with a new admin token; its log:\n" + readLog(log));
        }
        return new CollectorProcess(process, log, postgres, found[0], Integer.parseInt(found[1]));
    }

    /** Runs one statement with {@code psql}, failing loudly with what it said. */
    private static void psql(String url, String statement) throws Exception {
        Process psql = new ProcessBuilder("psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", statement)
                .redirectErrorStream(true).start();
        byte[] said = readAll(psql.getInputStream());
        if (!psql.waitFor(60, TimeUnit.SECONDS) || psql.exitValue() != 0) {
            throw new AssertionError("psql " + statement + ": " + new String(said, StandardCharsets.UTF_8));
        }
    }

    private static byte[] readAll(java.io.InputStream input) throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        for (int read = input.read(buffer); read != -1; read = input.read(buffer)) bytes.write(buffer, 0, read);
        return bytes.toByteArray();
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    String log() {
        return readLog(log);
    }

    @Override
    public void close() throws Exception {
        // SIGTERM: the collector commits what it acknowledged and exits.
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        if (postgres != null) psql(postgres[0], "DROP DATABASE IF EXISTS " + postgres[1] + " WITH (FORCE)");
    }

    private static String readLog(File log) {
        try {
            return new String(java.nio.file.Files.readAllBytes(log.toPath()), StandardCharsets.UTF_8);
        } catch (IOException unreadable) {
            return "(no log: " + unreadable.getMessage() + ")";
        }
    }
}
