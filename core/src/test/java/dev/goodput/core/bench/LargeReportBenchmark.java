package dev.goodput.core.bench;

import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.report.HtmlReport;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.testing.SampleResults;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Measures what the HTML report of a large run needs: the heap its result holds, the page's size, and (run with a
 * given {@code -Xmx}) whether it can be written at all. Not a test: run it by hand with decreasing {@code -Xmx} to
 * find the least heap; the first argument is the number of requests (100,000 unless given).
 *
 * <p>{@code java -Xmx64m -cp <core's test class path> dev.goodput.core.bench.LargeReportBenchmark 100000}
 */
public final class LargeReportBenchmark {

    public static void main(String[] args) {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        long before = usedHeapAfterGc();
        List<RequestRecord> records = new ArrayList<>(requests);
        for (int i = 0; i < requests; i++) {
            long first = i + 20 + (i * 7_919L) % 60;
            records.add(SampleResults.success(i, Phase.MEASURED, i, i, first, first + 100, first + 100, 11));
        }
        RunResult result = SampleResults.compute(
                records, List.of(SloSpec.of(Metric.TTFT).percentile(99).atMost(Duration.ofMillis(500))));
        records = null;
        long withResult = usedHeapAfterGc();
        long start = System.nanoTime();
        String page = HtmlReport.format(result, requests + " requests");
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf(
                Locale.ROOT,
                "%,d requests, -Xmx %d MB: the result holds %.1f MB (%.0f bytes a request); the page is %,d bytes,"
                        + " written in %d ms%n",
                requests,
                Runtime.getRuntime().maxMemory() >> 20,
                (withResult - before) / 1e6,
                (double) (withResult - before) / requests,
                page.getBytes(StandardCharsets.UTF_8).length,
                millis);
    }

    private static long usedHeapAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            used = Math.min(
                    used,
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
