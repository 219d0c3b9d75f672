package dev.goodput.core.bench.coverage;

import dev.goodput.core.load.Load;
import dev.goodput.core.load.RunLength;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The cases of runs that last until decided ({@link Load#untilDecided}), one server at one load: each statistic with
 * its bound 10 % on either side of the truth, and with a bound twice as loose as the truth (at most twice it for a
 * latency, at least half of it for goodput), which should stop at the first look. Each run is a gate with that one
 * objective (goodput's with its per-request TTFT bound besides, on the p1): a run stops when all its objectives are
 * decided or one is VIOLATED,
 * so objectives sharing a run would decide each other's length.
 */
public final class SequentialCases {

    private final List<CaseTally> tallies = new ArrayList<>();
    private final SloSpec goodRequest;

    public SequentialCases(
            ServerPreset preset,
            double utilisation,
            long minRequests,
            long maxRequests,
            List<Statistic> statistics,
            LongRunTruth truth) {
        // The per-request bound that makes a request good, on a statistic decided MET at the first look (the p1 TTFT
        // is about the service time, far below it): a max would be VIOLATED there, and a run that lasts until decided
        // stops at its first VIOLATED objective, before goodput is decided.
        this.goodRequest = SloSpec.of(Metric.TTFT).percentile(1).atMost(Duration.ofNanos(truth.goodTtftBoundNanos()));
        String length = "until " + minRequests + "-" + maxRequests;
        for (Statistic statistic : statistics) {
            double[] factors = statistic.isGoodput() ? new double[] {1.1, 0.9, 0.5} : new double[] {0.9, 1.1, 2.0};
            for (double factor : factors) {
                tallies.add(
                        new CaseTally(preset.name(), utilisation, length, statistic, factor, truth.value(statistic)));
            }
        }
    }

    /** Returns the number of gates each seed runs: one per case. */
    public int cases() {
        return tallies.size();
    }

    /** Returns the objectives of case {@code index}'s gate. */
    public List<SloSpec> objectives(int index) {
        CaseTally tally = tallies.get(index);
        return tally.statistic.isGoodput() ? List.of(goodRequest, tally.objective) : List.of(tally.objective);
    }

    /** Counts the verdict of one gate of case {@code index}, the measured requests it took, and its looks. */
    public void judge(int index, VirtualGateRun run) {
        CaseTally tally = tallies.get(index);
        RunResult result = run.judge();
        SloVerdict verdict = result.verdicts().get(result.verdicts().size() - 1);
        RunLength length = result.runLength();
        tally.add(
                verdict,
                length.decided() ? lastLook(length) : result.accounting().measured());
        if (length.decided() && length.looks().size() == 1) {
            tally.addFirstLookStop();
        }
    }

    private static long lastLook(RunLength length) {
        return length.looks().get(length.looks().size() - 1).measuredRequests();
    }

    /** Prints one row per case. */
    public void print(PrintStream out) {
        out.println(CaseTally.header());
        for (CaseTally tally : tallies) {
            out.println(tally.row());
        }
    }
}
