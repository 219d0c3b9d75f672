package dev.goodput.core.load;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * How long a run lasted and why it stopped: at its limits ({@link #FIXED}), or, for a run that lasts until decided
 * ({@link Load#untilDecided}), after which look and for what reason. Immutable.
 *
 * @param untilDecided whether the run looked at its objectives as it went
 * @param looks the looks taken, in order; empty for a run of fixed length
 * @param lookConfidence the confidence of each look's intervals, chosen so that all looks together keep the run's
 *     confidence; NaN for a run of fixed length
 * @param decided whether a look decided the gate (the run then stopped there): every objective MET or VIOLATED, or
 *     one VIOLATED, which fails the gate whatever the undecided ones would say
 * @param moreRequestsToDecide for a run that reached its maximum undecided, roughly how many more measured
 *     requests would decide it; -1 when not estimated
 * @param stopReason why the run stopped, in a sentence; empty for a run of fixed length
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record RunLength(
        boolean untilDecided,
        List<Look> looks,
        double lookConfidence,
        boolean decided,
        long moreRequestsToDecide,
        String stopReason) {

    /** The length of a run of fixed length: it ran to its limits. */
    public static final RunLength FIXED = new RunLength(false, List.of(), Double.NaN, false, -1, "");

    public RunLength {
        looks = List.copyOf(looks);
        Objects.requireNonNull(stopReason, "stopReason");
    }

    /**
     * One look at the objectives.
     *
     * @param number the look's number, from 1
     * @param planned how many looks the run planned
     * @param measuredRequests the measured requests it judged: the first that many in schedule order
     * @param decided how many objectives it found MET or VIOLATED
     * @param undecided how many it found INCONCLUSIVE
     */
    public record Look(int number, int planned, long measuredRequests, int decided, int undecided) {

        /** Returns one line, for example {@code "look 2 of 5: 400 measured requests, 3 decided, 1 undecided"}. */
        public String describe() {
            return String.format(
                    Locale.ROOT,
                    "look %d of %d: %d measured requests, %d decided, %d undecided",
                    number,
                    planned,
                    measuredRequests,
                    decided,
                    undecided);
        }
    }

    /** Returns the roughly how many more measured requests would decide the run, when estimated. */
    public OptionalLong moreRequests() {
        return moreRequestsToDecide < 0 ? OptionalLong.empty() : OptionalLong.of(moreRequestsToDecide);
    }
}
