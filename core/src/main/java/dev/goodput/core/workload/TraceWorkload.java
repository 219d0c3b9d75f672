package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * Replays a {@link Trace}: request {@code i} starts at the trace's offset {@code i} with its prompt and output
 * lengths. Prompts are synthesised as AIPerf does for Mooncake: each hash id stands for a block of {@code
 * blockTokens} tokens whose text depends only on the ids up to it, so requests with equal leading ids share
 * their prefix exactly; prompts without ids start with a unique salt (cold). Run it with {@link Trace#load()}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class TraceWorkload implements TimedWorkload {

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final Trace trace;
    private final PromptTokenizer tokenizer;
    private final int blockTokens;
    private final RequestShape shape;
    private final long seed;

    private TraceWorkload(Builder builder) {
        this.trace = builder.trace;
        this.tokenizer = builder.tokenizer;
        this.blockTokens = builder.blockTokens;
        this.shape = builder.shape;
        this.seed = builder.seed;
    }

    /** Starts a builder: simulated tokenizer, 512 tokens per hash id, chat, seed 0. */
    public static Builder builder(Trace trace) {
        return new Builder(trace);
    }

    @Override
    public long size() {
        return trace.requests().size();
    }

    @Override
    public long arrivalOffsetNanos(long index) {
        return entry(index).offsetNanos();
    }

    @Override
    public RequestSpec request(long index) {
        TraceRequest entry = entry(index);
        String text = "";
        long chain = seed;
        List<Long> ids = entry.hashIds();
        for (int block = 0; block < ids.size(); block++) {
            int upTo = (int) Math.min((long) (block + 1) * blockTokens, entry.inputTokens());
            if (upTo <= tokenizer.count(text)) {
                break;
            }
            chain = chain * 31 + ids.get(block);
            text = tokenizer.extend(text, new SplittableRandom(chain * GOLDEN), upTo);
        }
        if (ids.isEmpty()) {
            String salt = "#" + Long.toString(index, 36) + "/" + Long.toString(seed & 0xFFFF, 36);
            text = tokenizer.count(salt) < entry.inputTokens() ? salt : "";
        }
        String prompt = tokenizer.extend(text, new SplittableRandom(seed ^ (index * GOLDEN)), entry.inputTokens());
        return shape.request(prompt, entry.inputTokens(), entry.outputTokens());
    }

    private TraceRequest entry(long index) {
        if (index < 0 || index >= size()) {
            throw new IllegalArgumentException("index must be between 0 and " + (size() - 1) + ", was " + index);
        }
        return trace.requests().get((int) index);
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("type", "trace");
        description.putAll(trace.describe());
        description.putAll(shape.describe());
        description.put("tokenizer", tokenizer.name());
        description.put("block_tokens", blockTokens);
        description.put("seed", seed);
        return description;
    }

    /** Builds a {@link TraceWorkload}. */
    public static final class Builder {
        private final Trace trace;
        private PromptTokenizer tokenizer = PromptTokenizer.simulated();
        private int blockTokens = 512;
        private RequestShape shape = RequestShape.DEFAULT;
        private long seed;

        private Builder(Trace trace) {
            this.trace = Objects.requireNonNull(trace, "trace");
        }

        /** Sets the tokenizer that counts prompts (default simulated). */
        public Builder tokenizer(PromptTokenizer value) {
            this.tokenizer = Objects.requireNonNull(value, "tokenizer");
            return this;
        }

        /** Sets the tokens per hash id (default 512, Mooncake's block size). */
        public Builder blockTokens(int value) {
            LengthDistribution.requireAtLeastOne("blockTokens", value);
            this.blockTokens = value;
            return this;
        }

        /** Sets endpoint, {@code ignore_eos} and temperature (default {@link RequestShape#DEFAULT}). */
        public Builder shape(RequestShape value) {
            this.shape = Objects.requireNonNull(value, "shape");
            return this;
        }

        /** Sets the seed of the synthesised words (default 0). */
        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        /** Returns the workload. */
        public TraceWorkload build() {
            return new TraceWorkload(this);
        }
    }
}
