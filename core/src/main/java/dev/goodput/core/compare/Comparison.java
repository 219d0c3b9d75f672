package dev.goodput.core.compare;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * A gate's run compared with its baseline: either refused ({@link ChangeVerdict#INVALID}, with the differences
 * that make the two runs incomparable) or judged metric by metric. The overall verdict is REGRESSED when any metric
 * regressed, else INCONCLUSIVE when any is, else IMPROVED when any improved, else UNCHANGED.
 *
 * @param verdict the overall verdict
 * @param differences why the comparison is invalid, empty when it is valid
 * @param changes one entry per compared metric, empty when invalid
 * @param notes what the reader should know about the comparison (for example that one trial per side cannot
 *     show run-to-run variation)
 * @param minimumChange the smallest relative change that counts, for example 0.10
 * @param confidence the confidence level of the intervals
 * @param baselineTrials trials on the baseline's side
 * @param currentTrials trials on the current side
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record Comparison(
        ChangeVerdict verdict,
        List<String> differences,
        List<MetricChange> changes,
        List<String> notes,
        double minimumChange,
        double confidence,
        int baselineTrials,
        int currentTrials) {

    public Comparison {
        differences = List.copyOf(differences);
        changes = List.copyOf(changes);
        notes = List.copyOf(notes);
    }

    /** Returns the metrics that regressed. */
    public List<MetricChange> regressions() {
        return changes.stream()
                .filter(change -> change.verdict() == ChangeVerdict.REGRESSED)
                .toList();
    }

    /** Returns the change of the named metric, or {@code null}. */
    public MetricChange change(String name) {
        return changes.stream()
                .filter(change -> change.name().equals(name))
                .findFirst()
                .orElse(null);
    }

    /** Returns the headline, for example {@code "REGRESSED vs baseline: TTFT p99 +18.1 %"}. */
    public String headline() {
        if (verdict == ChangeVerdict.INVALID) {
            return "INVALID comparison with the baseline: " + String.join("; ", differences);
        }
        List<MetricChange> notable =
                changes.stream().filter(change -> change.verdict() == verdict).toList();
        String which = verdict == ChangeVerdict.UNCHANGED || notable.isEmpty()
                ? "every metric within " + Math.round(minimumChange * 100) + " %"
                : String.join(
                        ", ",
                        notable.stream()
                                .map(change -> change.name() + " " + MetricChange.percent(change.change()))
                                .toList());
        return verdict + " vs baseline: " + which;
    }

    /** Returns the comparison as text lines: the headline, each metric, the differences and the notes. */
    public List<String> describe() {
        List<String> lines = new ArrayList<>();
        lines.add(headline());
        if (verdict != ChangeVerdict.INVALID) {
            lines.add(String.format(
                    Locale.ROOT,
                    "  %d trial(s) vs %d baseline trial(s), %.0f %% intervals on the change, minimum change %.0f %%",
                    currentTrials,
                    baselineTrials,
                    confidence * 100,
                    minimumChange * 100));
        }
        changes.forEach(change -> lines.add("  " + change.describe()));
        differences.forEach(difference -> lines.add("  differs: " + difference));
        notes.forEach(note -> lines.add("  note: " + note));
        return lines;
    }

    /** Returns a Markdown table of the metric changes. */
    public String markdownTable() {
        StringBuilder table = new StringBuilder("| metric | baseline | current | change | interval | verdict |\n")
                .append("|---|---:|---:|---:|---|---|\n");
        for (MetricChange change : changes) {
            String unit = change.lowerIsBetter() ? " ms" : "/s";
            table.append(String.format(
                    Locale.ROOT,
                    "| %s | %.3f%s | %.3f%s | %s | %s | %s |%n",
                    change.name(),
                    change.baseline(),
                    unit,
                    change.current(),
                    unit,
                    MetricChange.percent(change.change()),
                    change.hasInterval()
                            ? MetricChange.percent(change.changeLower()) + " .. "
                                    + MetricChange.percent(change.changeUpper())
                            : "none",
                    change.verdict()));
        }
        return table.toString();
    }
}
