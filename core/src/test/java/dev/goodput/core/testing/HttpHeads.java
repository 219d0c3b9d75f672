package dev.goodput.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** Reads HTTP/1.1 request heads off a raw socket, for the test servers that speak HTTP by hand. */
public final class HttpHeads {

    private HttpHeads() {}

    /** Reads up to and including the blank line that ends a request head; the bytes as ISO-8859-1 text. */
    public static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < 4) {
            int next = in.read();
            if (next < 0) {
                throw new IOException("request ended inside its headers");
            }
            head.write(next);
            matched = next == end[matched] ? matched + 1 : (next == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    /** Returns the head's {@code Content-Length}, or 0 without one. */
    public static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                return Integer.parseInt(
                        line.substring("content-length:".length()).trim());
            }
        }
        return 0;
    }
}
