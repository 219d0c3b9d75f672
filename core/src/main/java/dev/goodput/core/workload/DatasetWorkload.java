package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.workload.internal.DatasetFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * Prompts from a dataset, sent in order and cycled when the run asks for more: request {@code i} is entry
 * {@code i mod size}. Entries without an output length ask for the default. The client's prompt count is the
 * tokenizer's count of the prompt or of the messages' text.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class DatasetWorkload implements WorkloadSpec {

    private final String source;
    private final List<DatasetEntry> entries;
    private final PromptTokenizer tokenizer;
    private final int defaultOutputTokens;
    private final RequestShape shape;

    private DatasetWorkload(Builder builder) {
        this.source = builder.source;
        this.entries = builder.entries;
        this.tokenizer = builder.tokenizer;
        this.defaultOutputTokens = builder.defaultOutputTokens;
        this.shape = builder.shape;
    }

    /** Entries given in code, in order; iterated once, now. */
    public static Builder of(Iterable<DatasetEntry> entries) {
        List<DatasetEntry> list = new ArrayList<>();
        entries.forEach(entry -> list.add(Objects.requireNonNull(entry, "dataset entry")));
        return new Builder("code", list);
    }

    /**
     * ShareGPT JSON (an array of {@code {conversations: [{from, value}]}}): the first human turn is the prompt and
     * the reply's length in the tokenizer's tokens the output length; entries without a reply are skipped. With
     * {@code vllmFilters}, vLLM's pruning too: prompt or reply under 4 tokens, prompt over 1,024, or both over
     * 2,048. {@link DatasetConversationWorkload} replays every turn of such conversations as sessions instead.
     *
     * @throws WorkloadFileException naming the file, line and field
     */
    public static Builder shareGpt(Path file, PromptTokenizer tokenizer, boolean vllmFilters) {
        return new Builder("sharegpt:" + file, DatasetFiles.shareGpt(file, tokenizer, vllmFilters))
                .tokenizer(tokenizer);
    }

    /**
     * JSONL: one object per line with {@code prompt} (a string) or {@code messages} (an array of {@code {role,
     * content}}), and optional {@code output_tokens}.
     *
     * @throws WorkloadFileException naming the file, line and field
     */
    public static Builder jsonl(Path file) {
        return new Builder("jsonl:" + file, DatasetFiles.jsonl(file));
    }

    /** Returns the number of entries. */
    public int size() {
        return entries.size();
    }

    @Override
    public RequestSpec request(long index) {
        if (index < 0) {
            throw new IllegalArgumentException("index must be at least 0, was " + index);
        }
        DatasetEntry entry = entries.get((int) (index % entries.size()));
        int output = entry.outputTokens() > 0 ? entry.outputTokens() : defaultOutputTokens;
        if (entry.prompt() != null) {
            return shape.request(entry.prompt(), tokenizer.count(entry.prompt()), output);
        }
        if (shape.api() == ApiKind.COMPLETIONS) {
            String joined = entry.messages().stream().map(ChatMessage::content).collect(Collectors.joining("\n"));
            return shape.request(joined, tokenizer.count(joined), output);
        }
        int counted = entry.messages().stream()
                .mapToInt(m -> tokenizer.count(m.content()))
                .sum();
        return shape.request(entry.messages(), counted, output);
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("type", "dataset");
        description.put("source", source);
        description.put("entries", entries.size());
        description.putAll(shape.describe());
        description.put("tokenizer", tokenizer.name());
        description.put("default_output_tokens", defaultOutputTokens);
        return description;
    }

    /** Builds a {@link DatasetWorkload}. */
    public static final class Builder {
        private final String source;
        private final List<DatasetEntry> entries;
        private PromptTokenizer tokenizer = PromptTokenizer.simulated();
        private int defaultOutputTokens = 128;
        private RequestShape shape = RequestShape.DEFAULT;

        private Builder(String source, List<DatasetEntry> entries) {
            if (entries.isEmpty()) {
                throw new IllegalArgumentException("dataset " + source + " holds no entry");
            }
            this.source = source;
            this.entries = List.copyOf(entries);
        }

        /** Sets the tokenizer of the client's prompt counts (default simulated). */
        public Builder tokenizer(PromptTokenizer value) {
            this.tokenizer = Objects.requireNonNull(value, "tokenizer");
            return this;
        }

        /** Sets the output length of entries without one (default 128). */
        public Builder defaultOutputTokens(int value) {
            LengthDistribution.requireAtLeastOne("defaultOutputTokens", value);
            this.defaultOutputTokens = value;
            return this;
        }

        /** Sets endpoint, {@code ignore_eos} and temperature (default {@link RequestShape#DEFAULT}). */
        public Builder shape(RequestShape value) {
            this.shape = Objects.requireNonNull(value, "shape");
            return this;
        }

        /** Returns the workload. */
        public DatasetWorkload build() {
            return new DatasetWorkload(this);
        }
    }
}
