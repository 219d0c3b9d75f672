package dev.goodput.junit;

import dev.goodput.core.workload.ConversationWorkload;
import dev.goodput.core.workload.DatasetConversationWorkload;
import dev.goodput.core.workload.DatasetWorkload;
import dev.goodput.core.workload.LengthDistribution;
import dev.goodput.core.workload.PrefixPolicy;
import dev.goodput.core.workload.PromptTokenizer;
import dev.goodput.core.workload.RandomWorkload;
import dev.goodput.core.workload.RequestShape;
import dev.goodput.core.workload.SyntheticWorkload;
import dev.goodput.core.workload.Trace;
import dev.goodput.core.workload.TraceWorkload;
import dev.goodput.core.workload.WorkloadFileException;
import dev.goodput.core.workload.WorkloadSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** Turns a {@link Workload} annotation into a core workload, reading any file it names at once. */
final class WorkloadAnnotations {

    /** {@link Workload#outputTokens()}'s default, which a dataset replayed as sessions leaves unset. */
    private static final int DEFAULT_OUTPUT_TOKENS = 128;

    private WorkloadAnnotations() {}

    static WorkloadSpec of(Workload w) {
        boolean dataset = !w.dataset().isEmpty();
        boolean trace = !w.trace().isEmpty();
        if (dataset && trace) {
            throw new IllegalArgumentException("set dataset or trace, not both (dataset = \"" + w.dataset()
                    + "\", trace = \"" + w.trace() + "\")");
        }
        if (w.turns() < 1) {
            throw new IllegalArgumentException("turns must be at least 1, was " + w.turns());
        }
        if (w.turns() > 1 && trace) {
            throw new IllegalArgumentException("turns (" + w.turns() + ") makes conversations; it cannot be"
                    + " combined with a trace file (trace = \"" + w.trace() + "\")");
        }
        PromptTokenizer tokenizer = PromptTokenizer.parse(tokenizerName(w.tokenizer()));
        RequestShape shape = new RequestShape(w.api(), w.ignoreEos(), 0.0, Map.of());
        if (w.toolCalls()) {
            shape = shape.withTools(java.util.List.of(RequestShape.LOOKUP_TOOL));
        }
        if (trace) {
            return TraceWorkload.builder(trace(w))
                    .tokenizer(tokenizer)
                    .shape(shape)
                    .seed(w.seed())
                    .build();
        }
        if (dataset) {
            Path file = path(w.dataset());
            if (w.turns() > 1) {
                return sessions(w, file, tokenizer, shape);
            }
            DatasetWorkload.Builder builder = file.toString().endsWith(".jsonl")
                    ? DatasetWorkload.jsonl(file)
                    : DatasetWorkload.shareGpt(file, tokenizer, w.vllmFilters());
            return builder.tokenizer(tokenizer)
                    .defaultOutputTokens(w.outputTokens())
                    .shape(shape)
                    .build();
        }
        LengthDistribution input = lengths(
                w.inputLengths(), w.inputTokens(), w, "input", w.inputHistogramLengths(), w.inputHistogramWeights());
        LengthDistribution output = lengths(
                w.outputLengths(),
                w.outputTokens(),
                w,
                "output",
                w.outputHistogramLengths(),
                w.outputHistogramWeights());
        if (w.turns() > 1) {
            return ConversationWorkload.builder()
                    .turns(w.turns())
                    .userTokens(input)
                    .outputTokens(output)
                    .tokenizer(tokenizer)
                    .thinkTime(Duration.ofMillis(w.thinkTimeMillis()))
                    .shape(shape)
                    .seed(w.seed())
                    .build();
        }
        if (isPlainSynthetic(w)) {
            SyntheticWorkload.Builder builder = WorkloadSpec.synthetic()
                    .inputTokens(w.inputTokens())
                    .outputTokens(w.outputTokens())
                    .ignoreEos(w.ignoreEos())
                    .seed(w.seed());
            return switch (w.api()) {
                case CHAT -> builder.chat().build();
                case COMPLETIONS -> builder.completions().build();
            };
        }
        return RandomWorkload.builder()
                .inputTokens(input)
                .outputTokens(output)
                .tokenizer(tokenizer)
                .prefix(prefix(w))
                .shape(shape)
                .seed(w.seed())
                .build();
    }

