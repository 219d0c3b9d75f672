package dev.goodput.mock.internal.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Decodes HTTP/1.x requests from a connection's input buffer, incrementally: {@link #decode} returns null until
 * a whole request (head and body) is buffered.
 */
final class HttpRequestDecoder {

    /** Thrown for a request that can't be decoded; the connection answers with the status and closes. */
    static final class MalformedRequestException extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;

        MalformedRequestException(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    static final int MAX_HEAD_BYTES = 64 * 1024;
    static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

    private HttpRequestDecoder() {}

    /**
     * Decodes one request from {@code in} (in read mode: position..limit is unread input). On success the
     * buffer's position moves past the request; otherwise it is unchanged.
     *
     * @return the request, or null if more input is needed
     */
    static HttpRequest decode(ByteBuffer in) throws MalformedRequestException {
        int start = in.position();
        int headEnd = indexOf(in, start, in.limit(), "\r\n\r\n");
        if (headEnd < 0) {
            if (in.remaining() > MAX_HEAD_BYTES) {
                throw new MalformedRequestException(431, "request head exceeds " + MAX_HEAD_BYTES + " bytes");
            }
            return null;
        }
        String head = ascii(in, start, headEnd);
        String[] lines = head.split("\r\n", -1);
        String[] requestLine = lines[0].split(" ", -1);
        if (requestLine.length != 3 || !requestLine[2].startsWith("HTTP/1.")) {
            throw new MalformedRequestException(400, "malformed request line");
        }
        Map<String, String> headers = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) {
                throw new MalformedRequestException(400, "malformed header line");
            }
            headers.put(
                    lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).trim());
        }
        int bodyStart = headEnd + 4;
        byte[] body;
        int end;
        String transferEncoding = headers.getOrDefault("transfer-encoding", "");
        if (transferEncoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            ChunkedBody chunked = decodeChunked(in, bodyStart);
            if (chunked == null) {
                return null;
            }
            body = chunked.bytes;
            end = chunked.end;
        } else {
            long length = contentLength(headers);
            if (in.limit() - bodyStart < length) {
                return null;
            }
            body = new byte[(int) length];
            in.get(bodyStart, body);
            end = bodyStart + (int) length;
        }
        String target = requestLine[1];
        int query = target.indexOf('?');
        String path = query < 0 ? target : target.substring(0, query);
        String connection = headers.getOrDefault("connection", "").toLowerCase(Locale.ROOT);
        boolean keepAlive =
                requestLine[2].equals("HTTP/1.1") ? !connection.contains("close") : connection.contains("keep-alive");
        in.position(end);
        return new HttpRequest(requestLine[0], path, Map.copyOf(headers), body, keepAlive, System.nanoTime());
    }

    /** Returns whether the buffered head (if complete) asks for {@code 100 Continue} before the body. */
    static boolean expectsContinue(ByteBuffer in) {
        int headEnd = indexOf(in, in.position(), in.limit(), "\r\n\r\n");
        return headEnd >= 0
                && ascii(in, in.position(), headEnd).toLowerCase(Locale.ROOT).contains("\r\nexpect: 100-continue");
    }

    private static long contentLength(Map<String, String> headers) throws MalformedRequestException {
        String value = headers.get("content-length");
        if (value == null) {
            return 0;
        }
        try {
            long length = Long.parseLong(value);
            if (length < 0) {
                throw new NumberFormatException();
            }
            if (length > MAX_BODY_BYTES) {
                throw new MalformedRequestException(413, "request body exceeds " + MAX_BODY_BYTES + " bytes");
            }
            return length;
        } catch (NumberFormatException e) {
            throw new MalformedRequestException(400, "malformed Content-Length: " + value);
        }
    }

    private record ChunkedBody(byte[] bytes, int end) {}

    private static ChunkedBody decodeChunked(ByteBuffer in, int from) throws MalformedRequestException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int position = from;
        while (true) {
            int lineEnd = indexOf(in, position, in.limit(), "\r\n");
            if (lineEnd < 0) {
                return null;
            }
            String sizeLine = ascii(in, position, lineEnd);
            int semicolon = sizeLine.indexOf(';');
            int size;
            try {
                size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            } catch (NumberFormatException e) {
                throw new MalformedRequestException(400, "malformed chunk size");
            }
            if (size < 0 || out.size() + (long) size > MAX_BODY_BYTES) {
                throw new MalformedRequestException(413, "request body exceeds " + MAX_BODY_BYTES + " bytes");
            }
            int dataStart = lineEnd + 2;
            if (size == 0) {
                // Skip optional trailers up to the empty line.
                int trailersEnd = indexOf(in, lineEnd, in.limit(), "\r\n\r\n");
                return trailersEnd < 0 ? null : new ChunkedBody(out.toByteArray(), trailersEnd + 4);
            }
            if (in.limit() < dataStart + size + 2) {
                return null;
            }
            byte[] data = new byte[size];
            in.get(dataStart, data);
            out.write(data, 0, size);
            position = dataStart + size + 2;
        }
    }

    private static int indexOf(ByteBuffer in, int from, int to, String pattern) {
        outer:
        for (int i = from; i <= to - pattern.length(); i++) {
            for (int j = 0; j < pattern.length(); j++) {
                if (in.get(i + j) != pattern.charAt(j)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static String ascii(ByteBuffer in, int from, int to) {
        byte[] bytes = new byte[to - from];
        in.get(from, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
