package dev.goodput.core.run.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.NanoClock;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.transport.ReadTap;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.transport.TransportProvider;
import dev.goodput.core.transport.internal.Transports;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class LoopbackWarmUpTest {

    @Test
    void should_stream_every_request_from_its_own_loopback_server_through_a_transport_of_the_provider() {
        List<ServerEndpoint> endpoints = new CopyOnWriteArrayList<>();
        RunResult result = LoopbackWarmUp.run(120, jdkTo(endpoint -> {
            endpoints.add(endpoint);
            return endpoint;
        }));

        assertThat(result.records()).hasSize(120).allMatch(RequestRecord::isSuccess);
        assertThat(result.records()).extracting(RequestRecord::outputTokens).containsOnly(4);
        assertThat(result.records()).extracting(RequestRecord::contentEvents).containsOnly(4);
        assertThat(endpoints).singleElement().satisfies(endpoint -> {
            assertThat(endpoint.baseUrl().getHost()).isEqualTo("127.0.0.1");
            assertThat(endpoint.resolveApiKey()).isEmpty();
        });
    }

    @Test
    void should_fail_naming_the_transport_and_the_request_when_a_warm_up_request_fails() throws Exception {
        int closedPort;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = closed.getLocalPort();
        }
        ServerEndpoint nobody = ServerEndpoint.of("http://127.0.0.1:" + closedPort, "m");
        assertThatThrownBy(() -> LoopbackWarmUp.run(8, jdkTo(loopback -> nobody)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the jdk transport's warm-up against its own loopback server failed: request ")
                .hasMessageContaining(" ended FAILED (");
    }

    /** The JDK transports, each sent to the endpoint {@code route} picks for the one it is asked for. */
    private static TransportProvider jdkTo(UnaryOperator<ServerEndpoint> route) {
        TransportProvider jdk = Transports.named("jdk");
        return new TransportProvider() {
            @Override
            public String name() {
                return jdk.name();
            }

            @Override
            public Transport create(ServerEndpoint endpoint, NanoClock clock, ReadTap tap) {
                return jdk.create(route.apply(endpoint), clock, tap);
            }
        };
    }
}
