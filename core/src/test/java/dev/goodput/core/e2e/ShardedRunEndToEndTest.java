package dev.goodput.core.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.core.Goodput;
import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.load.Shard;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.shard.MergedRun;
import dev.goodput.core.shard.ShardPlan;
import dev.goodput.core.shard.ShardReport;
import dev.goodput.core.shard.ShardStart;
import dev.goodput.core.shard.Shards;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Shards of one run, in threads of this JVM, against one simulated server: they meet at shard 0's barrier on
 * loopback, send their shares, and merge into a run of the whole schedule. The multi-process proof, with the JUnit
 * path, is the examples' {@code ShardedGateAcrossProcessesTest}.
 */
@Isolated("holds the shards' start lag and clock offsets to milliseconds: a test beside it takes the cores")
class ShardedRunEndToEndTest {

    @TempDir
    Path root;

    private static RunSpec spec(MockServer server, int requests) {
        return Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                .workload(WorkloadSpec.synthetic()
                        .inputTokens(200)
                        .outputTokens(24)
                        .build())
                .load(Load.poisson(16).seed(11).requests(requests).warmupRequests(6))
                .objectives(SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(800)))
                .build();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void three_shards_meet_at_the_barrier_and_merge_into_the_whole_schedule() throws Exception {
        try (MockServer server = MockServer.start(MockServerConfig.defaults())) {
            RunSpec spec = spec(server, 90);
            ShardStart start = ShardStart.barrier("127.0.0.1:" + freePort());
            ExecutorService shards = Executors.newFixedThreadPool(3);
            List<Future<RunResult>> results = new ArrayList<>();
            try {
                for (int index = 0; index < 3; index++) {
                    int shardIndex = index;
                    results.add(shards.submit(() -> runShard(spec, shardIndex, start)));
                }
                for (Future<RunResult> result : results) {
                    assertThat(result.get(60, TimeUnit.SECONDS).records()).hasSize(30);
                }
            } finally {
                shards.shutdownNow();
            }

            // tag::merge-programmatic[]
            // Once, where the shards' outputs are visible:
            MergedRun merged = Shards.merge(spec, root);
            merged.facts().forEach(System.out::println);
            RunResult result = merged.result(); // judged with spec's objectives, as one generator's run would be
            // end::merge-programmatic[]

            assertThat(result.records())
                    .extracting(RequestRecord::index)
                    .containsExactlyElementsOf(LongStream.range(0, 90).boxed().toList());
            assertThat(result.accounting().measured()).isEqualTo(84);
            assertThat(result.records()).allMatch(RequestRecord::isSuccess);
            // One axis: the arrivals of all shards interleave as the one schedule has them.
            assertThat(result.records().get(0).intendedNanos()).isBetween(0L, 1L);
            assertThat(result.load().offeredRate()).isCloseTo(16, within(8.0));
            assertThat(merged.shards()).extracting(ShardReport::records).containsExactly(30L, 30L, 30L);
            // One machine, one clock: the measured offsets are within their own uncertainty of zero (and the
            // uncertainty is a loopback round trip).
            for (ShardReport shard : merged.shards()) {
                assertThat(Math.abs(shard.clockOffset().toNanos()))
                        .isLessThanOrEqualTo(shard.offsetUncertainty().toNanos() + 1_000_000);
                assertThat(shard.startLag()).isLessThan(Duration.ofMillis(200));
            }
            assertThat(merged.facts().get(0))
                    .startsWith("shards: 3 merged (30 + 30 + 30 requests), started by" + " barrier at 127.0.0.1:");
            assertThat(result.verdicts()).hasSize(1);
        }
    }

    private RunResult runShard(RunSpec spec, int index, ShardStart start) {
        // tag::shard-programmatic[]
        // On each generator, the same spec; shard 0's host names the barrier (for example "gen-0.gen:7311"):
        ShardPlan plan = ShardPlan.under(root, Shard.of(index, 3), start);
        RunResult share = Shards.run(spec, plan); // this shard's share alone: judge the merge, not this
        // end::shard-programmatic[]
        return share;
    }

    @Test
    void a_load_with_fewer_users_than_shards_is_refused_before_anything_is_sent() {
        try (MockServer server = MockServer.start(MockServerConfig.defaults())) {
            RunSpec spec = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(20)
                            .outputTokens(4)
                            .build())
                    .load(Load.concurrency(2).requests(20))
                    .build();

            assertThatThrownBy(() -> Shards.run(spec, ShardPlan.under(root, Shard.of(0, 3), ShardStart.immediately())))
                    .isInstanceOf(InvalidSettingException.class)
                    .hasMessageContaining("users")
                    .hasMessageContaining("2")
                    .hasMessageContaining("at least the shard count 3");
            assertThat(server.groundTruth()).isEmpty();
        }
    }
}
