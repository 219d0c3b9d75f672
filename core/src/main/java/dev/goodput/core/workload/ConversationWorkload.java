package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * Multi-turn chat sessions. In a closed loop ({@link dev.goodput.core.load.Load#concurrency(int)}) each
 * virtual user runs one session at a time: it sends turn 1, waits for the reply and the think time, sends turn
 * 2 carrying the whole history (earlier user messages and replies of the asked length), and so on; after the
 * last turn it starts a new session after the profile's think time. The history of a session is the same text
 * on every turn, so a prefix cache can reuse it. In an open loop, request {@code i} is turn {@code i mod turns}
 * of session {@code i / turns}, sent at its arrival without waiting for the previous turn.
 *
 * <p>Replies in the history are synthesised (the server's real replies are not kept), as AIPerf and GuideLLM
 * do; {@link DatasetConversationWorkload} replays recorded conversations instead.
 * {@link dev.goodput.core.result.TurnResults#split} splits a run's metrics by turn. An instance remembers the
 * turns of the requests it built: use one instance per run.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ConversationWorkload implements SessionWorkload {

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final int turns;
    private final LengthDistribution userTokens;
    private final LengthDistribution outputTokens;
    private final PromptTokenizer tokenizer;
    private final Duration thinkTime;
    private final RequestShape shape;
    private final long seed;
    private final Map<Long, Integer> turnByIndex = new ConcurrentHashMap<>();

    private ConversationWorkload(Builder builder) {
        this.turns = builder.turns;
        this.userTokens = builder.userTokens;
        this.outputTokens = builder.outputTokens;
        this.tokenizer = builder.tokenizer;
        this.thinkTime = builder.thinkTime;
        this.shape = builder.shape;
        this.seed = builder.seed;
    }

    /** Starts a builder: 3 turns of 64 user and 64 output tokens, no think time, simulated tokenizer, seed 0. */
    public static Builder builder() {
        return new Builder();
    }

    /** Returns the number of turns per session. */
    public int turns() {
        return turns;
    }

    /** Returns {@link #turns()}: every session has the same number of turns. */
    @Override
    public int turnsOf(long session) {
        return turns;
    }

    @Override
    public Duration thinkTime() {
        return thinkTime;
    }

    @Override
    public RequestSpec request(long index) {
        if (index < 0) {
            throw new IllegalArgumentException("index must be at least 0, was " + index);
        }
        return request(index, index / turns, (int) (index % turns));
    }

    @Override
    public RequestSpec request(long index, long session, int turn) {
        if (turn < 0 || turn >= turns) {
            throw new IllegalArgumentException("turn must be between 0 and " + (turns - 1) + ", was " + turn);
        }
        turnByIndex.put(index, turn + 1);
        List<ChatMessage> messages = new ArrayList<>();
        int counted = 0;
        int asked = 0;
        for (int t = 0; t <= turn; t++) {
            SplittableRandom random =
                    new SplittableRandom(seed ^ (session * GOLDEN) ^ ((t + 1L) * 0xBF58476D1CE4E5B9L));
            int user = userTokens.sample(random);
            asked = outputTokens.sample(random);
            String salt = t == 0 ? "#" + Long.toString(session, 36) : "";
            String text = tokenizer.extend(tokenizer.count(salt) < user ? salt : "", random, user);
            messages.add(ChatMessage.user(text));
            counted += user;
            if (t < turn) {
                messages.add(new ChatMessage("assistant", tokenizer.extend("", random, asked)));
                counted += asked;
            }
        }
        if (shape.api() == ApiKind.COMPLETIONS) {
            String joined = messages.stream().map(ChatMessage::content).collect(Collectors.joining("\n"));
            return shape.request(joined, tokenizer.count(joined), asked);
        }
        return shape.request(messages, counted, asked);
    }

    @Override
    public int turnOf(long index) {
        return turnByIndex.getOrDefault(index, 0);
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("type", "conversation");
        description.putAll(shape.describe());
        description.put("turns", turns);
        description.put("tokenizer", tokenizer.name());
        description.put("user_tokens", userTokens.describe());
        description.put("output_tokens", outputTokens.describe());
        description.put("think_time_ms", thinkTime.toMillis());
        description.put("seed", seed);
        return description;
    }

    /** Builds a {@link ConversationWorkload}. */
    public static final class Builder {
        private int turns = 3;
        private LengthDistribution userTokens = LengthDistribution.fixed(64);
        private LengthDistribution outputTokens = LengthDistribution.fixed(64);
        private PromptTokenizer tokenizer = PromptTokenizer.simulated();
        private Duration thinkTime = Duration.ZERO;
        private RequestShape shape = RequestShape.DEFAULT;
        private long seed;

        private Builder() {}

        /** Sets the turns per session, at least 1 (default 3). */
        public Builder turns(int value) {
            LengthDistribution.requireAtLeastOne("turns", value);
            this.turns = value;
            return this;
        }

        /** Sets the length of each new user message (default fixed 64). */
        public Builder userTokens(LengthDistribution value) {
            this.userTokens = Objects.requireNonNull(value, "userTokens");
            return this;
        }

        /** Sets the output length of each turn, also the length of its reply in later turns' history. */
        public Builder outputTokens(LengthDistribution value) {
            this.outputTokens = Objects.requireNonNull(value, "outputTokens");
            return this;
        }

        /** Sets the tokenizer that counts messages (default simulated). */
        public Builder tokenizer(PromptTokenizer value) {
            this.tokenizer = Objects.requireNonNull(value, "tokenizer");
            return this;
        }

        /** Sets the pause between a reply and the next turn in a closed loop (default 0). */
        public Builder thinkTime(Duration value) {
            if (value == null || value.isNegative()) {
                throw InvalidSettingException.of("thinkTime", value, "must be at least 0");
            }
            this.thinkTime = value;
            return this;
        }

        /** Sets endpoint, {@code ignore_eos} and temperature (default {@link RequestShape#DEFAULT}). */
        public Builder shape(RequestShape value) {
            this.shape = Objects.requireNonNull(value, "shape");
            return this;
        }

        /** Sets the seed (default 0). */
        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        /** Returns the workload. */
        public ConversationWorkload build() {
            return new ConversationWorkload(this);
        }
    }
}
