package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.apiguardian.api.API;

/**
 * Synthetic prompts whose lengths follow distributions, counted exactly by a named tokenizer, sharing prefixes
 * as a {@link PrefixPolicy} says (vLLM's {@code random} and {@code prefix_repetition} datasets in one). Request
 * {@code i} depends only on the seed and {@code i}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class RandomWorkload implements WorkloadSpec {

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final LengthDistribution input;
    private final LengthDistribution output;
    private final PromptTokenizer tokenizer;
    private final PrefixPolicy prefix;
    private final RequestShape shape;
    private final long seed;
    private final Map<Integer, String> sharedPrefixes = new ConcurrentHashMap<>();

    private RandomWorkload(Builder builder) {
        this.input = builder.input;
        this.output = builder.output;
        this.tokenizer = builder.tokenizer;
        this.prefix = builder.prefix;
        this.shape = builder.shape;
        this.seed = builder.seed;
    }

    /** Starts a builder: defaults 256 input and 128 output tokens, simulated tokenizer, cold, seed 0. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public RequestSpec request(long index) {
        if (index < 0) {
            throw new IllegalArgumentException("index must be at least 0, was " + index);
        }
        SplittableRandom random = new SplittableRandom(seed ^ (index * GOLDEN));
        int inputTokens = input.sample(random);
        int outputTokens = output.sample(random);
        boolean warm = prefix.warmShare() > 0 && random.nextDouble() < prefix.warmShare();
        String start;
        if (warm) {
            int group = (int) (index % prefix.groups());
            start = sharedPrefixes.computeIfAbsent(group, this::sharedPrefix);
        } else {
            String salt = "#" + Long.toString(index, 36) + "/" + Long.toString(seed & 0xFFFF, 36);
            start = tokenizer.count(salt) < inputTokens ? salt : "";
        }
        String prompt = tokenizer.extend(start, random, inputTokens);
        return shape.request(prompt, inputTokens, outputTokens);
    }

    private String sharedPrefix(int group) {
        return tokenizer.extend("", new SplittableRandom(~seed ^ (group * GOLDEN)), prefix.prefixTokens());
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("type", "random");
        description.putAll(shape.describe());
        description.put("tokenizer", tokenizer.name());
        description.put("input_tokens", input.describe());
        description.put("output_tokens", output.describe());
        description.put("prefix", prefix.describe());
        description.put("seed", seed);
        return description;
    }

    /** Builds a {@link RandomWorkload}; {@link #build()} checks the settings together. */
    public static final class Builder {
        private LengthDistribution input = LengthDistribution.fixed(256);
        private LengthDistribution output = LengthDistribution.fixed(128);
        private PromptTokenizer tokenizer = PromptTokenizer.simulated();
        private PrefixPolicy prefix = PrefixPolicy.cold();
        private RequestShape shape = RequestShape.DEFAULT;
        private long seed;

        private Builder() {}

        /** Sets the prompt length distribution in tokens of the tokenizer (default fixed 256). */
        public Builder inputTokens(LengthDistribution value) {
            this.input = Objects.requireNonNull(value, "inputTokens");
            return this;
        }

        /** Sets the output length distribution, sent as {@code max_tokens} (default fixed 128). */
        public Builder outputTokens(LengthDistribution value) {
            this.output = Objects.requireNonNull(value, "outputTokens");
            return this;
        }

        /** Sets the tokenizer that counts prompts (default {@link PromptTokenizer#simulated()}). */
        public Builder tokenizer(PromptTokenizer value) {
            this.tokenizer = Objects.requireNonNull(value, "tokenizer");
            return this;
        }

        /** Sets how prompts share prefixes (default {@link PrefixPolicy#cold()}). */
        public Builder prefix(PrefixPolicy value) {
            this.prefix = Objects.requireNonNull(value, "prefix");
            return this;
        }

        /** Sets endpoint, {@code ignore_eos} and temperature (default {@link RequestShape#DEFAULT}). */
        public Builder shape(RequestShape value) {
            this.shape = Objects.requireNonNull(value, "shape");
            return this;
        }

        /** Sets the seed of lengths, prefixes and words (default 0). */
        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        /**
         * Returns the workload.
         *
         * @throws InvalidSettingException if a warm prefix does not leave every prompt a token of its own
         */
        public RandomWorkload build() {
            if (prefix.warmShare() > 0 && input.min() <= prefix.prefixTokens()) {
                throw InvalidSettingException.conflict(
                        name -> name.apply("prefix") + " of " + prefix.prefixTokens()
                                + " tokens leaves no own token to the shortest prompt: " + name.apply("inputTokens")
                                + " can be as short as " + input.min() + "; make every prompt longer than the prefix",
                        "prefix",
                        "inputTokens");
            }
            return new RandomWorkload(this);
        }
    }
}
