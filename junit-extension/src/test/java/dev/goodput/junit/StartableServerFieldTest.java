package dev.goodput.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.StartableServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** A {@code @ServerUnderTest} field holding a startable server, as a container from goodput-testcontainers is. */
class StartableServerFieldTest {

    @TempDir
    Path reports;

    /** Stands in for a container: an embedded simulated server that counts its starts and stops. */
    static class CountingServer implements StartableServer {
        int starts;
        int stops;
        private dev.goodput.mock.MockServer server;

        @Override
        public void start() {
            starts++;
            server = dev.goodput.mock.MockServer.start(MockServerConfig.defaults()
                    .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(2), Duration.ofMillis(1))));
        }

        @Override
        public void stop() {
            stops++;
            server.close();
            server = null;
        }

        @Override
        public boolean isRunning() {
            return server != null;
        }

        @Override
        public ServerEndpoint serverEndpoint() {
            return ServerEndpoint.of(server.baseUrl(), server.modelName())
                    .withMetadata(Map.of("container_image", "example/image", "engine_args", List.of("--seed", "7")));
        }
    }

    @GoodputTest
    static class TwoGatesOnOneContainer {
        @ServerUnderTest
        static CountingServer server;

        static int startsSeenBySecondTest;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(concurrency = 2, requests = 6)
        void first() {}

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(concurrency = 2, requests = 6)
        void second() {
            startsSeenBySecondTest = server.starts;
        }
    }

    /** A container whose engine is missing: every start fails. */
    static final class UnstartableServer extends CountingServer {
        @Override
        public void start() {
            starts++;
            throw new IllegalStateException("Could not find a valid Docker environment");
        }
    }

    @GoodputTest
    static class TwoGatesOnABrokenContainer {
        @ServerUnderTest
        static CountingServer server;

        @org.junit.jupiter.api.Test
        @LoadProfile(concurrency = 1, requests = 1)
        void first() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(concurrency = 1, requests = 1)
        void second() {}
    }

    @AfterEach
    void forgetTheServer() {
        TwoGatesOnOneContainer.server = null;
        TwoGatesOnABrokenContainer.server = null;
    }

    private Events run(Class<?> testClass) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.progress", "off")
                // Mechanics, not performance: the client's lag on a shared machine must not decide these tests.
                .configurationParameter("goodput.client.untrustworthy", "warn")
                .selectors(selectClass(testClass))
                .execute()
                .testEvents();
    }

    @Test
    void should_start_the_server_once_for_the_class_reuse_it_and_stop_it_when_the_class_is_done() {
        CountingServer server = new CountingServer();
        TwoGatesOnOneContainer.server = server;

        run(TwoGatesOnOneContainer.class)
                .assertStatistics(stats -> stats.succeeded(2).failed(0));

        assertThat(TwoGatesOnOneContainer.startsSeenBySecondTest).isEqualTo(1);
        assertThat(server.starts).isEqualTo(1);
        assertThat(server.stops).isEqualTo(1);
        assertThat(server.isRunning()).isFalse();
    }

    @Test
    void should_leave_a_server_that_was_already_running_to_whoever_started_it() {
        CountingServer server = new CountingServer();
        server.start();
        TwoGatesOnOneContainer.server = server;
        try {
            run(TwoGatesOnOneContainer.class)
                    .assertStatistics(stats -> stats.succeeded(2).failed(0));

            assertThat(server.starts).isEqualTo(1);
            assertThat(server.stops).isZero();
            assertThat(server.isRunning()).isTrue();
        } finally {
            server.stop();
        }
    }

    @Test
    void should_try_a_failing_server_once_per_class_and_fail_every_test_with_the_reason() {
        UnstartableServer server = new UnstartableServer();
        TwoGatesOnABrokenContainer.server = server;

        Events events = run(TwoGatesOnABrokenContainer.class);

        events.assertStatistics(stats -> stats.failed(2));
        assertThat(server.starts).isEqualTo(1);
        assertThat(events.failed().stream())
                .allSatisfy(event -> assertThat(event.getPayload(org.junit.platform.engine.TestExecutionResult.class)
                                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable)
                                .orElseThrow())
                        .hasMessage("@ServerUnderTest field TwoGatesOnABrokenContainer.server did not start:"
                                + " Could not find a valid Docker environment"));
    }

    @Test
    void should_record_the_servers_metadata_in_the_json_result() throws Exception {
        TwoGatesOnOneContainer.server = new CountingServer();

        run(TwoGatesOnOneContainer.class).assertStatistics(stats -> stats.succeeded(2));

        String json = Files.readString(
                reports.resolve("TwoGatesOnOneContainer").resolve("first").resolve("result.json"));
        assertThat(json)
                .contains("\"metadata\"")
                .contains("\"container_image\"")
                .contains("\"example/image\"")
                .contains("\"--seed\"");
    }
}
