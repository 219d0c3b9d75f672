package dev.goodput.core.transport.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Finds out, after the first exchange with a server failed below HTTP, whether the server speaks the other scheme
 * than its URL says: an {@code https} URL against a plain-HTTP server waits for a TLS answer that never comes (the
 * server waits for a request line), and an {@code http} URL against a TLS server gets its connection closed. One
 * probe of each kind, on a socket of its own, with a short timeout; it sends no request of the run's and no key.
 */
final class SchemeHint {

    /** The longest a probe waits, for its connection and then for its answer. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

    private SchemeHint() {}

    /** Returns a hint when the server at {@code uri}'s host and port speaks the other scheme; else empty. */
    static Optional<String> of(URI uri) {
        String host = uri.getHost();
        if (host == null) {
            return Optional.empty();
        }
        boolean https = "https".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort() >= 0 ? uri.getPort() : https ? 443 : 80;
        String where = host + ":" + port;
        if (https && answersPlainHttp(host, port)) {
            return Optional.of("the server at " + where + " answers plain HTTP, not TLS: its URL should start with"
                    + " http://, not https://");
        }
        if (!https && speaksTls(host, port)) {
            return Optional.of(
                    "the server at " + where + " speaks TLS: its URL should start with https://, not" + " http://");
        }
        return Optional.empty();
    }

    /** Returns whether the server answers a plain HTTP request with an HTTP status line. */
    static boolean answersPlainHttp(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), (int) PROBE_TIMEOUT.toMillis());
            socket.setSoTimeout((int) PROBE_TIMEOUT.toMillis());
            socket.getOutputStream()
                    .write(("HEAD / HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            byte[] head = new byte[5];
            InputStream in = socket.getInputStream();
            int read = 0;
            while (read < head.length) {
                int n = in.read(head, read, head.length - read);
                if (n < 0) {
                    break;
                }
                read += n;
            }
            return read == head.length && new String(head, StandardCharsets.US_ASCII).equals("HTTP/");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Returns whether the server completes a TLS handshake. Its certificate is not checked: the probe only asks
     * whether the port speaks TLS, and sends nothing over the connection.
     */
    static boolean speaksTls(String host, int port) {
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress(host, port), (int) PROBE_TIMEOUT.toMillis());
            plain.setSoTimeout((int) PROBE_TIMEOUT.toMillis());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new AnyCertificate()}, null);
            try (SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true)) {
                tls.startHandshake();
                return true;
            }
        } catch (IOException | GeneralSecurityException e) {
            return false;
        }
    }

    /** Takes any certificate: the probe asks only whether the port speaks TLS. */
    private static final class AnyCertificate implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
