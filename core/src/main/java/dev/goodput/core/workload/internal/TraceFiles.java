package dev.goodput.core.workload.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.goodput.core.workload.TraceRequest;
import dev.goodput.core.workload.WorkloadFileException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;

/** Readers of the public trace formats; every error names the file, the line and the field. */
public final class TraceFiles {

    private static final DateTimeFormatter AZURE_TIME = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd HH:mm:ss")
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
            .optionalEnd()
            .toFormatter();

    private TraceFiles() {}

    /** Mooncake JSONL: {@code timestamp} (ms), {@code input_length}, {@code output_length}, {@code hash_ids}. */
    public static List<TraceRequest> mooncake(Path file) {
        List<TraceRequest> requests = new ArrayList<>();
        for (Lines.Line line : Lines.read(file)) {
            JsonNode row = line.json();
            double millis = line.number(row, "timestamp");
            List<Long> hashIds = new ArrayList<>();
            for (JsonNode id : row.path("hash_ids")) {
                if (!id.canConvertToLong()) {
                    throw line.error("hash_ids must hold integers, had " + id);
                }
                hashIds.add(id.asLong());
            }
            requests.add(line.request(
                    Math.round(millis * 1e6),
                    line.positive(row, "input_length"),
                    line.positive(row, "output_length"),
                    hashIds));
        }
        return requests;
    }

    /** Azure LLM inference CSV: {@code TIMESTAMP}, {@code ContextTokens}, {@code GeneratedTokens}. */
    public static List<TraceRequest> azure(Path file) {
        List<TraceRequest> requests = new ArrayList<>();
        for (Csv.Row row : Csv.read(file, "TIMESTAMP", "ContextTokens", "GeneratedTokens")) {
            String stamp = row.get("TIMESTAMP");
            long nanos;
            try {
                LocalDateTime time = LocalDateTime.parse(stamp.trim(), AZURE_TIME);
                nanos = time.toEpochSecond(ZoneOffset.UTC) * 1_000_000_000L + time.getNano();
            } catch (DateTimeParseException e) {
                throw new WorkloadFileException(
                        file,
                        row.line(),
                        "TIMESTAMP must look like 2023-11-16 18:15:46.6805900, was \"" + stamp + "\"");
            }
            requests.add(new TraceRequest(
                    nanos, row.positiveInt("ContextTokens"), row.positiveInt("GeneratedTokens"), List.of()));
        }
        return requests;
    }

    /** BurstGPT CSV: {@code Timestamp} (s), {@code Request tokens}, {@code Response tokens}; 0-token rows skipped. */
    public static List<TraceRequest> burstGpt(Path file) {
        List<TraceRequest> requests = new ArrayList<>();
        for (Csv.Row row : Csv.read(file, "Timestamp", "Request tokens", "Response tokens")) {
            double seconds = row.number("Timestamp");
            int input = row.nonNegativeInt("Request tokens");
            int output = row.nonNegativeInt("Response tokens");
            if (input > 0 && output > 0) {
                requests.add(new TraceRequest(Math.round(seconds * 1e9), input, output, List.of()));
            }
        }
        return requests;
    }
}
