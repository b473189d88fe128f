package com.pushtally.android.core;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A real HTTP server on 127.0.0.1 and a free port, recording every request it answers; each test scripts the
 * answers. Several threads serve, so a stalled answer never holds the others.
 */
final class LocalServer implements AutoCloseable {
    /** One request as it arrived. */
    static final class Request {
        final String method;
        final String path;
        final Map<String, List<String>> headers;
        final byte[] body;

        Request(String method, String path, Map<String, List<String>> headers, byte[] body) {
            this.method = method;
            this.path = path;
            this.headers = headers;
            this.body = body;
        }

        String header(String name) {
            List<String> values = headers.get(name);
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** An answer: status, headers, body. */
    static final class Answer {
        final int status;
        final String contentType;
        final byte[] body;
        final String[] headers;

        Answer(int status, String contentType, byte[] body, String... headers) {
            this.status = status;
            this.contentType = contentType;
            this.body = body;
            this.headers = headers;
        }

        static Answer json(int status, String json, String... headers) {
            return new Answer(status, "application/json", json.getBytes(StandardCharsets.UTF_8), headers);
        }
    }

    /** Decides the answer to a request. */
    interface Script {
        Answer answer(Request request) throws Exception;
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(4);
    private final ConcurrentLinkedDeque<Request> requests = new ConcurrentLinkedDeque<Request>();

    LocalServer(final Script script) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.setExecutor(threads);
        server.createContext("/", new HttpHandler() {
            @Override
            public void handle(HttpExchange exchange) throws IOException {
                try {
                    Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                            exchange.getRequestHeaders(), readAll(exchange.getRequestBody()));
                    requests.add(request);
                    Answer answer = script.answer(request);
                    if (answer.contentType != null) exchange.getResponseHeaders().set("Content-Type", answer.contentType);
                    for (int index = 0; index + 1 < answer.headers.length; index += 2) {
                        exchange.getResponseHeaders().set(answer.headers[index], answer.headers[index + 1]);
                    }
                    boolean empty = answer.body == null || answer.body.length == 0;
                    exchange.sendResponseHeaders(answer.status, empty ? -1 : answer.body.length);
                    if (!empty) {
                        OutputStream out = exchange.getResponseBody();
                        out.write(answer.body);
                        out.close();
                    }
                } catch (Exception failed) {
                    exchange.sendResponseHeaders(599, -1);
                } finally {
                    exchange.close();
                }
            }
        });
        server.start();
    }

    /** The base URL, {@code http://127.0.0.1:PORT}. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Request> requests() {
        return Collections.unmodifiableList(new ArrayList<Request>(requests));
    }

    HttpServer server() {
        return server;
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }

    static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int count;
        while ((count = in.read(buffer)) != -1) out.write(buffer, 0, count);
        return out.toByteArray();
    }
}
