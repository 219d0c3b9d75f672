package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Whether the load generator itself kept up with its schedule. When the client is late, the server was
 * offered less load than the profile says and the numbers describe a different experiment.
 *
 * <p>The statistic is the p99 of send lag with 100 or more samples, the p90 with 10 to 99 (where a p99 would
 * be the maximum), and none below 10.
 *
 * @param trustworthy whether the send lag stayed within the limit
 * @param sendLagP99Nanos the p99 (p90 below 100 samples) of send lag of requests not held by a concurrency cap,
 *     or NaN with fewer than 10 samples
 * @param sendLagLimitNanos the limit it is held against
 * @param reason why the run is not trustworthy, else {@code null}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ClientHealth(boolean trustworthy, double sendLagP99Nanos, long sendLagLimitNanos, String reason) {}
