package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.record.RequestAttempt;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.ClassSplit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongFunction;
import org.apiguardian.api.API;

/**
 * Writes one CSV row per request: its phase, outcome, every instant relative to the run's first intended
 * start (in milliseconds, empty when the instant never happened), the derived latencies, token counts and the
 * error detail, then the stream's reasoning and answer phases ({@link dev.goodput.core.record.StreamPhases}: the
 * phase instants are empty for a record without phase information). RFC 4180 quoting.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class CsvReport {

    /** The header row. */
    public static final String HEADER = "index,phase,outcome,http_status,intended_ms,dispatched_ms,headers_ms,"
            + "first_token_ms,last_token_ms,end_ms,ttft_ms,ttft_from_send_ms,queue_ms,e2el_ms,tpot_ms,max_stall_ms,"
            + "held_by_concurrency_cap,content_events,output_tokens,output_token_source,client_output_tokens,"
            + "server_prompt_tokens,client_prompt_tokens,finish_reason,error,attempts,retried_attempts,"
            + "connection_retries,server_cached_prompt_tokens,server_prompt_tokens_evaluated,server_prompt_ms,"
            + "server_predicted_tokens,server_predicted_ms,server_ms_per_token,first_reasoning_ms,last_reasoning_ms,"
            + "first_answer_ms,last_answer_ms,ttfo_ms,answer_tpot_ms,reasoning_events,answer_events,reasoning_tokens,"
            + "reasoning_token_source,tool_calls,workload_class";

    private CsvReport() {}

    /** Writes the CSV to a file, creating its directory. */
    public static void write(RunResult result, Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                write(result, out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the per-request CSV to " + file, e);
        }
    }

    /** Writes the CSV, header first. */
    public static void write(RunResult result, Writer out) throws IOException {
        long origin = result.records().stream()
                .mapToLong(RequestRecord::intendedNanos)
                .min()
                .orElse(0);
        out.write(HEADER);
        out.write('\n');
        LongFunction<String> classOf = ClassSplit.classifier(result.spec());
        for (RequestRecord r : result.records()) {
            String[] cells = {
                Long.toString(r.index()),
                r.phase().name(),
                r.outcome().name(),
                r.httpStatus() == 0 ? "" : Integer.toString(r.httpStatus()),
                instant(r.intendedNanos(), origin),
                instant(r.dispatchedNanos(), origin),
                instant(r.headersNanos(), origin),
                instant(r.firstTokenNanos(), origin),
                instant(r.lastTokenNanos(), origin),
                instant(r.endNanos(), origin),
                duration(r.ttftNanos()),
                duration(r.ttftFromSendNanos()),
                duration(r.queueNanos()),
                duration(r.e2elNanos()),
                Double.isNaN(r.tpotNanos()) ? "" : millis(r.tpotNanos()),
                duration(r.maxStallNanos()),
                Boolean.toString(r.heldByConcurrencyCap()),
                Integer.toString(r.contentEvents()),
                Integer.toString(r.outputTokens()),
                r.outputTokenSource().name(),
                count(r.clientOutputTokens()),
                count(r.serverPromptTokens()),
                count(r.clientPromptTokens()),
                r.finishReason() == null ? "" : r.finishReason(),
                r.errorDetail() == null ? "" : r.errorDetail(),
                Integer.toString(r.attempts()),
                retriedAttempts(r),
                Integer.toString(r.connectionRetries()),
                r.serverTimings() == null ? "" : count(r.serverTimings().cachedPromptTokens()),
                r.serverTimings() == null ? "" : count(r.serverTimings().promptTokens()),
                r.serverTimings() == null ? "" : millis(r.serverTimings().promptMillis() * 1e6),
                r.serverTimings() == null ? "" : count(r.serverTimings().predictedTokens()),
                r.serverTimings() == null ? "" : millis(r.serverTimings().predictedMillis() * 1e6),
                r.serverTimings() == null || Double.isNaN(r.serverTimings().predictedMillisPerToken())
                        ? ""
                        : millis(r.serverTimings().predictedMillisPerToken() * 1e6),
                instant(r.streamPhases().firstReasoningNanos(), origin),
                instant(r.streamPhases().lastReasoningNanos(), origin),
                instant(r.streamPhases().firstAnswerNanos(), origin),
                instant(r.streamPhases().lastAnswerNanos(), origin),
                duration(r.ttfoNanos()),
                Double.isNaN(r.answerTpotNanos()) ? "" : millis(r.answerTpotNanos()),
                Integer.toString(r.streamPhases().reasoningEvents()),
                Integer.toString(r.streamPhases().answerEvents()),
                Integer.toString(r.streamPhases().reasoningTokens()),
                r.streamPhases().reasoningTokenSource().name(),
                Integer.toString(r.streamPhases().toolCalls()),
                Objects.requireNonNullElse(classOf.apply(r.index()), "")
            };
            for (int i = 0; i < cells.length; i++) {
                if (i > 0) {
                    out.write(',');
                }
                out.write(quote(cells[i]));
            }
            out.write('\n');
        }
    }

    /** Each earlier attempt as "n: reason; waited w ms", joined by " | ". */
    private static String retriedAttempts(RequestRecord r) {
        StringBuilder cell = new StringBuilder();
        for (RequestAttempt attempt : r.retriedAttempts()) {
            if (cell.length() > 0) {
                cell.append(" | ");
            }
            cell.append(attempt.number())
                    .append(": ")
                    .append(attempt.reason())
                    .append("; waited ")
                    .append(millis(attempt.waitNanos()))
                    .append(" ms");
        }
        return cell.toString();
    }

    private static String instant(long nanos, long origin) {
        return nanos == RequestRecord.ABSENT ? "" : millis(nanos - origin);
    }

    private static String duration(long nanos) {
        return nanos == RequestRecord.ABSENT ? "" : millis(nanos);
    }

    private static String millis(double nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    private static String count(int value) {
        return value < 0 ? "" : Integer.toString(value);
    }

    private static String quote(String cell) {
        if (cell.indexOf(',') < 0 && cell.indexOf('"') < 0 && cell.indexOf('\n') < 0 && cell.indexOf('\r') < 0) {
            return cell;
        }
        return '"' + cell.replace("\"", "\"\"") + '"';
    }
}