    /** Replays the dataset's conversations as sessions of up to {@code turns} turns. */
    private static WorkloadSpec sessions(Workload w, Path file, PromptTokenizer tokenizer, RequestShape shape) {
        if (w.vllmFilters()) {
            throw new IllegalArgumentException("vllmFilters = true applies to single-turn ShareGPT prompts, not to"
                    + " conversations replayed as sessions (turns = " + w.turns() + ")");
        }
        if (w.outputTokens() != DEFAULT_OUTPUT_TOKENS) {
            throw new IllegalArgumentException("outputTokens = " + w.outputTokens() + " does not apply to conversations"
                    + " replayed as sessions (turns = " + w.turns() + "): each turn asks for the length of the"
                    + " dataset's reply to it");
        }
        return DatasetConversationWorkload.read(file)
                .tokenizer(tokenizer)
                .maxTurns(w.turns())
                .thinkTime(Duration.ofMillis(w.thinkTimeMillis()))
                .shape(shape)
                .build();
    }

    /** Reads the annotation's trace, rescaled as asked. */
    static Trace trace(Workload w) {
        Path file = path(w.trace());
        Trace trace;
        if (file.toString().endsWith(".jsonl")) {
            trace = Trace.mooncake(file);
        } else if (file.toString().endsWith(".csv")) {
            trace = firstLine(file).contains("TIMESTAMP") ? Trace.azure(file) : Trace.burstGpt(file);
        } else {
            throw new WorkloadFileException(file, 0, "a trace must be .jsonl (Mooncake) or .csv (Azure, BurstGPT)");
        }
        return w.traceRate() > 0 ? trace.atRate(w.traceRate()) : trace.timeScaled(w.timeScale());
    }

    private static boolean isPlainSynthetic(Workload w) {
        return w.inputLengths() == Workload.Lengths.FIXED
                && w.outputLengths() == Workload.Lengths.FIXED
                && tokenizerName(w.tokenizer()).equals("simulated")
                && w.prefix() == Workload.Prefix.COLD
                && !w.toolCalls();
    }

    private static String tokenizerName(String name) {
        return name.startsWith("hf:") ? "hf:" + path(name.substring(3)) : name;
    }

    private static LengthDistribution lengths(
            Workload.Lengths shape, int length, Workload w, String which, int[] lengths, double[] weights) {
        if (shape != Workload.Lengths.EMPIRICAL && (lengths.length > 0 || weights.length > 0)) {
            throw new IllegalArgumentException(which + "HistogramLengths and " + which + "HistogramWeights apply to "
                    + which + "Lengths = EMPIRICAL, not " + shape);
        }
        if (length < 1) {
            throw new IllegalArgumentException(which + "Tokens = " + length + " must be at least 1");
        }
        return switch (shape) {
            case FIXED -> LengthDistribution.fixed(length);
            case UNIFORM -> LengthDistribution.uniform(length, w.rangeRatio());
            case NORMAL -> LengthDistribution.normal(length, w.spread() * length, 1, 2 * length);
            case LOG_NORMAL -> LengthDistribution.logNormal(length, w.spread(), 1, 8 * length);
            case EMPIRICAL -> empirical(which, lengths, weights);
        };
    }

    private static LengthDistribution empirical(String which, int[] lengths, double[] weights) {
        if (lengths.length == 0 || lengths.length != weights.length) {
            throw new IllegalArgumentException(which + "Lengths = EMPIRICAL needs " + which + "HistogramLengths and "
                    + which + "HistogramWeights of the same, non-zero size (were " + lengths.length + " and "
                    + weights.length + ")");
        }
        java.util.Map<Integer, Double> histogram = new java.util.LinkedHashMap<>();
        for (int i = 0; i < lengths.length; i++) {
            if (histogram.put(lengths[i], weights[i]) != null) {
                throw new IllegalArgumentException(
                        which + "HistogramLengths lists " + lengths[i] + " twice; give each length once");
            }
        }
        return LengthDistribution.empirical(histogram);
    }

    private static PrefixPolicy prefix(Workload w) {
        return switch (w.prefix()) {
            case COLD -> PrefixPolicy.cold();
            case WARM -> PrefixPolicy.warm(w.prefixTokens(), w.prefixGroups());
            case MIX -> PrefixPolicy.mix(w.warmShare(), w.prefixTokens(), w.prefixGroups());
        };
    }

    static Path path(String name) {
        if (!name.startsWith("classpath:")) {
            return Path.of(name);
        }
        String resource = name.substring("classpath:".length());
        URL url = Thread.currentThread().getContextClassLoader().getResource(resource.replaceFirst("^/", ""));
        if (url == null) {
            throw new WorkloadFileException(Path.of(resource), 0, "no such resource on the class path");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new WorkloadFileException(Path.of(resource), 0, "not a file on the class path: " + url);
        }
    }

    private static String firstLine(Path file) {
        try (var lines = Files.lines(file)) {
            return lines.findFirst().orElse("");
        } catch (IOException | UncheckedIOException e) {
            throw new WorkloadFileException(file, 0, Files.exists(file) ? "cannot be read: " + e : "no such file");
        }
    }
}
