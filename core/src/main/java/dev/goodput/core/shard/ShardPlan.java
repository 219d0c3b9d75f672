package dev.goodput.core.shard;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.load.Shard;
import java.nio.file.Path;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What one shard of a run needs besides the run's spec: which share it sends, how it agrees on the start, and
 * where it writes what it measured ({@link Shards#run}).
 *
 * @param shard this generator's share
 * @param start how the shards agree on their start instant
 * @param output the directory this shard writes its output to (created if absent; must not already hold another
 *     run's output)
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record ShardPlan(Shard shard, ShardStart start, Path output) {

    public ShardPlan {
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(output, "output");
    }

    /**
     * Returns a plan that writes into {@code root/shard-<index>-of-<count>}, the layout {@link Shards#merge(
     * dev.goodput.core.RunSpec, Path)} reads.
     */
    public static ShardPlan under(Path root, Shard shard, ShardStart start) {
        return new ShardPlan(shard, start, root.resolve(directoryName(shard)));
    }

    /** Returns {@code shard-<index>-of-<count>}. */
    public static String directoryName(Shard shard) {
        return "shard-" + shard.index() + "-of-" + shard.count();
    }
}
