package dev.goodput.junit.assertions;

import dev.goodput.core.result.ClientHealth;
import dev.goodput.core.slo.Metric;
import org.assertj.core.error.ErrorMessageFactory;

/** Says that the load generator fell behind its schedule or was paused, so the run measured something other than asked. */
final class ShouldBeTrustworthy extends GoodputErrorMessage {

    private ShouldBeTrustworthy(String message) {
        super(message);
    }

    /**
     * Returns, for example, {@code "Expecting the run to be trustworthy (p99 send lag and p99 pause at most 10.00 ms) but the
     * client fell behind its schedule: p99 send lag 14.20 ms exceeds 10.00 ms, so the server was offered less
     * load than the profile asked for"}: the second half is {@link ClientHealth#reason()}.
     */
    static ErrorMessageFactory shouldBeTrustworthy(ClientHealth health) {
        String reason = health.reason() != null
                ? health.reason()
                : "p99 send lag was " + UnitFormat.format(Metric.SEND_LAG, health.sendLagP99Nanos());
        return new ShouldBeTrustworthy("Expecting the run to be trustworthy (p99 send lag and p99 pause at most "
                + UnitFormat.format(Metric.SEND_LAG, health.sendLagLimitNanos()) + ") but " + reason);
    }
}
