package dev.goodput.core.result.internal;

import dev.goodput.core.result.RunResult;
import dev.goodput.core.servermetrics.ServerMetricsResult.BandwidthCheck;
import dev.goodput.core.servermetrics.ServerMetricsResult.Distribution;
import dev.goodput.core.servermetrics.ServerMetricsResult.Figures;
import dev.goodput.core.servermetrics.internal.ScrapeLog;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.stats.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Picks the server facts that explain a run, most telling first: failed scrapes (the view may be incomplete),
 * preemptions and a full KV cache, requests queued inside the server, how much of the client's TTFT the engine
 * accounts for, the prefix-cache hit rate, the GPUs' energy and the bandwidth check.
 */
final class ServerFacts {

    /** Facts shown at most, failures and notes aside. */
    static final int MAX_FACTS = 3;

    private ServerFacts() {}

    static List<String> of(
            ScrapeLog log,
            RunResult run,
            Figures figures,
            List<Distribution> distributions,
            Optional<BandwidthCheck> bandwidth) {
        List<String> facts = new ArrayList<>(log.notes());
        if (log.failedScrapes() > 0) {
            facts.add(String.format(
                    Locale.ROOT,
                    "%d of %d scrapes failed, so the server view has gaps (first: %s)",
                    log.failedScrapes(),
                    log.failedScrapes() + log.scrapes(),
                    log.failureReasons().isEmpty() ? "?" : log.failureReasons().get(0)));
        }
        List<String> telling = new ArrayList<>();
        if (figures.preemptions() > 0 || figures.peakKvCacheUsage() >= 0.9) {
            telling.add(String.format(
                    Locale.ROOT,
                    "KV cache peaked at %.0f %% and %s requests were preempted",
                    figures.peakKvCacheUsage() * 100,
                    Double.isNaN(figures.preemptions()) ? "an unknown number of" : fmt(figures.preemptions())));
        }
        if (figures.peakWaiting() >= 1) {
            String queue = distributions.stream()
                    .filter(d -> d.key().equals("server_queue_time"))
                    .findFirst()
                    .map(d -> String.format(
                            Locale.ROOT,
                            ", waiting %.1f ms on average and %s at p99",
                            d.meanNanos() / 1e6,
                            d.p99().describe()))
                    .orElse("");
            telling.add(String.format(
                    Locale.ROOT,
                    "up to %s %s waited in the server's queue (mean %.1f)%s",
                    fmt(figures.peakWaiting()),
                    figures.peakWaiting() == 1 ? "request" : "requests",
                    figures.meanWaiting(),
                    queue));
        }
        // Means, not medians: a histogram's sum and count give the server's mean exactly, while its percentiles
        // are only known to a bucket (vLLM's TTFT buckets jump from 250 to 500 ms and from 1 to 2.5 s).
        Summary clientTtft = run.summary(Metric.TTFT_FROM_SEND);
        distributions.stream()
                .filter(d -> d.key().equals("server_ttft"))
                .findFirst()
                .filter(d -> !clientTtft.isEmpty())
                .ifPresent(d -> telling.add(String.format(
                        Locale.ROOT,
                        "mean TTFT %.1f ms at the server, %.1f ms at the client from its send: %.1f ms outside the"
                                + " engine (network, HTTP, the server's front end)",
                        d.meanNanos() / 1e6,
                        clientTtft.mean() / 1e6,
                        (clientTtft.mean() - d.meanNanos()) / 1e6)));
        if (!Double.isNaN(figures.prefixCacheHitRate())) {
            telling.add(
                    String.format(Locale.ROOT, "prefix cache hit rate %.0f %%", figures.prefixCacheHitRate() * 100));
        }
        if (!Double.isNaN(figures.energyPerOutputToken())) {
            telling.add(String.format(
                    Locale.ROOT,
                    "the GPUs drew %.0f W on average, %.3f J per output token",
                    figures.meanPowerWatts(),
                    figures.energyPerOutputToken()));
        }
        bandwidth.ifPresent(check -> telling.add(check.reading()));
        facts.addAll(telling.subList(0, Math.min(MAX_FACTS, telling.size())));
        return facts;
    }

    private static String fmt(double count) {
        return String.format(Locale.ROOT, "%.0f", count);
    }
}
