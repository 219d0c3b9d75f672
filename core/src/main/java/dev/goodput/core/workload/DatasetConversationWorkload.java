package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.workload.internal.ConversationFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * Multi-turn sessions replayed from a dataset of recorded conversations (ShareGPT {@code conversations: [{from,
 * value}]} or OpenAI {@code messages: [{role, content}]}, as a JSON array or JSONL). Each conversation is a
 * session; its turn {@code k} sends the leading system messages and the conversation up to its {@code k}-th user
 * message, with the dataset's own earlier replies as the history, and asks for as many output tokens as the
 * dataset's reply to that message has in the workload's tokenizer (within {@link Builder#outputTokensBetween}).
 *
 * <p>Session {@code s} replays conversation {@code s mod sessions()} in file order, or in a seeded shuffled order;
 * past the last conversation they repeat verbatim. In a closed loop each virtual user runs a session turn after
 * turn (see {@link SessionWorkload}). In an open loop the sessions' turns are laid out one after another: request
 * {@code i} is the next turn of the flattened sequence (all turns of session 0, then of session 1, ...), sent at
 * its arrival without waiting for the previous turn's reply, as {@link ConversationWorkload} does.
 *
 * <p>Items that are not usable conversations (no user message with a reply, speakers that do not take turns,
 * unknown roles) and conversations shorter than {@link Builder#minTurns} are skipped and counted in
 * {@link #describe()}; if none is left, {@link Builder#build()} fails naming the file.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class DatasetConversationWorkload implements SessionWorkload {

    /** A kept conversation: all its messages in order, and per turn the prompt and output lengths. */
    private record Session(List<ChatMessage> messages, int systemMessages, int[] promptTokens, int[] outputTokens) {}

    private final List<Session> sessions;
    private final long[] firstTurnOfSession;
    private final Map<String, Integer> skipped;
    private final PromptTokenizer tokenizer;
    private final RequestShape shape;
    private final Duration thinkTime;
    private final Map<String, Object> description = new LinkedHashMap<>();
    private final Map<Long, Integer> turnByIndex = new ConcurrentHashMap<>();

    private DatasetConversationWorkload(Builder builder, List<Session> sessions, Map<String, Integer> skipped) {
        this.sessions = List.copyOf(sessions);
        this.skipped = Collections.unmodifiableMap(new TreeMap<>(skipped));
        this.tokenizer = builder.tokenizer;
        this.shape = builder.shape;
        this.thinkTime = builder.thinkTime;
        this.firstTurnOfSession = new long[sessions.size() + 1];
        for (int s = 0; s < sessions.size(); s++) {
            firstTurnOfSession[s + 1] = firstTurnOfSession[s] + sessions.get(s).outputTokens().length;
        }
        description.put("type", "dataset_conversation");
        description.put("source", builder.file.toString());
        description.put("conversations", sessions.size());
        description.put("turns", firstTurnOfSession[sessions.size()]);
        description.put(
                "skipped", skipped.values().stream().mapToInt(Integer::intValue).sum());
        description.put("skipped_by_reason", this.skipped);
        description.putAll(shape.describe());
        description.put("tokenizer", tokenizer.name());
        description.put("min_turns", builder.minTurns);
        description.put("max_turns", builder.maxTurns);
        description.put("output_tokens_min", builder.minOutputTokens);
        description.put("output_tokens_max", builder.maxOutputTokens);
        description.put("think_time_ms", thinkTime.toMillis());
        description.put("shuffle", builder.shuffle);
        description.put("seed", builder.seed);
    }

    /**
     * Reads the conversations of a file now (a JSON array if it starts with {@code [}, JSONL otherwise).
     *
     * @throws WorkloadFileException naming the file and line of a syntax error, or a missing file
     */
    public static Builder read(Path file) {
        return new Builder(file, ConversationFiles.read(file));
    }

    /** Returns the number of conversations kept, the sessions before they repeat. */
    public int sessions() {
        return sessions.size();
    }

    /** Returns the number of items skipped, by reason (for example {@code not_alternating}). */
    public Map<String, Integer> skipped() {
        return skipped;
    }

    @Override
    public int turnsOf(long session) {
        return session(session).outputTokens().length;
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
        long total = firstTurnOfSession[sessions.size()];
        long position = index % total;
        int found = Arrays.binarySearch(firstTurnOfSession, position);
        // binarySearch gives the session starting exactly there, or -(insertion point) - 1 for one inside it.
        int session = found >= 0 ? found : -found - 2;
        long round = index / total;
        return request(index, round * sessions.size() + session, (int) (position - firstTurnOfSession[session]));
    }

    @Override
    public RequestSpec request(long index, long session, int turn) {
        Session replayed = session(session);
        int turns = replayed.outputTokens().length;
        if (turn < 0 || turn >= turns) {
            throw new IllegalArgumentException(
                    "turn of session " + session + " must be between 0 and " + (turns - 1) + ", was " + turn);
        }
        turnByIndex.put(index, turn + 1);
        List<ChatMessage> messages = replayed.messages().subList(0, replayed.systemMessages() + 2 * turn + 1);
        int output = replayed.outputTokens()[turn];
        if (shape.api() == ApiKind.COMPLETIONS) {
            String joined = messages.stream().map(ChatMessage::content).collect(Collectors.joining("\n"));
            return shape.request(joined, tokenizer.count(joined), output);
        }
        return shape.request(messages, replayed.promptTokens()[turn], output);
    }

    @Override
    public int turnOf(long index) {
        return turnByIndex.getOrDefault(index, 0);
    }

    private Session session(long session) {
        if (session < 0) {
            throw new IllegalArgumentException("session must be at least 0, was " + session);
        }
        return sessions.get((int) (session % sessions.size()));
    }

    @Override
    public Map<String, Object> describe() {
        return new LinkedHashMap<>(description);
    }

    /** Builds a {@link DatasetConversationWorkload} from the conversations read. */
    public static final class Builder {
        private final Path file;
        private final ConversationFiles.Read read;
        private PromptTokenizer tokenizer = PromptTokenizer.simulated();
        private int maxTurns = Integer.MAX_VALUE;
        private int minTurns = 1;
        private int minOutputTokens = 1;
        private int maxOutputTokens = Integer.MAX_VALUE;
        private Duration thinkTime = Duration.ZERO;
        private RequestShape shape = RequestShape.DEFAULT;
        private boolean shuffle;
        private long seed;

        private Builder(Path file, ConversationFiles.Read read) {
            this.file = file;
            this.read = read;
        }

        /** Sets the tokenizer that counts prompts and the replies' output lengths (default simulated). */
        public Builder tokenizer(PromptTokenizer value) {
            this.tokenizer = Objects.requireNonNull(value, "tokenizer");
            return this;
        }

        /** Replays at most this many turns of each conversation, the first ones (default all). */
        public Builder maxTurns(int value) {
            LengthDistribution.requireAtLeastOne("maxTurns", value);
            this.maxTurns = value;
            return this;
        }

        /** Skips conversations with fewer answered user turns than this (default 1, every conversation). */
        public Builder minTurns(int value) {
            LengthDistribution.requireAtLeastOne("minTurns", value);
            this.minTurns = value;
            return this;
        }

        /** Raises each turn's output length to {@code min} and lowers it to {@code max} (default 1 and no cap). */
        public Builder outputTokensBetween(int min, int max) {
            LengthDistribution.requireAtLeastOne("outputTokensBetween min", min);
            if (max < min) {
                throw InvalidSettingException.of("outputTokensBetween max", max, "must be at least min (" + min + ")");
            }
            this.minOutputTokens = min;
            this.maxOutputTokens = max;
            return this;
        }

        /** Sets the pause between a reply and the session's next turn in a closed loop (default 0). */
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

        /** Replays the conversations in an order shuffled with {@code seed} instead of file order. */
        public Builder shuffle(long seed) {
            this.shuffle = true;
            this.seed = seed;
            return this;
        }

        /**
         * Returns the workload.
         *
         * @throws WorkloadFileException naming the file if no conversation is left to replay
         */
        public DatasetConversationWorkload build() {
            if (minTurns > maxTurns) {
                throw InvalidSettingException.conflict(
                        name -> name.apply("minTurns") + " (" + minTurns + ") must not exceed " + name.apply("maxTurns")
                                + " (" + maxTurns + ")",
                        "minTurns",
                        "maxTurns");
            }
            Map<String, Integer> skipped = new TreeMap<>(read.skipped());
            List<Session> sessions = new ArrayList<>();
            for (ConversationFiles.Conversation conversation : read.conversations()) {
                if (conversation.users().size() < minTurns) {
                    skipped.merge("fewer_than_min_turns", 1, Integer::sum);
                } else {
                    sessions.add(session(conversation));
                }
            }
            if (sessions.isEmpty()) {
                throw new WorkloadFileException(
                        file,
                        0,
                        "holds no conversation to replay as a session (skipped: "
                                + (skipped.isEmpty() ? "none, the file has no item" : skipped) + ")");
            }
            if (shuffle) {
                Collections.shuffle(sessions, new Random(seed));
            }
            return new DatasetConversationWorkload(this, sessions, skipped);
        }

        private Session session(ConversationFiles.Conversation conversation) {
            int turns = Math.min(conversation.users().size(), maxTurns);
            List<ChatMessage> messages = new ArrayList<>(conversation.system());
            int history = conversation.system().stream()
                    .mapToInt(m -> tokenizer.count(m.content()))
                    .sum();
            int[] prompts = new int[turns];
            int[] outputs = new int[turns];
            for (int t = 0; t < turns; t++) {
                ChatMessage user = conversation.users().get(t);
                ChatMessage reply = conversation.replies().get(t);
                history += tokenizer.count(user.content());
                prompts[t] = history;
                int replied = tokenizer.count(reply.content());
                outputs[t] = Math.max(minOutputTokens, Math.min(maxOutputTokens, replied));
                history += replied;
                messages.add(user);
                messages.add(reply);
            }
            return new Session(List.copyOf(messages), conversation.system().size(), prompts, outputs);
        }
    }
}
