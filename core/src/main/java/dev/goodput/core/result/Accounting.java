package dev.goodput.core.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Where every request of a run went: how many the schedule created, and how many ended in each outcome, in
 * all and among the measured ones. Nothing is dropped: the outcomes always add up to the created count.
 *
 * @param scheduled requests the schedule created, warm-up and cool-down included
 * @param byOutcome all requests by outcome
 * @param byPhase all requests by phase
 * @param measuredByOutcome measured requests by outcome
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Accounting(
        long scheduled, Map<Outcome, Long> byOutcome, Map<Phase, Long> byPhase, Map<Outcome, Long> measuredByOutcome) {

    public Accounting {
        byOutcome = complete(byOutcome, Outcome.class);
        byPhase = complete(byPhase, Phase.class);
        measuredByOutcome = complete(measuredByOutcome, Outcome.class);
    }

    /** Counts the given records. */
    public static Accounting of(Iterable<RequestRecord> records) {
        long scheduled = 0;
        Map<Outcome, Long> byOutcome = new EnumMap<>(Outcome.class);
        Map<Phase, Long> byPhase = new EnumMap<>(Phase.class);
        Map<Outcome, Long> measured = new EnumMap<>(Outcome.class);
        for (RequestRecord record : records) {
            scheduled++;
            byOutcome.merge(record.outcome(), 1L, Long::sum);
            byPhase.merge(record.phase(), 1L, Long::sum);
            if (record.phase() == Phase.MEASURED) {
                measured.merge(record.outcome(), 1L, Long::sum);
            }
        }
        return new Accounting(scheduled, byOutcome, byPhase, measured);
    }

    /** Returns how many requests ended in the given outcome. */
    public long count(Outcome outcome) {
        return byOutcome.get(outcome);
    }

    /** Returns how many measured requests ended in the given outcome. */
    public long measured(Outcome outcome) {
        return measuredByOutcome.get(outcome);
    }

    /** Returns the number of measured requests. */
    public long measured() {
        return byPhase.get(Phase.MEASURED);
    }

    /** Returns whether the outcomes add up to the scheduled count, as they always should. */
    public boolean isBalanced() {
        return byOutcome.values().stream().mapToLong(Long::longValue).sum() == scheduled
                && byPhase.values().stream().mapToLong(Long::longValue).sum() == scheduled;
    }

    private static <K extends Enum<K>> Map<K, Long> complete(Map<K, Long> counts, Class<K> type) {
        Map<K, Long> all = new EnumMap<>(type);
        for (K key : type.getEnumConstants()) {
            all.put(key, counts.getOrDefault(key, 0L));
        }
        return Collections.unmodifiableMap(all);
    }
}
