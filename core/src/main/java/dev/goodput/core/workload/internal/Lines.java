package dev.goodput.core.workload.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.internal.JsonProblems;
import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.internal.redaction.TextCut;
import dev.goodput.core.workload.TraceRequest;
import dev.goodput.core.workload.WorkloadFileException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The non-blank lines of a text file with their numbers, and checked field access for JSON lines. */
final class Lines {

    static final ObjectMapper JSON = new ObjectMapper();

    private Lines() {}

    static List<String> all(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new WorkloadFileException(file, 0, "no such file");
        } catch (IOException e) {
            throw new WorkloadFileException(file, 0, "cannot be read: " + e);
        }
    }

    static List<Line> read(Path file) {
        List<String> text = all(file);
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < text.size(); i++) {
            if (!text.get(i).isBlank()) {
                lines.add(new Line(file, i + 1, text.get(i)));
            }
        }
        if (lines.isEmpty()) {
            throw new WorkloadFileException(file, 0, "holds no line");
        }
        return lines;
    }

    record Line(Path file, long number, String text) {

        JsonNode json() {
            try {
                JsonNode node = JSON.readTree(text);
                if (node == null || !node.isObject()) {
                    throw error("must be a JSON object, was " + abbreviate(text));
                }
                return node;
            } catch (JsonProcessingException e) {
                throw error("is not JSON: " + JsonProblems.inLine(e) + ": " + abbreviate(text));
            }
        }

        double number(JsonNode row, String field) {
            JsonNode value = row.get(field);
            if (value == null || !value.isNumber() || value.asDouble() < 0) {
                throw error(field + " must be a number of at least 0, was " + abbreviate(String.valueOf(value)));
            }
            return value.asDouble();
        }

        int positive(JsonNode row, String field) {
            JsonNode value = row.get(field);
            if (value == null || !value.canConvertToInt() || value.asInt() < 1 || !value.isIntegralNumber()) {
                throw error(field + " must be an integer of at least 1, was " + abbreviate(String.valueOf(value)));
            }
            return value.asInt();
        }

        TraceRequest request(long offsetNanos, int input, int output, List<Long> hashIds) {
            return new TraceRequest(offsetNanos, input, output, hashIds);
        }

        WorkloadFileException error(String reason) {
            return new WorkloadFileException(file, number, reason);
        }
    }

    /** Returns a line as a message may quote it: without what looks like a secret, cut to a short excerpt. */
    static String abbreviate(String text) {
        return SecretRedaction.none().cut(text, TextCut.DATASET_LINE);
    }
}
