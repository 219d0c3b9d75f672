package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.internal.WordList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * A synthetic workload: every request has the same prompt length and output length; prompts are words drawn
 * from a fixed list with a seed, so the same seed gives the same prompts on every run.
 *
 * <p>The prompt of {@code inputTokens} words is exactly {@code inputTokens} tokens under the simulated
 * server's rule (a token is a run of non-whitespace characters); that count is recorded as the client's
 * prompt token count. A chat server adds its template's tokens to {@code usage.prompt_tokens}, so for chat
 * the server's count is larger and the result reports the difference. Real tokenizers count differently;
 * prompts with exact counts for a named tokenizer are a separate feature.
 *
 * <p>Defaults follow vLLM's benchmark recipe: {@code ignore_eos: true} and {@code temperature: 0}, so the
 * output length is pinned to {@code outputTokens} on servers that honour {@code ignore_eos}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class SyntheticWorkload implements WorkloadSpec {

    private final ApiKind api;
    private final int inputTokens;
    private final int outputTokens;
    private final long seed;
    private final boolean ignoreEos;
    private final double temperature;

    private SyntheticWorkload(Builder builder) {
        this.api = builder.api;
        this.inputTokens = builder.inputTokens;
        this.outputTokens = builder.outputTokens;
        this.seed = builder.seed;
        this.ignoreEos = builder.ignoreEos;
        this.temperature = builder.temperature;
    }

    static Builder builder() {
        return new Builder();
    }

    @Override
    public RequestSpec request(long index) {
        if (index < 0) {
            throw new IllegalArgumentException("index must be at least 0, was " + index);
        }
        SplittableRandom random = new SplittableRandom(seed ^ (index * 0x9E3779B97F4A7C15L));
        String prompt = WordList.randomWords(random, inputTokens);
        RequestSpec spec = api == ApiKind.CHAT
                ? RequestSpec.chat(List.of(ChatMessage.user(prompt)), outputTokens)
                : RequestSpec.completion(prompt, outputTokens);
        return spec.withIgnoreEos(ignoreEos).withTemperature(temperature).withPromptTokens(inputTokens);
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("type", "synthetic");
        description.put("api", api.name());
        description.put("input_tokens", inputTokens);
        description.put("output_tokens", outputTokens);
        description.put("seed", seed);
        description.put("ignore_eos", ignoreEos);
        description.put("temperature", temperature);
        return description;
    }

    /** Returns the prompt length in words (tokens under the simulated server's rule). */
    public int inputTokens() {
        return inputTokens;
    }

    /** Returns the requested output length. */
    public int outputTokens() {
        return outputTokens;
    }

    /** Builds a {@link SyntheticWorkload}; every setter validates its value at once. */
    public static final class Builder {
        private ApiKind api = ApiKind.CHAT;
        private int inputTokens = 256;
        private int outputTokens = 128;
        private long seed = 0;
        private boolean ignoreEos = true;
        private double temperature = 0.0;

        private Builder() {}

        /** Sets the prompt length in tokens (default 256). */
        public Builder inputTokens(int value) {
            if (value < 1) {
                throw InvalidSettingException.of("inputTokens", value, "must be at least 1");
            }
            this.inputTokens = value;
            return this;
        }

        /** Sets the output length, sent as {@code max_tokens} (default 128). */
        public Builder outputTokens(int value) {
            if (value < 1) {
                throw InvalidSettingException.of("outputTokens", value, "must be at least 1");
            }
            this.outputTokens = value;
            return this;
        }

        /** Sets the seed of the prompt words (default 0). */
        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        /** Sends chat completions (the default). */
        public Builder chat() {
            this.api = ApiKind.CHAT;
            return this;
        }

        /** Sends plain completions. */
        public Builder completions() {
            this.api = ApiKind.COMPLETIONS;
            return this;
        }

        /** Sets {@code ignore_eos} (default true, which pins the output length). */
        public Builder ignoreEos(boolean value) {
            this.ignoreEos = value;
            return this;
        }

        /** Sets {@code temperature} (default 0). */
        public Builder temperature(double value) {
            if (!(value >= 0)) {
                throw InvalidSettingException.of("temperature", value, "must be at least 0");
            }
            this.temperature = value;
            return this;
        }

        /** Returns the workload. */
        public SyntheticWorkload build() {
            return new SyntheticWorkload(this);
        }
    }
}
