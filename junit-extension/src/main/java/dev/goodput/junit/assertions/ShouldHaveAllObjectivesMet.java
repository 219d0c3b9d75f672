package dev.goodput.junit.assertions;

import dev.goodput.core.slo.SloVerdict;
import java.util.List;
import org.assertj.core.error.ErrorMessageFactory;

/**
 * Says that objectives were not met, listing the verdict on every objective, met or not, because a met
 * objective next to a violated one often explains it (good TTFT but poor goodput points at TPOT).
 */
final class ShouldHaveAllObjectivesMet extends GoodputErrorMessage {

    private ShouldHaveAllObjectivesMet(String message) {
        super(message);
    }

    /**
     * Returns, for example:
     *
     * <pre>
     * Expecting all 2 objectives of the run to be met but 1 of 2 were met:
     *   p99 TTFT: measured 612.40 ms (95% CI 598.10 ms .. 640.00 ms, n=600), bound ≤ 500.00 ms: VIOLATED
     *   goodput: measured 4.10 req/s (n=600), bound ≥ 3.50 req/s: MET
     * </pre>
     */
    static ErrorMessageFactory shouldHaveAllObjectivesMet(List<SloVerdict> verdicts) {
        long met = verdicts.stream().filter(SloVerdict::isMet).count();
        StringBuilder message = new StringBuilder("Expecting all ")
                .append(verdicts.size())
                .append(" objectives of the run to be met but ")
                .append(met)
                .append(" of ")
                .append(verdicts.size())
                .append(" were met:");
        for (SloVerdict verdict : verdicts) {
            message.append(System.lineSeparator()).append("  ").append(verdict.describe());
        }
        return new ShouldHaveAllObjectivesMet(message.toString());
    }
}
