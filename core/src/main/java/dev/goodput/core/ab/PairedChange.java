package dev.goodput.core.ab;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.compare.ChangeVerdict;
import dev.goodput.core.compare.MetricChange;
import java.util.Locale;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One statistic's change from the baseline arm to the candidate arm of an A/B run, estimated from the pairs of
 * blocks (see {@code docs/ci-gates.md#how-an-ab-run-judges}).
 *
 * <p>Each pair of blocks offered both arms the same requests; its log ratio {@code ln(candidate / baseline)} is
 * one paired difference. The change is {@code exp(median) - 1} of those differences, and its interval the sign
 * test's (the order-statistic interval of their median; neighbouring pairs are merged first while correlated), at
 * the confidence of the look that ended the run. The values of both arms in {@link #change()} are the means over
 * their blocks of each block's statistic (a block's p90 for a p90).
 *
 * @param change the change, its interval and its verdict against the run's minimum change
 * @param pairs how many pairs of blocks had a value on both sides
 * @param pairSpread the standard deviation of the pairs' log ratios, NaN with fewer than two pairs
 * @param minimumDetectableChange the smallest true change that this many pairs with this spread would show as
 *     beyond doubt four times in five ({@code (z + 0.84)} times the median's standard error from the pairs'
 *     median absolute deviation, on the log scale), before the minimum change is applied; NaN with fewer than two
 *     pairs
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record PairedChange(MetricChange change, int pairs, double pairSpread, double minimumDetectableChange) {

    public PairedChange {
        Objects.requireNonNull(change, "change");
    }

    /** Returns the statistic's name, for example {@code "TTFT p90"}. */
    public String name() {
        return change.name();
    }

    /** Returns the verdict on the change. */
    public ChangeVerdict verdict() {
        return change.verdict();
    }

    /** Returns whether the change is decided: anything but INCONCLUSIVE. */
    public boolean decided() {
        return change.verdict() != ChangeVerdict.INCONCLUSIVE && change.verdict() != ChangeVerdict.INVALID;
    }

    /** Returns the minimum detectable change as a signed-free percentage, for example {@code "1.8 %"}. */
    public String describeMinimumDetectable() {
        return Double.isNaN(minimumDetectableChange)
                ? "n/a"
                : String.format(Locale.ROOT, "%.1f %%", minimumDetectableChange * 100);
    }

    /** Returns one line: the change as {@link MetricChange#describe()} words it, then the pairs and noise floor. */
    public String describe() {
        return change.describe() + " (" + pairs + " pairs, detectable " + describeMinimumDetectable() + ")";
    }
}
