package dev.goodput.core.ab;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.result.RunResult;
import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One block of an A/B run: one arm's run of the pair's requests.
 *
 * @param pair the pair's number, from 1
 * @param arm whose block it was
 * @param firstInPair whether it ran first in its pair
 * @param startedAfter how long after the run's first block it started
 * @param took how long it took, its drain included
 * @param measuredRequests the measured requests it created
 * @param failedRequests how many of those did not succeed
 * @param result the block's own result (its objectives' verdicts rest on one block's few requests; the arm's pooled
 *     result judges them)
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record ABBlock(
        int pair,
        Arm arm,
        boolean firstInPair,
        Duration startedAfter,
        Duration took,
        long measuredRequests,
        long failedRequests,
        RunResult result) {

    public ABBlock {
        Objects.requireNonNull(arm, "arm");
        Objects.requireNonNull(startedAfter, "startedAfter");
        Objects.requireNonNull(took, "took");
        Objects.requireNonNull(result, "result");
    }
}
