package dev.goodput.mock.internal.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Builds the bytes of HTTP/1.1 responses: heads, whole bodies, OpenAI-style errors and chunk framing. */
final class HttpResponses {

    static final ObjectMapper JSON = new ObjectMapper();
    static final byte[] CONTINUE = ascii("HTTP/1.1 100 Continue\r\n\r\n");
    static final byte[] LAST_CHUNK = ascii("0\r\n\r\n");
    static final String JSON_TYPE = "application/json";
    static final String EVENT_STREAM_TYPE = "text/event-stream; charset=utf-8";

    private static final Map<Integer, String> REASONS = Map.ofEntries(
            Map.entry(200, "OK"),
            Map.entry(400, "Bad Request"),
            Map.entry(404, "Not Found"),
            Map.entry(405, "Method Not Allowed"),
            Map.entry(413, "Payload Too Large"),
            Map.entry(429, "Too Many Requests"),
            Map.entry(431, "Request Header Fields Too Large"),
            Map.entry(500, "Internal Server Error"),
            Map.entry(503, "Service Unavailable"));

    /** vLLM's error types by status (its {@code ErrorInfo.type}). */
    private static final Map<Integer, String> ERROR_TYPES = Map.of(
            400, "BadRequestError",
            404, "NotFoundError",
            405, "MethodNotAllowed",
            413, "BadRequestError",
            429, "RateLimitError",
            431, "BadRequestError",
            500, "InternalServerError",
            503, "ServiceUnavailableError");

    private HttpResponses() {}

    /** Returns a complete response with a body of known length. */
    static byte[] full(int status, String contentType, byte[] body, boolean keepAlive, Map<String, String> extra) {
        StringBuilder head = statusLine(status);
        head.append("content-type: ").append(contentType).append("\r\n");
        head.append("content-length: ").append(body.length).append("\r\n");
        extra.forEach(
                (name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        if (!keepAlive) {
            head.append("connection: close\r\n");
        }
        head.append("\r\n");
        byte[] headBytes = ascii(head.toString());
        byte[] all = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(body, 0, all, headBytes.length, body.length);
        return all;
    }

    /** Returns a complete JSON response. */
    static byte[] json(int status, Object body, boolean keepAlive) {
        return full(status, JSON_TYPE, toJson(body), keepAlive, Map.of());
    }

    /** Returns the head of a streamed (chunked) {@code text/event-stream} response. */
    static byte[] eventStreamHead(boolean keepAlive) {
        StringBuilder head = statusLine(200);
        head.append("content-type: ").append(EVENT_STREAM_TYPE).append("\r\n");
        head.append("cache-control: no-cache\r\n");
        head.append("transfer-encoding: chunked\r\n");
        if (!keepAlive) {
            head.append("connection: close\r\n");
        }
        head.append("\r\n");
        return ascii(head.toString());
    }

    /** Returns an error response with vLLM's envelope {@code {"error":{message,type,param,code}}}. */
    static byte[] error(int status, String message, boolean keepAlive) {
        return error(status, message, keepAlive, Map.of());
    }

    /** Returns an error response with extra headers (e.g. {@code retry-after}). */
    static byte[] error(int status, String message, boolean keepAlive, Map<String, String> extra) {
        return full(status, JSON_TYPE, toJson(errorBody(status, message)), keepAlive, extra);
    }

    /** Returns vLLM's error envelope as a tree. */
    static ObjectNode errorBody(int status, String message) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode error = root.putObject("error");
        error.put("message", message);
        error.put("type", ERROR_TYPES.getOrDefault(status, "InternalServerError"));
        error.putNull("param");
        error.put("code", status);
        return root;
    }

    static byte[] toJson(Object body) {
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not serialise a response", e);
        }
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static StringBuilder statusLine(int status) {
        return new StringBuilder(160)
                .append("HTTP/1.1 ")
                .append(status)
                .append(' ')
                .append(REASONS.getOrDefault(status, "Error"))
                .append("\r\nserver: goodput-mock\r\n");
    }

    /** A growable byte buffer whose array can be framed without another copy. */
    static final class Bytes extends ByteArrayOutputStream {
        Bytes(int size) {
            super(size);
        }

        byte[] array() {
            return buf;
        }

        /** Drops everything past the first {@code size} bytes. */
        void truncate(int size) {
            count = Math.min(count, size);
        }
    }
}
