package dev.goodput.junit;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.load.Shard;
import dev.goodput.core.shard.ShardStart;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The configuration parameters of sharded runs (docs/distributed.md): as a shard ({@link #SHARD_INDEX} and {@link
 * #SHARD_COUNT}, with {@link #SHARD_OUTPUT} and a start) a gate sends its share of the load and writes it out; with
 * {@link #SHARD_MERGE} it sends nothing and judges the merge of the shards' outputs.
 *
 * @param mode whether this process is a shard, the merge, or neither
 * @param shard the share, when a shard
 * @param start how the shards agree on their start, when a shard
 * @param root the shard outputs' root: written to as a shard, read from as the merge
 */
record ShardSettings(Mode mode, Shard shard, ShardStart start, Path root) {

    static final String SHARD_INDEX = "goodput.shard.index";
    static final String SHARD_COUNT = "goodput.shard.count";
    static final String SHARD_OUTPUT = "goodput.shard.output";
    static final String SHARD_BARRIER = "goodput.shard.barrier";
    static final String SHARD_START_AT = "goodput.shard.start-at";
    static final String SHARD_MERGE = "goodput.shard.merge";

    /** Where shards write when {@link #SHARD_OUTPUT} is unset, relative to the working directory. */
    static final String DEFAULT_OUTPUT = "target/goodput-shards";

    static final Set<String> KEYS =
            Set.of(SHARD_INDEX, SHARD_COUNT, SHARD_OUTPUT, SHARD_BARRIER, SHARD_START_AT, SHARD_MERGE);

    /** What this process does with a gate. */
    enum Mode {
        /** An ordinary run of the whole load. */
        WHOLE,
        /** One shard's share, written out, not judged. */
        SHARD,
        /** No load: the shards' outputs merged and judged. */
        MERGE
    }

    private static final ShardSettings WHOLE = new ShardSettings(Mode.WHOLE, Shard.WHOLE, null, null);

    boolean isShard() {
        return mode == Mode.SHARD;
    }

    boolean isMerge() {
        return mode == Mode.MERGE;
    }

    static ShardSettings from(ExtensionContext context) {
        Optional<String> index = GoodputConfiguration.parameter(context, SHARD_INDEX);
        Optional<String> count = GoodputConfiguration.parameter(context, SHARD_COUNT);
        Optional<String> output = GoodputConfiguration.parameter(context, SHARD_OUTPUT);
        Optional<String> barrier = GoodputConfiguration.parameter(context, SHARD_BARRIER);
        Optional<String> startAt = GoodputConfiguration.parameter(context, SHARD_START_AT);
        Optional<String> merge = GoodputConfiguration.parameter(context, SHARD_MERGE);
        if (merge.isPresent()) {
            for (String key : new String[] {SHARD_INDEX, SHARD_COUNT, SHARD_OUTPUT, SHARD_BARRIER, SHARD_START_AT}) {
                GoodputConfiguration.parameter(context, key).ifPresent(value -> {
                    throw new ExtensionConfigurationException("configuration parameter " + SHARD_MERGE + " = '"
                            + merge.get() + "' merges shards' outputs and sends no load, so " + key + " = '" + value
                            + "' has nothing to apply to; run the shards and the merge as separate steps");
                });
            }
            return new ShardSettings(Mode.MERGE, null, null, Path.of(merge.get()));
        }
        if (index.isEmpty() && count.isEmpty()) {
            needsShard(SHARD_OUTPUT, output);
            needsShard(SHARD_BARRIER, barrier);
            needsShard(SHARD_START_AT, startAt);
            return WHOLE;
        }
        if (index.isEmpty() || count.isEmpty()) {
            String given = index.isPresent() ? SHARD_INDEX : SHARD_COUNT;
            String missing = index.isPresent() ? SHARD_COUNT : SHARD_INDEX;
            throw new ExtensionConfigurationException("configuration parameter " + given + " = '"
                    + index.or(() -> count).get() + "' needs " + missing + ": a shard is one of a number of them");
        }
        Shard shard;
        try {
            shard = Shard.of(integer(SHARD_INDEX, index.get()), integer(SHARD_COUNT, count.get()));
        } catch (InvalidSettingException e) {
            throw new ExtensionConfigurationException("configuration parameters " + SHARD_INDEX + " = '" + index.get()
                    + "' and " + SHARD_COUNT + " = '" + count.get() + "': " + e.getMessage());
        }
        return new ShardSettings(
                Mode.SHARD, shard, start(shard, barrier, startAt), Path.of(output.orElse(DEFAULT_OUTPUT)));
    }

    private static ShardStart start(Shard shard, Optional<String> barrier, Optional<String> startAt) {
        if (barrier.isPresent() && startAt.isPresent()) {
            throw new ExtensionConfigurationException("configuration parameters " + SHARD_BARRIER + " = '"
                    + barrier.get() + "' and " + SHARD_START_AT + " = '" + startAt.get()
                    + "' both say when to start; set one");
        }
        if (barrier.isPresent()) {
            try {
                return ShardStart.barrier(barrier.get());
            } catch (InvalidSettingException e) {
                throw new ExtensionConfigurationException("configuration parameter " + SHARD_BARRIER + " = '"
                        + barrier.get() + "' " + e.requirement() + " (shard 0's host:port)");
            }
        }
        if (startAt.isPresent()) {
            try {
                return ShardStart.at(Instant.parse(startAt.get()));
            } catch (DateTimeParseException e) {
                throw new ExtensionConfigurationException("configuration parameter " + SHARD_START_AT + " = '"
                        + startAt.get() + "' is not an ISO-8601 instant such as 2026-11-25T06:00:00Z");
            }
        }
        if (shard.isWhole()) {
            return ShardStart.immediately();
        }
        throw new ExtensionConfigurationException("configuration parameters " + SHARD_INDEX + " and " + SHARD_COUNT
                + " make this " + shard + ", which needs " + SHARD_BARRIER + " (shard 0's host:port) or "
                + SHARD_START_AT + " (an instant) so that all shards start their schedule together");
    }

    private static void needsShard(String key, Optional<String> value) {
        if (value.isPresent()) {
            throw new ExtensionConfigurationException("configuration parameter " + key + " = '" + value.get()
                    + "' applies to shards only; set " + SHARD_INDEX + " and " + SHARD_COUNT + " too, or remove it");
        }
    }

    private static int integer(String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new ExtensionConfigurationException(
                    "configuration parameter " + key + " = '" + value + "' is not a whole number");
        }
    }
}
