package dev.goodput.core.shard;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.RunSpec;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.shard.internal.ShardMerge;
import dev.goodput.core.shard.internal.ShardRunner;
import java.nio.file.Path;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Runs one shard of a run, and merges the shards' outputs into one result.
 *
 * <pre>{@code
 * // On each of N machines, the same spec:
 * Shards.run(spec, ShardPlan.under(Path.of("/results"), Shard.of(index, n), ShardStart.barrier("gen-0.gen:7311")));
 * // Then once, anywhere that sees /results:
 * MergedRun merged = Shards.merge(spec, Path.of("/results"));
 * }</pre>
 *
 * <p>The merged result equals what one generator would have computed from the same requests: the shards write their
 * request records and HdrHistogram logs, never summaries, and the merge computes every figure from them. The
 * objectives are the merging spec's; server-side objectives are refused (shards do not carry the server's metrics).
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class Shards {

    private Shards() {}

    /**
     * Runs {@code plan}'s share of {@code spec}: the sample-size check (of the whole run) and preflight as {@link
     * dev.goodput.core.Goodput#run(RunSpec)} makes them, then the agreed start, the share, and the output written to
     * {@code plan.output()}. Only shard 0 scrapes the server's metrics.
     *
     * @return this shard's own result, covering its share alone; judge the merge, not this
     * @throws dev.goodput.core.InvalidSettingException if the load cannot be split into that many shares (fewer
     *     users, concurrency slots or requests than shards) or an objective is server-side; nothing was sent
     * @throws IllegalStateException if the barrier timed out, the output directory already holds an output, or the
     *     thread was interrupted
     */
    public static RunResult run(RunSpec spec, ShardPlan plan) {
        return ShardRunner.run(spec, plan);
    }

    /** Merges the shard outputs under {@code root} (its {@code shard-<index>-of-<count>} directories). */
    public static MergedRun merge(RunSpec spec, Path root) {
        return merge(spec, ShardMerge.outputsUnder(root));
    }

    /**
     * Merges the given shard output directories, judged with {@code spec}'s objectives.
     *
     * @throws IllegalStateException if a shard is missing or present twice, an output is of another run (another
     *     load or workload than {@code spec}'s) or damaged
     */
    public static MergedRun merge(RunSpec spec, List<Path> outputs) {
        return ShardMerge.merge(spec, outputs);
    }
}
