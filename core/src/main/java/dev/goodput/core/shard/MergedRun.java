package dev.goodput.core.shard;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.result.RunResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * The merge of a run's shards: one result, as one generator would have computed it from the same records, and what
 * each shard said about its start.
 *
 * @param result the merged result, judged with the merging spec's objectives
 * @param shards the shards, by index
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record MergedRun(RunResult result, List<ShardReport> shards) {

    /**
     * A start lag or clock uncertainty above which the shards' time axes may disagree enough to matter: 10 ms is a
     * tenth of a typical TTFT objective and well above what NTP or the barrier achieve on one network.
     */
    public static final Duration ALIGNMENT_WARNING = Duration.ofMillis(10);

    public MergedRun {
        shards = List.copyOf(shards);
    }

    /**
     * Returns lines for a reader: how many shards were merged and how well their starts lined up, and a warning per
     * shard that started late or whose clock is uncertain by more than {@link #ALIGNMENT_WARNING}.
     */
    public List<String> facts() {
        List<String> facts = new ArrayList<>();
        Duration maxLag = Duration.ZERO;
        Duration maxOffset = Duration.ZERO;
        Duration maxUncertainty = Duration.ZERO;
        for (ShardReport shard : shards) {
            maxLag = max(maxLag, shard.startLag().abs());
            maxOffset = max(maxOffset, shard.clockOffset().abs());
            maxUncertainty = max(maxUncertainty, shard.offsetUncertainty());
        }
        facts.add(String.format(
                Locale.ROOT,
                "shards: %d merged (%s requests), started by %s; start lag at most %s, clock offset to shard 0 at"
                        + " most %s (uncertain by %s)",
                shards.size(),
                shards.stream()
                        .map(s -> Long.toString(s.records()))
                        .reduce((a, b) -> a + " + " + b)
                        .orElse("0"),
                shards.isEmpty() ? "-" : shards.get(0).start(),
                millis(maxLag),
                millis(maxOffset),
                millis(maxUncertainty)));
        for (ShardReport shard : shards) {
            if (shard.startLag().abs().compareTo(ALIGNMENT_WARNING) > 0) {
                facts.add("WARNING: " + shard.shard() + " started " + millis(shard.startLag()) + " after the agreed"
                        + " instant: its requests were sent that much later than the schedule meant");
            }
            if (shard.offsetUncertainty().compareTo(ALIGNMENT_WARNING) > 0) {
                facts.add("WARNING: " + shard.shard() + "'s clock offset is uncertain by "
                        + millis(shard.offsetUncertainty()) + ": the shards' time axes may disagree by that much");
            }
        }
        return facts;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static String millis(Duration duration) {
        return String.format(Locale.ROOT, "%.2f ms", duration.toNanos() / 1e6);
    }
}
