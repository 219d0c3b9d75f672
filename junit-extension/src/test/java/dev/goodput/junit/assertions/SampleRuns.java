package dev.goodput.junit.assertions;

import static dev.goodput.core.record.RequestRecord.ABSENT;

import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.StreamPhases;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.result.internal.RunSnapshot;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Hand-made runs whose metrics core computes, so the assertions are tested against real results. Request
 * {@code i} is meant to start at {@code i * 100 ms}; all times are in milliseconds.
 */
final class SampleRuns {

    static final long MS = 1_000_000;

    private SampleRuns() {}

    /**
     * Ten measured successes with TTFT 100, 200, ..., 1000 ms and ten output tokens each at a TPOT of 100 ms,
     * so E2EL is TTFT + 900 ms. Hence p50 TTFT 550 ms, p90 910 ms, p99 991 ms, mean 550 ms; window 2.8 s.
     */
    static Builder tenSuccesses() {
        Builder run = new Builder();
        for (int i = 1; i <= 10; i++) {
            run.success(i * 100L, i * 100L + 900, 10);
        }
        return run;
    }

    /** Starts an empty run. */
    static Builder run() {
        return new Builder();
    }

    /** Collects requests and settings, then lets core compute the result. */
    static final class Builder {
        private final List<RequestRecord> records = new ArrayList<>();
        private final List<SloSpec> objectives = new ArrayList<>();
        private double[] percentiles = RunSpec.DEFAULT_PERCENTILES.stream()
                .mapToDouble(Double::doubleValue)
                .toArray();
        private Duration sendLagLimit = RunSpec.DEFAULT_SEND_LAG_LIMIT;

        /** Adds a measured success sent on time. */
        Builder success(long ttftMillis, long e2elMillis, int outputTokens) {
            return success(Phase.MEASURED, 0, ttftMillis, e2elMillis, outputTokens);
        }

        /** Adds a success of any phase that left the client {@code sendLagMillis} late. */
        Builder success(Phase phase, long sendLagMillis, long ttftMillis, long e2elMillis, int outputTokens) {
            long intended = records.size() * 100L * MS;
            records.add(new RequestRecord(
                    records.size(),
                    phase,
                    intended,
                    intended + sendLagMillis * MS,
                    intended + sendLagMillis * MS,
                    intended + ttftMillis * MS,
                    intended + e2elMillis * MS,
                    intended + e2elMillis * MS,
                    false,
                    200,
                    outputTokens,
                    outputTokens,
                    TokenCountSource.USAGE,
                    -1,
                    20,
                    20,
                    outputTokens >= 2 ? (e2elMillis - ttftMillis) / (outputTokens - 1) * MS : ABSENT,
                    "length",
                    Outcome.SUCCESS,
                    null,
                    List.of(),
                    0,
                    null,
                    StreamPhases.NONE));
            return this;
        }

        /** Adds a request that ended 50 ms after its start without a token. */
        Builder unsuccessful(Outcome outcome, Phase phase, String errorDetail) {
            long intended = records.size() * 100L * MS;
            records.add(new RequestRecord(
                    records.size(),
                    phase,
                    intended,
                    intended,
                    ABSENT,
                    ABSENT,
                    ABSENT,
                    intended + 50 * MS,
                    false,
                    outcome == Outcome.FAILED ? 500 : 0,
                    0,
                    0,
                    TokenCountSource.NONE,
                    -1,
                    -1,
                    20,
                    ABSENT,
                    null,
                    outcome,
                    errorDetail,
                    List.of(),
                    0,
                    null,
                    StreamPhases.NONE));
            return this;
        }

        Builder objectives(SloSpec... values) {
            objectives.addAll(List.of(values));
            return this;
        }

        Builder percentiles(double... values) {
            percentiles = values;
            return this;
        }

        Builder sendLagLimit(Duration value) {
            sendLagLimit = value;
            return this;
        }

        RunResult build() {
            RunSpec spec = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
                    .workload(WorkloadSpec.synthetic().build())
                    .load(Load.constantRate(10).requests(Math.max(1, records.size())))
                    .objectives(objectives)
                    .percentiles(percentiles)
                    .sendLagLimit(sendLagLimit)
                    .build();
            Histogram gaps = new Histogram(3);
            for (RequestRecord record : records) {
                if (record.phase() == Phase.MEASURED && record.isSuccess() && record.outputTokens() >= 2) {
                    gaps.recordValueWithCount((long) record.tpotNanos(), record.outputTokens() - 1);
                }
            }
            return ResultCalculator.compute(
                    spec, RunEnvironment.current(Instant.EPOCH), RunSnapshot.of(records, gaps, gaps));
        }
    }
}
