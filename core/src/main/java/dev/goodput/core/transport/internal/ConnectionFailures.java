package dev.goodput.core.transport.internal;

import java.io.EOFException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.concurrent.CompletionException;

/** Names the reason of an exchange that failed below HTTP: refused, timed out, or closed by the server. */
public final class ConnectionFailures {

    private static final String REFUSED = "connection refused or unreachable";
    private static final String CONNECT_TIMEOUT = "connect timeout";

    private ConnectionFailures() {}

    /** Names the failure by the most telling exception in the chain: the client wraps causes in several layers. */
    public static String describe(Throwable cause) {
        String kind = "connection failed";
        Throwable named = cause;
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String type = t.getClass().getSimpleName();
            // The JDK client's names, and Netty's (its timeout is a ConnectException, its refusal a subclass of one).
            if (type.equals("HttpConnectTimeoutException") || type.equals("ConnectTimeoutException")) {
                kind = CONNECT_TIMEOUT;
                named = t;
                break;
            }
            if (t instanceof ConnectException) {
                kind = REFUSED;
                named = t;
                break;
            }
            if (t instanceof EOFException || t instanceof ClosedChannelException) {
                kind = "connection closed by the server";
                named = t;
            }
            if (!(t instanceof CompletionException) && named == cause) {
                named = t;
            }
        }
        String message = named.getMessage();
        return kind + " (" + named.getClass().getSimpleName() + (message == null ? "" : ": " + message) + ")";
    }

    /**
     * Returns whether a request's reason ({@link dev.goodput.core.record.RequestRecord#errorDetail()}) says it found no
     * server to connect to: the connection was refused, the host unreachable, or the connect timed out.
     */
    public static boolean foundNoServer(String errorDetail) {
        return errorDetail != null
                && (errorDetail.startsWith(REFUSED + " (") || errorDetail.startsWith(CONNECT_TIMEOUT + " ("));
    }

    /**
     * Returns whether the connection closed under a request before any response: the server closed it (end of
     * stream, reset, broken pipe) rather than refusing it or timing out. On a pooled keep-alive connection this
     * means the server had closed the connection before the request went out, so it never saw the request.
     */
    public static boolean isClosedBeforeResponse(Throwable cause) {
        boolean closed = false;
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String type = t.getClass().getSimpleName();
            if (t instanceof ConnectException || type.endsWith("TimeoutException")) {
                return false;
            }
            String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (t instanceof EOFException
                    || t instanceof ClosedChannelException
                    || type.equals("ConnectionExpiredException")
                    || message.contains("connection reset")
                    || message.contains("broken pipe")
                    || message.contains("received no bytes")
                    || message.contains("connection closed")) {
                closed = true;
            }
        }
        return closed;
    }
}
