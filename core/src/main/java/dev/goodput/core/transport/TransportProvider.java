package dev.goodput.core.transport;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.NanoClock;
import dev.goodput.core.ServerEndpoint;
import org.apiguardian.api.API;

/**
 * Makes the transports of one kind, found with {@link java.util.ServiceLoader} (list the class in
 * {@code META-INF/services/dev.goodput.core.transport.TransportProvider}): core provides {@code jdk}, the module
 * {@code goodput-transport-netty} provides {@code netty}. The one setting {@code goodput.client.transport} chooses
 * among them by {@link #name()}, so users never name a provider class. Core warms up the read path it shares with
 * every transport before it creates the first one.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public interface TransportProvider {

    /** Returns the name the setting {@code goodput.client.transport} selects this provider by. */
    String name();

    /** Returns a new transport to the endpoint that shows every read to {@code tap} before parsing it. */
    Transport create(ServerEndpoint endpoint, NanoClock clock, ReadTap tap);
}
