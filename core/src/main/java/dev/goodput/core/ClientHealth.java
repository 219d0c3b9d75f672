package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Whether the load generator itself kept up with its schedule. When the client is late, the server was
 * offered less load than the profile says and the numbers describe a different experiment.
 *
 * @param trustworthy whether the p99 send lag stayed within the limit
 * @param sendLagP99Nanos the p99 of send lag (requests not held by a concurrency cap), or NaN without samples
 * @param sendLagLimitNanos the limit it is held against
 * @param reason why the run is not trustworthy, else {@code null}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ClientHealth(boolean trustworthy, double sendLagP99Nanos, long sendLagLimitNanos, String reason) {}
