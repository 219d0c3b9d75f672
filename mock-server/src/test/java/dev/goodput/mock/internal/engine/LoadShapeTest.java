package dev.goodput.mock.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.mock.PerformanceModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The batching engine on virtual time reproduces the shape of a real server under load. */
class LoadShapeTest {

    private static final long MS = 1_000_000;
    private static final PerformanceModel H100 = PerformanceModel.preset("h100-llama3-8b");

    /** What a burst of {@code concurrency} simultaneous identical requests measured. */
    private record Burst(double meanTtftMs, double meanTpotMs, double tokensPerSecond) {}

    private static Burst burst(PerformanceModel model, int concurrency, int promptTokens, int outputTokens) {
        VirtualTimeRun run = new VirtualTimeRun(model);
        List<RecordingSink> sinks = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            sinks.add(run.submit(Generations.ignoringEos("r" + i, 0, promptTokens, outputTokens)));
        }
        run.runToCompletion();
        double ttft = sinks.stream()
                        .mapToLong(RecordingSink::firstTokenNanos)
                        .average()
                        .orElseThrow()
                / MS;
        double tpot = sinks.stream()
                        .mapToDouble(s -> (double) (s.finishNanos - s.firstTokenNanos()) / (outputTokens - 1))
                        .average()
                        .orElseThrow()
                / MS;
        double tokensPerSecond = (double) concurrency * outputTokens / (run.nowNanos() / 1e9);
        return new Burst(ttft, tpot, tokensPerSecond);
    }

    @Test
    @DisplayName("TTFT and TPOT rise with the number of concurrent sequences")
    void latencyRisesWithLoad() {
        Burst one = burst(H100, 1, 1024, 256);
        Burst eight = burst(H100, 8, 1024, 256);
        Burst sixtyFour = burst(H100, 64, 1024, 256);
        Burst twoFiftySix = burst(H100, 256, 1024, 256);
        assertThat(List.of(one.meanTpotMs(), eight.meanTpotMs(), sixtyFour.meanTpotMs(), twoFiftySix.meanTpotMs()))
                .isSorted()
                .doesNotHaveDuplicates();
        assertThat(List.of(one.meanTtftMs(), eight.meanTtftMs(), sixtyFour.meanTtftMs(), twoFiftySix.meanTtftMs()))
                .isSorted()
                .doesNotHaveDuplicates();
        // A lone sequence decodes at the batch-1 roofline step.
        assertThat(one.meanTpotMs()).isBetween(7.0, 8.0);
        assertThat(twoFiftySix.meanTpotMs()).isGreaterThan(2 * one.meanTpotMs());
    }

    @Test
    @DisplayName("Throughput grows almost linearly at small batches and flattens past the knee")
    void throughputFlattensPastTheKnee() {
        double one = burst(H100, 1, 1024, 256).tokensPerSecond();
        double eight = burst(H100, 8, 1024, 256).tokensPerSecond();
        double sixtyFour = burst(H100, 64, 1024, 256).tokensPerSecond();
        double twoFiftySix = burst(H100, 256, 1024, 256).tokensPerSecond();
        // 1,024 sequences of 1,280 tokens need 1.3 M tokens of KV; the cache holds 410 k: about 320 run at once.
        double thousand = burst(H100, 1024, 1024, 256).tokensPerSecond();
        assertThat(eight / one).as("8 vs 1").isGreaterThan(6);
        assertThat(sixtyFour / eight).as("64 vs 8").isGreaterThan(3);
        assertThat(twoFiftySix / sixtyFour).as("256 vs 64").isLessThan(2.5);
        assertThat(thousand / twoFiftySix).as("1024 vs 256, KV-bound").isLessThan(1.4);
    }

    @Test
    @DisplayName("Above capacity the waiting queue grows without bound and TTFT grows over time")
    void queueingExplodesPastSaturation() {
        PerformanceModel tiny = PerformanceModel.preset("tiny-test");
        // 8 sequences of 64 output tokens at ~15 ms per step serve about 8 requests per second.
        OpenLoop below = OpenLoop.run(tiny, 4, 20);
        OpenLoop above = OpenLoop.run(tiny, 20, 20);

        assertThat(below.waitingAt(10)).isLessThanOrEqualTo(2);
        assertThat(below.waitingAt(20)).isLessThanOrEqualTo(2);
        assertThat(below.meanTtftMs(15, 20)).isLessThan(3 * below.meanTtftMs(0, 5));

        assertThat(above.waitingAt(10)).isGreaterThan(50);
        assertThat(above.waitingAt(20)).isGreaterThan(above.waitingAt(10) + 50);
        // Arrivals outpace service by a constant rate, so TTFT climbs linearly: seconds more, ten seconds later.
        assertThat(above.meanTtftMs(15, 20) - above.meanTtftMs(5, 10)).isGreaterThan(5_000);
    }

    /** An open-loop run: one request every 1/rate seconds for {@code seconds}, sampled each second. */
    private record OpenLoop(List<Integer> waitingPerSecond, List<Long> arrivals, List<RecordingSink> sinks) {

        static OpenLoop run(PerformanceModel model, int requestsPerSecond, int seconds) {
            VirtualTimeRun run = new VirtualTimeRun(model);
            List<Long> arrivals = new ArrayList<>();
            List<RecordingSink> sinks = new ArrayList<>();
            long interval = 1_000 * MS / requestsPerSecond;
            for (int i = 0; i < requestsPerSecond * seconds; i++) {
                arrivals.add(i * interval);
                sinks.add(run.submit(Generations.ignoringEos("r" + i, i * interval, 64, 64)));
            }
            List<Integer> waiting = new ArrayList<>();
            waiting.add(0);
            for (int second = 1; second <= seconds; second++) {
                run.runUntil(second * 1_000 * MS);
                // Requests that have arrived but are not yet running.
                long arrived = arrivals.stream().filter(a -> a < run.nowNanos()).count();
                long started =
                        sinks.stream().filter(s -> !s.emissions.isEmpty()).count();
                waiting.add((int)
                        Math.max(0, arrived - started - run.scheduler.snapshot().running()));
            }
            run.runToCompletion();
            return new OpenLoop(waiting, arrivals, sinks);
        }

        int waitingAt(int second) {
            return waitingPerSecond.get(second);
        }

        /** Mean TTFT of the requests that arrived between the two instants, in seconds from the start. */
        double meanTtftMs(int fromSecond, int toSecond) {
            double total = 0;
            int count = 0;
            for (int i = 0; i < arrivals.size(); i++) {
                long arrival = arrivals.get(i);
                if (arrival >= fromSecond * 1_000 * MS && arrival < toSecond * 1_000 * MS) {
                    total += sinks.get(i).firstTokenNanos() - arrival;
                    count++;
                }
            }
            return total / count / MS;
        }
    }
}
