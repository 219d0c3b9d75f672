package dev.goodput.transport.netty.internal;

import dev.goodput.core.NanoClock;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.internal.client.ReadTap;
import dev.goodput.core.internal.client.Transport;
import dev.goodput.core.internal.client.TransportProvider;

/** Provides {@link NettyTransport} under the name {@value #NAME}; registered in META-INF/services. */
public final class NettyTransportProvider implements TransportProvider {

    /** The name that selects this provider. */
    public static final String NAME = "netty";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Transport create(ServerEndpoint endpoint, NanoClock clock, ReadTap tap) {
        return new NettyTransport(endpoint, clock, tap);
    }
}
