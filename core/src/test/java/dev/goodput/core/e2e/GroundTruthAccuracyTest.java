package dev.goodput.core.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.mock.ChunkTiming;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.RequestTruth;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Holds the client's timestamps against the simulated server's recorded truth. Server and client share the JVM
 * and its {@code System.nanoTime()}. A chunk cannot reach the client before the model meant to emit it (its
 * intended time), so the client's timestamp minus the intended time is never negative. The server's "sent"
 * time is read after its write returned, so a client on the other core may legitimately see the bytes a little
 * earlier; the distance between the two should be small.
 */
@Isolated("holds the client's stamps to within milliseconds of the server's sends: a test beside it takes the cores")
class GroundTruthAccuracyTest {

    private static final long MS = 1_000_000;

    @Test
    void should_timestamp_every_token_after_the_server_sent_it_and_close_to_it() throws Exception {
        int requests = 30;
        int tokens = 20;
        try (MockServer server = MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(20), Duration.ofMillis(5))))) {
            // One user at a time and no preflight, so the n-th record and the n-th truth are the same request.
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(32)
                            .outputTokens(tokens)
                            .build())
                    .load(Load.concurrency(1).requests(requests))
                    .preflight(false)
                    .run();
            List<RequestTruth> truths = server.awaitGroundTruth(requests, Duration.ofSeconds(10));

            assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(requests);
            assertThat(truths).hasSize(requests);
            List<Long> firstTokenDelays = new ArrayList<>();
            List<Long> lastTokenDelays = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                RequestRecord record = result.records().get(i);
                RequestTruth truth = truths.get(i);
                List<ChunkTiming> chunks = truth.chunks();
                assertThat(record.outputTokens())
                        .isEqualTo(truth.completionTokens())
                        .isEqualTo(tokens);
                assertThat(record.serverPromptTokens()).isEqualTo(truth.promptTokens());
                assertThat(record.dispatchedNanos()).isLessThanOrEqualTo(truth.arrivalNanos());
                ChunkTiming first = chunks.get(0);
                ChunkTiming last = chunks.get(chunks.size() - 1);
                assertThat(record.firstTokenNanos())
                        .as("first token of request %d against the model's intended time", i)
                        .isGreaterThanOrEqualTo(first.intendedNanos());
                assertThat(record.lastTokenNanos())
                        .as("last token of request %d against the model's intended time", i)
                        .isGreaterThanOrEqualTo(last.intendedNanos());
                assertThat(record.ttftFromSendNanos())
                        .isGreaterThanOrEqualTo(first.intendedNanos() - truth.arrivalNanos());
                firstTokenDelays.add(Math.abs(record.firstTokenNanos() - first.sentNanos()));
                lastTokenDelays.add(Math.abs(record.lastTokenNanos() - last.sentNanos()));
            }
            firstTokenDelays.sort(null);
            lastTokenDelays.sort(null);
            System.out.printf(
                    Locale.ROOT,
                    "client timestamp vs the server's send, absolute: first token median %.3f ms max %.3f ms;"
                            + " last token median %.3f ms max %.3f ms%n",
                    firstTokenDelays.get(requests / 2) / 1e6,
                    firstTokenDelays.get(requests - 1) / 1e6,
                    lastTokenDelays.get(requests / 2) / 1e6,
                    lastTokenDelays.get(requests - 1) / 1e6);
            // Generous bounds: the machine is shared. Typical medians are well below a millisecond.
            assertThat(firstTokenDelays.get(requests / 2)).isLessThan(5 * MS);
            assertThat(lastTokenDelays.get(requests / 2)).isLessThan(5 * MS);
        }
    }
}
