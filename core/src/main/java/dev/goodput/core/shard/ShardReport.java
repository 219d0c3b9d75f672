package dev.goodput.core.shard;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.load.Shard;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.apiguardian.api.API;

/**
 * What one shard of a merged run reported about itself.
 *
 * @param shard which share it sent
 * @param output the directory its output was read from
 * @param records how many requests it created (each ended in one outcome)
 * @param startedAt when it started, on its own clock
 * @param start how it agreed on the start instant
 * @param clockOffset shard 0's clock minus this shard's, as measured at the barrier; zero without a barrier
 * @param offsetUncertainty how far that measurement may be off (half the best round trip); zero without a barrier
 * @param startLag how late after the agreed instant it started its schedule, on its own clock
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record ShardReport(
        Shard shard,
        Path output,
        long records,
        Instant startedAt,
        String start,
        Duration clockOffset,
        Duration offsetUncertainty,
        Duration startLag) {}
