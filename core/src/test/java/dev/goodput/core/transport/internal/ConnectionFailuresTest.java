package dev.goodput.core.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The exceptions below are the shapes the JDK's HTTP client gives (seen against a server that closes). */
class ConnectionFailuresTest {

    @Test
    void should_name_a_refused_connection_although_the_clients_exception_says_nothing() {
        // What JDK 17's client gives for a port nobody listens on: no message anywhere in the chain.
        Throwable refused = new CompletionException(new ConnectException(null).initCause(new ClosedChannelException()));

        assertThat(ConnectionFailures.describe(refused))
                .isEqualTo("connection refused or unreachable (ConnectException)");
        assertThat(ConnectionFailures.isClosedBeforeResponse(refused)).isFalse();
    }

    @Test
    void should_take_a_closed_connection_for_one_the_server_closed_before_answering() {
        Throwable eof = new CompletionException(new EOFException("EOF reached while reading"));
        Throwable noBytes = new IOException("HTTP/1.1 header parser received no bytes");
        Throwable reset = new IOException("Connection reset");
        Throwable closedChannel = new IOException(new ClosedChannelException());

        assertThat(ConnectionFailures.isClosedBeforeResponse(eof)).isTrue();
        assertThat(ConnectionFailures.isClosedBeforeResponse(noBytes)).isTrue();
        assertThat(ConnectionFailures.isClosedBeforeResponse(reset)).isTrue();
        assertThat(ConnectionFailures.isClosedBeforeResponse(closedChannel)).isTrue();
        assertThat(ConnectionFailures.describe(eof))
                .isEqualTo("connection closed by the server (EOFException: EOF reached while reading)");
    }

    @Test
    void should_not_take_timeouts_or_other_failures_for_a_closed_connection() {
        assertThat(ConnectionFailures.isClosedBeforeResponse(new HttpConnectTimeoutException("connect timed out")))
                .isFalse();
        assertThat(ConnectionFailures.isClosedBeforeResponse(
                        new HttpTimeoutException("request timed out").initCause(new EOFException())))
                .isFalse();
        assertThat(ConnectionFailures.isClosedBeforeResponse(new IOException("too many concurrent streams")))
                .isFalse();
    }
}
