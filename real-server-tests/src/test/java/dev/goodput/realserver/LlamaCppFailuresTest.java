package dev.goodput.realserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What a real engine does when it cannot serve: a prompt over its context, and the engine killed mid-run. */
@RequiresLlamaServer
class LlamaCppFailuresTest {

    @Test
    void should_fail_a_prompt_over_the_context_with_the_servers_reason() throws Exception {
        LlamaServer server = LlamaServer.withSlots(1, 256);
        server.start();
        try {
            RunResult result = Goodput.newRun(server.serverEndpoint())
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(600)
                            .outputTokens(8)
                            .build())
                    .load(Load.concurrency(1).requests(3))
                    // The preflight's own short prompt fits; these long ones do not.
                    .run();

            assertThat(result.accounting().count(Outcome.FAILED)).isEqualTo(3);
            assertThat(result.records()).allSatisfy(record -> {
                assertThat(record.httpStatus()).isEqualTo(400);
                assertThat(record.errorDetail()).startsWith("HTTP 400: ").containsIgnoringCase("context");
                assertThat(record.connectionRetries()).isZero();
            });
            assertThat(result.failures().describe(5, ""))
                    .first()
                    .asString()
                    .startsWith("why 3 requests did not succeed");
            assertThat(result.failures().describe(5, ""))
                    .anySatisfy(line -> assertThat(line)
                            .contains("HTTP 400: request (")
                            .contains("exceeds the available context size (256 tokens)"));
        } finally {
            server.stop();
        }
    }

    @Test
    void should_account_for_every_request_when_the_engine_is_killed_mid_run() throws Exception {
        LlamaServer server = LlamaServer.withSlots(2, 4096);
        server.start();
        ScheduledExecutorService killer = Executors.newSingleThreadScheduledExecutor();
        try {
            int requests = 60;
            killer.schedule(server::kill, 1_500, TimeUnit.MILLISECONDS);
            long started = System.nanoTime();
            RunResult result = Goodput.newRun(server.serverEndpoint())
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(16)
                            .outputTokens(64)
                            .build())
                    .load(Load.constantRate(10).requests(requests))
                    .run();

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(60));
            assertThat(result.accounting().isBalanced()).isTrue();
            assertThat(result.records()).hasSize(requests);
            long succeeded = result.accounting().count(Outcome.SUCCESS);
            long failed = result.accounting().count(Outcome.FAILED);
            assertThat(succeeded + failed)
                    .as("each request ends once, as a success or a failure")
                    .isEqualTo(requests);
            assertThat(succeeded).as("requests served before the kill").isPositive();
            // Sent at 10 per second, the requests of the last 4.5 s cannot have found a server.
            assertThat(failed).isGreaterThanOrEqualTo(40);
            assertThat(result.records())
                    .filteredOn(record -> record.outcome() == Outcome.FAILED)
                    .extracting(RequestRecord::errorDetail)
                    .allSatisfy(reason -> assertThat(reason).containsAnyOf("refused", "closed", "reset"));
            assertThat(result.records())
                    .filteredOn(record -> record.outcome() == Outcome.FAILED)
                    .extracting(RequestRecord::errorDetail)
                    .anySatisfy(reason -> assertThat(reason).startsWith("connection refused"));
        } finally {
            killer.shutdownNow();
            server.stop();
        }
    }
}
