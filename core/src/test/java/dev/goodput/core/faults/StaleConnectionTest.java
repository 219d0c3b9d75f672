package dev.goodput.core.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.report.ConsoleReport;
import dev.goodput.core.report.JsonReport;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.mock.Faults;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A server that closes the connection after every streamed response while advertising keep-alive (llama.cpp's
 * server does): the client's pool hands out a connection the server already closed, and the request fails before
 * any byte of a response. Such a request never reached the server; it is sent again on another connection and
 * counted as a connection retry, never as a failure.
 */
class StaleConnectionTest {

    private static final int REQUESTS = 400;

    @Test
    void should_send_again_a_request_whose_pooled_connection_the_server_had_closed() throws Exception {
        try (MockServer server = MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(1)))
                .withFaults(Faults.none().withCloseAfterStreams(true)))) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(8)
                            .outputTokens(4)
                            .build())
                    .load(Load.concurrency(4).requests(REQUESTS))
                    .run();

            assertThat(result.accounting().count(Outcome.SUCCESS))
                    .as("every request succeeds: %s", result.failures())
                    .isEqualTo(REQUESTS);
            long connectionRetries = result.connectionRetries();
            // The server closes every connection, and a closed loop sends the next request the moment a stream
            // ends, usually before the client has noticed the close: some requests must meet a dead connection.
            assertThat(connectionRetries).as("connection retries").isPositive();
            assertThat(server.groundTruth().size())
                    .as("generations the server saw: each request once, plus the preflight's one")
                    .isEqualTo(REQUESTS + 1);
            assertThat(result.records())
                    .filteredOn(record -> record.connectionRetries() > 0)
                    .allSatisfy(record -> {
                        assertThat(record.retriedAttempts()).isEmpty();
                        assertThat(record.ttftNanos()).isGreaterThan(0);
                        assertThat(record.dispatchedNanos()).isLessThan(record.headersNanos());
                    });
            assertThat(ConsoleReport.format(result)).contains("connection retries: " + connectionRetries);
            assertThat(JsonReport.toJson(result))
                    .containsPattern("\"connection_retries\"\\s*:\\s*" + connectionRetries);
        }
    }
}
