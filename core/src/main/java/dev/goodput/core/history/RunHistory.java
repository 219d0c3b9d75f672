package dev.goodput.core.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.internal.JsonProblems;
import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.internal.redaction.TextCut;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * A history file in JSON Lines: one {@link HistoryEntry} per line, appended by every run, read whole by the report
 * index and the nightly {@link ChangePointReport}. A line looks like
 *
 * <pre>{@code
 * {"test":"ChatGate/chat","time":"2026-11-24T16:00:00Z","commit":"abc1234...","branch":"main",
 *  "goodput_version":"0.2.0","figures":{"goodput_rps":4.95,"ttft_p99_ms":182.4,"tpot_p50_ms":null}}
 * }</pre>
 *
 * (on one line). Appends from parallel test JVMs do not interleave: each takes an exclusive lock on the file and
 * writes its line in one piece; threads of one JVM take turns first, because a JVM holds a file's lock for all of
 * them.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class RunHistory {

    /** The most entries per test that reading keeps by default: the newest ones. */
    public static final int DEFAULT_MAX_PER_TEST = 500;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final Object APPEND_LOCK = new Object();

    private RunHistory() {}

    /** Appends one entry as one line, creating the file and its directory when missing. */
    public static void append(Path file, HistoryEntry entry) throws IOException {
        byte[] line = (toJson(entry) + "\n").getBytes(StandardCharsets.UTF_8);
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        synchronized (APPEND_LOCK) {
            try (FileChannel channel = FileChannel.open(
                            file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
                    FileLock lock = channel.lock()) {
                ByteBuffer buffer = ByteBuffer.wrap(line);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }
        }
    }

    /** Returns the file's entries in file order, at most the newest {@value #DEFAULT_MAX_PER_TEST} per test. */
    public static List<HistoryEntry> read(Path file) {
        return read(file, DEFAULT_MAX_PER_TEST);
    }

    /**
     * Returns the file's entries in file order, at most the newest {@code maxPerTest} of each test; empty when the
     * file does not exist (a history not yet started).
     *
     * @throws HistoryFileException naming the file and line of the first line that is not an entry
     */
    public static List<HistoryEntry> read(Path file, int maxPerTest) {
        if (maxPerTest < 1) {
            throw InvalidSettingException.of("maxPerTest", maxPerTest, "must be at least 1");
        }
        // Numbered so that the entries kept per test can be put back into file order.
        Map<String, Deque<Numbered>> newest = new LinkedHashMap<>();
        int number = 0;
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String text;
            while ((text = reader.readLine()) != null) {
                number++;
                if (text.isBlank()) {
                    continue;
                }
                HistoryEntry entry = parse(file, number, text);
                Deque<Numbered> kept = newest.computeIfAbsent(entry.testId(), id -> new ArrayDeque<>());
                kept.addLast(new Numbered(number, entry));
                if (kept.size() > maxPerTest) {
                    kept.removeFirst();
                }
            }
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new HistoryFileException("cannot read history file " + file + ": " + e.getMessage(), e);
        }
        List<Numbered> all = new ArrayList<>();
        newest.values().forEach(all::addAll);
        all.sort((a, b) -> Integer.compare(a.line, b.line));
        return all.stream().map(Numbered::entry).toList();
    }

    /** Returns the entries grouped by test id, the ids sorted, each test's entries in the order given. */
    public static Map<String, List<HistoryEntry>> byTest(List<HistoryEntry> entries) {
        Map<String, List<HistoryEntry>> grouped = new TreeMap<>();
        for (HistoryEntry entry : entries) {
            grouped.computeIfAbsent(entry.testId(), id -> new ArrayList<>()).add(entry);
        }
        grouped.replaceAll((id, list) -> List.copyOf(list));
        return grouped;
    }

    /** Returns an entry as one line of JSON, without the line break. */
    static String toJson(HistoryEntry entry) {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("test", entry.testId());
            json.writeStringField("time", entry.time().toString());
            json.writeStringField("commit", entry.commit());
            json.writeStringField("branch", entry.branch());
            json.writeStringField("goodput_version", entry.goodputVersion());
            json.writeObjectFieldStart("figures");
            for (Map.Entry<String, Double> figure : entry.figures().entrySet()) {
                json.writeFieldName(figure.getKey());
                double value = figure.getValue();
                if (Double.isFinite(value)) {
                    json.writeNumber(value);
                } else {
                    json.writeNull();
                }
            }
            json.writeEndObject();
            json.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("cannot write JSON to a string", e);
        }
        return out.toString();
    }

    /** Parses one line, naming the file, line and field of what is wrong. */
    static HistoryEntry parse(Path file, int line, String text) {
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new HistoryFileException(file, line, "not JSON: " + JsonProblems.inLine(e) + ": " + clip(text));
        }
        if (node == null || !node.isObject()) {
            throw new HistoryFileException(file, line, "not a JSON object: " + clip(text));
        }
        String test = text(file, line, node, "test", true);
        String time = text(file, line, node, "time", true);
        Instant instant;
        try {
            instant = Instant.parse(time);
        } catch (DateTimeParseException e) {
            throw new HistoryFileException(file, line, "field time = '" + time + "' is not an ISO-8601 instant");
        }
        JsonNode figuresNode = node.get("figures");
        if (figuresNode == null || !figuresNode.isObject()) {
            throw new HistoryFileException(file, line, "field figures is missing or not an object");
        }
        Map<String, Double> figures = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = figuresNode.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> figure = it.next();
            JsonNode value = figure.getValue();
            if (value.isNull()) {
                figures.put(figure.getKey(), Double.NaN);
            } else if (value.isNumber()) {
                figures.put(figure.getKey(), value.doubleValue());
            } else {
                throw new HistoryFileException(
                        file, line, "figure " + figure.getKey() + " = " + value + " is neither a number nor null");
            }
        }
        if (test.isBlank()) {
            throw new HistoryFileException(file, line, "field test is empty");
        }
        return new HistoryEntry(
                test,
                instant,
                text(file, line, node, "commit", false),
                text(file, line, node, "branch", false),
                text(file, line, node, "goodput_version", false),
                figures);
    }

    private static String text(Path file, int line, JsonNode node, String field, boolean required) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                throw new HistoryFileException(file, line, "field " + field + " is missing");
            }
            return "";
        }
        if (!value.isTextual()) {
            throw new HistoryFileException(file, line, "field " + field + " = " + value + " is not a string");
        }
        return value.asText();
    }

    private static String clip(String text) {
        return SecretRedaction.none().cut(text, TextCut.HISTORY_TEXT);
    }

    private record Numbered(int line, HistoryEntry entry) {}
}
