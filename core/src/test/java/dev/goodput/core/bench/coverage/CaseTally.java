package dev.goodput.core.bench.coverage;

import dev.goodput.core.Objective;
import dev.goodput.core.Verdict;
import java.util.Locale;

/**
 * The verdicts of one case over its runs: one statistic, one side of the truth, one load, one run length. A
 * verdict is wrong when it says MET though the truth violates the bound, or VIOLATED though the truth meets it.
 * Besides the engine's own verdicts it counts the wrong verdicts of two recomputations on the same samples, for
 * contrast: with plain intervals (independent samples) and with the correlation-aware ones on schedule order.
 */
final class CaseTally {

    final String preset;
    final double utilisation;
    final long size;
    final Statistic statistic;
    final boolean truthViolates;
    final double truth;
    final Objective objective;
    private int met;
    private int violated;
    private int inconclusive;
    private int plainWrong;
    private int orderedWrong;
    private int recomputed;
    private double effectiveSum;
    private int effectiveCount;
    private long requestsSum;

    CaseTally(String preset, double utilisation, long size, Statistic statistic, boolean truthViolates, double truth) {
        this.preset = preset;
        this.utilisation = utilisation;
        this.size = size;
        this.statistic = statistic;
        this.truthViolates = truthViolates;
        this.truth = truth;
        this.objective = statistic.objective(truth, truthViolates);
    }

    synchronized void add(Verdict engine, long requests) {
        switch (engine) {
            case MET -> met++;
            case VIOLATED -> violated++;
            default -> inconclusive++;
        }
        requestsSum += requests;
    }

    synchronized void addRecomputed(Verdict plain, Verdict ordered, double effectiveCount) {
        recomputed++;
        plainWrong += isWrong(plain) ? 1 : 0;
        orderedWrong += isWrong(ordered) ? 1 : 0;
        if (!Double.isNaN(effectiveCount)) {
            effectiveSum += effectiveCount;
            this.effectiveCount++;
        }
    }

    private boolean isWrong(Verdict verdict) {
        return verdict == (truthViolates ? Verdict.MET : Verdict.VIOLATED);
    }

    int runs() {
        return met + violated + inconclusive;
    }

    int wrong() {
        return truthViolates ? met : violated;
    }

    static String header() {
        return String.format(
                Locale.ROOT,
                "%-11s %4s %6s %-9s %-5s %12s | %4s %4s %4s %4s | %-22s | %6s %8s | %7s %7s",
                "server",
                "util",
                "n",
                "statistic",
                "truth",
                "value",
                "runs",
                "MET",
                "VIOL",
                "INC",
                "wrong (95% Wilson)",
                "plain",
                "ordered",
                "eff n",
                "mean n");
    }

    String row() {
        int runs = runs();
        WilsonInterval interval = WilsonInterval.of(wrong(), runs);
        return String.format(
                Locale.ROOT,
                "%-11s %4.1f %6d %-9s %-5s %12s | %4d %4d %4d %4d | %5.1f%% [%4.1f, %5.1f]%% | %5.1f%% %7.1f%% | %7s %7.0f",
                preset,
                utilisation,
                size,
                statistic.name(),
                truthViolates ? "fails" : "meets",
                format(truth),
                runs,
                met,
                violated,
                inconclusive,
                100.0 * wrong() / runs,
                100 * interval.lower(),
                100 * interval.upper(),
                recomputed == 0 ? Double.NaN : 100.0 * plainWrong / recomputed,
                recomputed == 0 ? Double.NaN : 100.0 * orderedWrong / recomputed,
                effectiveCount == 0 ? "-" : String.format(Locale.ROOT, "%.0f", effectiveSum / effectiveCount),
                (double) requestsSum / runs);
    }

    private String format(double value) {
        return statistic.isGoodput()
                ? String.format(Locale.ROOT, "%.3f/s", value)
                : String.format(Locale.ROOT, "%.2f ms", value / 1e6);
    }
}
