package dev.goodput.core.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * How a server's token counts compare with the client's, over the successful measured requests that had both.
 *
 * @param compared requests that had both counts
 * @param differing requests whose counts differ
 * @param meanDifference mean of (server − client), NaN when none compared
 * @param maxAbsoluteDifference the largest |server − client|
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TokenComparison(long compared, long differing, double meanDifference, long maxAbsoluteDifference) {}
