package dev.goodput.core.servermetrics.internal;

import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.internal.redaction.TextCut;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A parser of the Prometheus text exposition format 0.0.4 and of OpenMetrics text 1.0, written here because no
 * small, maintained Java library parses it: Prometheus' {@code client_java} (and Micrometer on top of it) only
 * writes the format, and the parsers that exist live in Go ({@code expfmt}, {@code textparse}) and Python. The
 * format is a dozen grammar rules, so a hand parser with its own tests costs less than a dependency.
 *
 * <p>What it keeps: every sample line as a {@link Sample}. What it drops: comments, {@code # HELP} and
 * {@code # TYPE} lines (a {@code TYPE} line is read only to recognise {@code _created} series), timestamps,
 * OpenMetrics exemplars (after {@code " # "}) and the {@code # EOF} marker, and the {@code X_created} samples
 * of counters, histograms and summaries (creation times, which both the OpenMetrics and the Python client's
 * 0.0.4 output carry and which mean nothing to a load test). Blank lines and CRLF line ends are accepted.
 * Not supported: Prometheus 3's quoted UTF-8 metric names ({@code {"my.metric"}}), which no LLM server uses.
 */
public final class Exposition {

    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Set<String> TYPES_WITH_CREATED = Set.of("counter", "histogram", "summary", "gaugehistogram");

    private final String line;
    private final SecretRedaction redaction;
    private int position;

    private Exposition(String line, SecretRedaction redaction) {
        this.line = line;
        this.redaction = redaction;
    }

    /**
     * Parses one exposition page.
     *
     * @param page the whole response body of a {@code /metrics} request, which may echo the key it was sent
     * @param redaction applied to the whole page before it is read, so that no sample, label value or quoted line
     *     carries the key or a piece of it
     * @return its samples in the order written, {@code _created} samples left out
     * @throws IllegalArgumentException naming the line number, what is wrong, and the line's text (truncated)
     */
    public static List<Sample> parse(String page, SecretRedaction redaction) {
        String text = redaction.redact(page);
        List<Sample> samples = new ArrayList<>();
        Map<String, String> typeByFamily = new HashMap<>();
        String[] lines = text.split("\n", -1);
        for (int index = 0; index < lines.length; index++) {
            // Leading blanks may precede a sample or a comment, as Prometheus' own parser allows.
            String line = (lines[index].endsWith("\r")
                            ? lines[index].substring(0, lines[index].length() - 1)
                            : lines[index])
                    .stripLeading();
            if (line.isBlank()) {
                continue;
            }
            try {
                if (line.startsWith("#")) {
                    readComment(line, typeByFamily);
                } else {
                    samples.add(new Exposition(line, redaction).sample());
                }
            } catch (IllegalArgumentException malformed) {
                throw new IllegalArgumentException(
                        "line " + (index + 1) + ": " + malformed.getMessage() + ": "
                                + redaction.cut(line, TextCut.METRICS_LINE),
                        malformed);
            }
        }
        samples.removeIf(sample -> isCreated(sample.name(), typeByFamily));
        return samples;
    }

    private static void readComment(String line, Map<String, String> typeByFamily) {
        String[] words = line.substring(1).trim().split("[ \t]+");
        if (words.length >= 3 && words[0].equals("TYPE")) {
            typeByFamily.put(words[1], words[2].toLowerCase(Locale.ROOT));
        }
    }

    /** The Python client's 0.0.4 output types a counter's family as {@code X_total}; OpenMetrics as {@code X}. */
    private static boolean isCreated(String name, Map<String, String> typeByFamily) {
        if (!name.endsWith("_created")) {
            return false;
        }
        String family = name.substring(0, name.length() - "_created".length());
        return TYPES_WITH_CREATED.contains(typeByFamily.getOrDefault(family, ""))
                || TYPES_WITH_CREATED.contains(typeByFamily.getOrDefault(family + "_total", ""));
    }

    private Sample sample() {
        String name = metricName();
        Map<String, String> labels = new LinkedHashMap<>();
        boolean blank = skipBlanks();
        if (position < line.length() && line.charAt(position) == '{') {
            position++;
            readLabels(labels);
            blank = skipBlanks();
        }
        if (!blank || position >= line.length()) {
            throw new IllegalArgumentException("expected a space and a value after " + name);
        }
        double value = number(word(), "value", redaction);
        skipBlanks();
        if (position < line.length() && line.charAt(position) != '#') {
            number(word(), "timestamp", redaction); // checked, then ignored: the scraper stamps its own time
            skipBlanks();
        }
        if (position < line.length() && line.charAt(position) != '#') {
            throw new IllegalArgumentException("unexpected text after the value");
        }
        // Whatever follows " # " is an OpenMetrics exemplar, which says nothing about the aggregate.
        return new Sample(name, labels, value);
    }

    private String metricName() {
        int start = position;
        while (position < line.length() && isNameChar(line.charAt(position), position == start, true)) {
            position++;
        }
        if (position == start) {
            throw new IllegalArgumentException("expected a metric name");
        }
        return line.substring(start, position);
    }

    private void readLabels(Map<String, String> labels) {
        while (true) {
            skipBlanks();
            if (position < line.length() && line.charAt(position) == '}') {
                position++;
                return;
            }
            int start = position;
            while (position < line.length() && isNameChar(line.charAt(position), position == start, false)) {
                position++;
            }
            if (position == start) {
                throw new IllegalArgumentException("expected a label name or '}' at column " + (position + 1));
            }
            String labelName = line.substring(start, position);
            skipBlanks();
            expect('=', labelName);
            skipBlanks();
            expect('"', labelName);
            if (labels.put(labelName, labelValue(labelName)) != null) {
                throw new IllegalArgumentException("label " + labelName + " given twice");
            }
            skipBlanks();
            if (position < line.length() && line.charAt(position) == ',') {
                position++;
            } else if (position >= line.length() || line.charAt(position) != '}') {
                throw new IllegalArgumentException("expected ',' or '}' after label " + labelName);
            }
        }
    }

    private String labelValue(String labelName) {
        StringBuilder value = new StringBuilder();
        while (position < line.length()) {
            char c = line.charAt(position++);
            if (c == '"') {
                return value.toString();
            }
            if (c != '\\') {
                value.append(c);
                continue;
            }
            char escaped = position < line.length() ? line.charAt(position++) : ' ';
            switch (escaped) {
                case '\\' -> value.append('\\');
                case '"' -> value.append('"');
                case 'n' -> value.append('\n');
                default ->
                    throw new IllegalArgumentException(
                            "invalid escape \\" + escaped + " in the value of label " + labelName);
            }
        }
        throw new IllegalArgumentException("unterminated value of label " + labelName);
    }

    private void expect(char wanted, String labelName) {
        if (position >= line.length() || line.charAt(position) != wanted) {
            throw new IllegalArgumentException("expected '" + wanted + "' after label " + labelName);
        }
        position++;
    }

    private String word() {
        int start = position;
        while (position < line.length() && line.charAt(position) != ' ' && line.charAt(position) != '\t') {
            position++;
        }
        return line.substring(start, position);
    }

    /** Skips spaces and tabs; returns whether there were any. */
    private boolean skipBlanks() {
        int start = position;
        while (position < line.length() && (line.charAt(position) == ' ' || line.charAt(position) == '\t')) {
            position++;
        }
        return position > start;
    }

    /** Reads a value as Go's {@code ParseFloat} does for this format: decimals, exponents, NaN and ±Inf. */
    static double number(String text, String what, SecretRedaction redaction) {
        switch (text.toLowerCase(Locale.ROOT)) {
            case "nan":
                return Double.NaN;
            case "+inf", "inf":
                return Double.POSITIVE_INFINITY;
            case "-inf":
                return Double.NEGATIVE_INFINITY;
            default:
                // The pattern turns away what Java alone would accept and the format does not: 1d, 0x1p3, Infinity.
                if (!NUMBER.matcher(text).matches()) {
                    throw new IllegalArgumentException("expected a number as the " + what + ", got \""
                            + redaction.cut(text, TextCut.METRICS_LINE) + "\"");
                }
                return Double.parseDouble(text);
        }
    }

    private static boolean isNameChar(char c, boolean first, boolean colonAllowed) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || c == '_'
                || (colonAllowed && c == ':')
                || (!first && c >= '0' && c <= '9');
    }
}
