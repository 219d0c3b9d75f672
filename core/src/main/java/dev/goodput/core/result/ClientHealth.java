package dev.goodput.core.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Whether the load generator itself kept up, on both sides of a request. When the client sends late, the server
 * was offered less load than the profile says and the numbers describe a different experiment; when the client's
 * own threads wait to run, every token read meanwhile is stamped late and the latencies read high.
 *
 * <p>The send side's statistic is the p99 of send lag with 100 or more samples, the p90 with 10 to 99 (where a
 * p99 would be the maximum), and none below 10. The receive side's is the p99, over the run's time, of how late a
 * thread of the client that asks to wake every millisecond woke (a pause meter, as jHiccup measures a JVM): about
 * 1 % of token receipts waited longer than that before the client could stamp them. It needs a second of run
 * time. Both are held against the same limit.
 *
 * @param trustworthy whether the send lag stayed within the limit
 * @param sendLagP99Nanos the p99 (p90 below 100 samples) of send lag of requests not held by a concurrency cap,
 *     or NaN with fewer than 10 samples
 * @param sendLagLimitNanos the limit it is held against
 * @param reason why the run is not trustworthy, else {@code null}
 * @param pauseP99Nanos the p99 of the client's pauses over the run's time, or NaN when not measured (under a
 *     second of real time, or a result built from records)
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ClientHealth(
        boolean trustworthy, double sendLagP99Nanos, long sendLagLimitNanos, String reason, double pauseP99Nanos) {}
