package dev.goodput.junit.assertions;

import dev.goodput.core.result.Accounting;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.assertj.core.error.ErrorMessageFactory;

/** Says that the accounting lost or invented requests: its outcomes or phases do not add up. */
final class ShouldBeBalanced extends GoodputErrorMessage {

    private ShouldBeBalanced(String message) {
        super(message);
    }

    /**
     * Returns, for example, {@code "Expecting the outcomes and the phases of the run each to add up to its 120
     * scheduled requests but the outcomes add up to 119 (succeeded 100, failed 10, timed out 5, cancelled 4)
     * and the phases to 120 (warm-up 10, measured 100, cool-down 10)"}.
     */
    static ErrorMessageFactory shouldBeBalanced(Accounting accounting) {
        return new ShouldBeBalanced("Expecting the outcomes and the phases of the run each to add up to its "
                + accounting.scheduled() + " scheduled requests but the outcomes add up to "
                + breakdown(accounting.byOutcome(), Vocabulary::outcome) + " and the phases to "
                + breakdown(accounting.byPhase(), Vocabulary::phase));
    }

    private static <K> String breakdown(Map<K, Long> counts, Function<K, String> names) {
        long sum = counts.values().stream().mapToLong(Long::longValue).sum();
        String parts = counts.entrySet().stream()
                .map(entry -> names.apply(entry.getKey()) + " " + entry.getValue())
                .collect(Collectors.joining(", "));
        return sum + " (" + parts + ")";
    }
}
