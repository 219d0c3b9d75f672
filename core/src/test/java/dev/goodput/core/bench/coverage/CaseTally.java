package dev.goodput.core.bench.coverage;

import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import java.util.Locale;

/**
 * The verdicts of one case over its runs: one statistic, one bound (a factor of the truth), one load, one run
 * length. A verdict is wrong when it says MET though the truth violates the bound, or VIOLATED though the truth meets
 * it. Besides the engine's own verdicts it counts, for contrast, the wrong verdicts of two recomputations on the same
 * samples: with plain intervals (independent samples) and with the correlation-aware ones on schedule order.
 */
final class CaseTally {

    final String preset;
    final double utilisation;
    final String length;
    final Statistic statistic;
    final double factor;
    final double truth;
    final SloSpec objective;
    private int met;
    private int violated;
    private int inconclusive;
    private int plainWrong;
    private int orderedWrong;
    private int recomputed;
    private double effectiveSum;
    private int effectiveCount;
    private long requestsSum;
    private int firstLookStops;

    CaseTally(String preset, double utilisation, String length, Statistic statistic, double factor, double truth) {
        this.preset = preset;
        this.utilisation = utilisation;
        this.length = length;
        this.statistic = statistic;
        this.factor = factor;
        this.truth = truth;
        this.objective = statistic.objective(truth, factor);
    }

    /** Counts the engine's verdict on one run that judged {@code requests} measured requests. */
    synchronized void add(SloVerdict verdict, long requests) {
        switch (verdict.verdict()) {
            case MET -> met++;
            case VIOLATED -> violated++;
            default -> inconclusive++;
        }
        requestsSum += requests;
        if (Double.isFinite(verdict.effectiveCount())) {
            effectiveSum += verdict.effectiveCount();
            effectiveCount++;
        }
    }

    /** Counts a run that lasted until decided and stopped at its first look. */
    synchronized void addFirstLookStop() {
        firstLookStops++;
    }

    synchronized void addRecomputed(Verdict plain, Verdict ordered) {
        recomputed++;
        plainWrong += isWrong(plain) ? 1 : 0;
        orderedWrong += isWrong(ordered) ? 1 : 0;
    }

    private boolean isWrong(Verdict verdict) {
        return verdict == (statistic.violatedBy(factor) ? Verdict.MET : Verdict.VIOLATED);
    }

    int runs() {
        return met + violated + inconclusive;
    }

    int wrong() {
        return statistic.violatedBy(factor) ? met : violated;
    }

    static String header() {
        return String.format(
                Locale.ROOT,
                "%-11s %4s %-10s %-9s %-5s %12s | %4s %4s %4s %4s | %-22s | %6s %7s | %7s %7s %5s",
                "server",
                "util",
                "length",
                "statistic",
                "bound",
                "truth",
                "runs",
                "MET",
                "VIOL",
                "INC",
                "wrong (95% Wilson)",
                "plain",
                "ordered",
                "eff n",
                "mean n",
                "1st");
    }

    String row() {
        int runs = runs();
        WilsonInterval interval = WilsonInterval.of(wrong(), runs);
        return String.format(
                Locale.ROOT,
                "%-11s %4.1f %-10s %-9s %-5s %12s | %4d %4d %4d %4d | %5.1f%% [%4.1f, %5.1f]%% | %6s %7s | %7s %7.0f %5s",
                preset,
                utilisation,
                length,
                statistic.name(),
                String.format(Locale.ROOT, "%.1fx", factor),
                format(truth),
                runs,
                met,
                violated,
                inconclusive,
                100.0 * wrong() / runs,
                100 * interval.lower(),
                100 * interval.upper(),
                recomputed == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * plainWrong / recomputed),
                recomputed == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * orderedWrong / recomputed),
                effectiveCount == 0 ? "-" : String.format(Locale.ROOT, "%.0f", effectiveSum / effectiveCount),
                (double) requestsSum / runs,
                length.startsWith("until") ? String.valueOf(firstLookStops) : "-");
    }

    private String format(double value) {
        return statistic.isGoodput()
                ? String.format(Locale.ROOT, "%.3f/s", value)
                : String.format(Locale.ROOT, "%.2f ms", value / 1e6);
    }
}
