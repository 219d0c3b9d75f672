package dev.goodput.realserver;

import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.stats.internal.ExactDistribution;
import dev.goodput.core.stats.internal.Type7Percentile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Goodput's figures beside the engine's own for the successful requests of one run, as one row of the agreement
 * table that docs/real-servers.md quotes; rows are appended to {@code target/real-server/agreement.md}.
 */
final class Agreement {

    static final Path TABLE = LlamaServer.REPORTS.resolve("agreement.md");
    private static final String HEADER = "| concurrency | requests | Goodput TTFT from send p50 / p99 ms |"
            + " Goodput TTFT - headers p50 / p99 ms | server prompt_ms p50 / p99 |"
            + " Goodput TPOT p50 / p99 ms | server ms per token p50 / p99 | every token seen as text |"
            + " output tokens Goodput = server |"
            + " prompt tokens server - client |";

    private final int concurrency;
    private final List<RequestRecord> records;

    Agreement(int concurrency, List<RequestRecord> successes) {
        this.concurrency = concurrency;
        this.records = successes;
    }

    double goodputTtftMillis(double percentile) {
        return percentile(percentile, r -> r.ttftFromSendNanos() / 1e6);
    }

    /** TTFT from the headers: what is left of TTFT once the server has accepted the request and answered. */
    double goodputTtftAfterHeadersMillis(double percentile) {
        return percentile(percentile, r -> (r.firstTokenNanos() - r.headersNanos()) / 1e6);
    }

    double serverPromptMillis(double percentile) {
        return percentile(percentile, r -> r.serverTimings().promptMillis());
    }

    /**
     * Returns how many requests had each output token arrive as its own content event. This random-weight model
     * sometimes ends a stream with tokens that decode to no text, which llama-server does not send; there the
     * stream's last content event (where TPOT ends, by definition) comes before the engine's last token, and
     * TPOT reads up to several times lower than the engine's time per token. CI once failed on that (3.87 ms
     * against 4.39 at the median), so the TPOT columns cover only these requests.
     */
    long everyTokenSeen() {
        return everyTokenSeenRecords().size();
    }

    double goodputTpotMillis(double percentile) {
        return percentile(everyTokenSeenRecords(), percentile, r -> r.tpotNanos() / 1e6);
    }

    double serverMillisPerToken(double percentile) {
        return percentile(
                everyTokenSeenRecords(), percentile, r -> r.serverTimings().predictedMillisPerToken());
    }

    private List<RequestRecord> everyTokenSeenRecords() {
        return records.stream()
                .filter(r -> r.contentEvents() == r.outputTokens())
                .toList();
    }

    /** Returns how many requests have Goodput's output count equal to the engine's. */
    long outputCountsEqual() {
        return records.stream()
                .filter(r -> r.outputTokens() == r.serverTimings().predictedTokens())
                .count();
    }

    /** Returns the distinct differences between the server's prompt count and the client tokenizer's. */
    long[] promptCountDifferences() {
        return records.stream()
                .mapToLong(r -> r.serverPromptTokens() - r.clientPromptTokens())
                .distinct()
                .toArray();
    }

    String row() {
        return String.format(
                Locale.ROOT,
                "| %d | %d | %.1f / %.1f | %.1f / %.1f | %.1f / %.1f | %.2f / %.2f | %.2f / %.2f | %d of %d | %d of %d | %s |",
                concurrency,
                records.size(),
                goodputTtftMillis(50),
                goodputTtftMillis(99),
                goodputTtftAfterHeadersMillis(50),
                goodputTtftAfterHeadersMillis(99),
                serverPromptMillis(50),
                serverPromptMillis(99),
                goodputTpotMillis(50),
                goodputTpotMillis(99),
                serverMillisPerToken(50),
                serverMillisPerToken(99),
                everyTokenSeen(),
                records.size(),
                outputCountsEqual(),
                records.size(),
                Arrays.toString(promptCountDifferences()));
    }

    /** Appends this run's row to the table, writing the header first when the table is new. */
    void append() {
        try {
            Files.createDirectories(TABLE.getParent());
            StringBuilder text = new StringBuilder();
            if (!Files.exists(TABLE)) {
                text.append(HEADER)
                        .append('\n')
                        .append(HEADER.replaceAll("[^|]+", "---"))
                        .append('\n');
            }
            text.append(row()).append('\n');
            Files.writeString(
                    TABLE, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private double percentile(double percentile, ToDoubleFunction<RequestRecord> value) {
        return percentile(records, percentile, value);
    }

    private static double percentile(List<RequestRecord> of, double percentile, ToDoubleFunction<RequestRecord> value) {
        if (of.isEmpty()) {
            return Double.NaN;
        }
        // Goodput's own percentile (type 7, as numpy's default), so the table reads both sides alike.
        return Type7Percentile.of(
                ExactDistribution.of(of.stream().mapToDouble(value).toArray()), percentile);
    }
}
