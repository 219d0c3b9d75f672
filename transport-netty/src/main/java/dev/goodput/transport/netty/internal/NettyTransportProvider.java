package dev.goodput.transport.netty.internal;

import dev.goodput.core.NanoClock;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.transport.ReadTap;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.transport.TransportProvider;

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
