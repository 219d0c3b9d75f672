package dev.goodput.core.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.internal.redaction.TextCut;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Why the requests of a run that did not succeed did not: every request whose outcome is not
 * {@link Outcome#SUCCESS}, <b>warm-up and cool-down included</b> (like {@link Accounting}, it covers every request
 * the schedule created), grouped by outcome and by the exact text of its reason ({@link RequestRecord#errorDetail()}),
 * most frequent first.
 *
 * <pre>{@code
 * for (FailureBreakdown.Reason reason : result.failures().reasons()) {
 *     System.out.println(reason.describe());   // 380 x connection refused or unreachable (ConnectException)
 * }
 * }</pre>
 *
 * @param requests how many requests did not succeed
 * @param byOutcome those requests by outcome: {@link Outcome#FAILED}, {@link Outcome#TIMED_OUT} and
 *     {@link Outcome#CANCELLED}, each present, zero when none
 * @param reasons every distinct outcome and reason, most frequent first, a tie in the order first seen (by request
 *     index); their counts add up to {@code requests}
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record FailureBreakdown(long requests, Map<Outcome, Long> byOutcome, List<Reason> reasons) {

    /** How many example request indices a reason keeps: its first ones. */
    public static final int EXAMPLES = 3;

    /** The longest reason text {@link Reason#describe(int)} shows before cutting it with {@code ...}. */
    public static final int SHORT_TEXT = 300;

    /**
     * One reason and the requests that ended with it.
     *
     * @param outcome how those requests ended
     * @param text the reason, exactly as the requests carry it
     * @param count how many requests ended with it
     * @param examples the indices of the first of them (at most {@link #EXAMPLES}), ascending: their rows in
     *     {@code requests.csv} and their {@link RunResult#records()}
     */
    @API(status = EXPERIMENTAL, since = "0.2")
    public record Reason(Outcome outcome, String text, long count, List<Long> examples) {

        public Reason {
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(text, "text");
            examples = List.copyOf(examples);
        }

        /**
         * Describes the reason on one line, for example {@code 380 x connection refused or unreachable
         * (ConnectException)}; a reason of another outcome than {@link Outcome#FAILED} names it ({@code 20 x timed
         * out: no first token within 5 s of sending}). The text is cut at {@link #SHORT_TEXT} characters and
         * put on one line.
         */
        public String describe() {
            return describe(SHORT_TEXT);
        }

        /** Describes the reason as {@link #describe()} does, its text cut at {@code maxChars} characters. */
        public String describe(int maxChars) {
            String shown = text.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
            shown = SecretRedaction.none().cut(shown, TextCut.FAILURE_REASON, maxChars);
            String prefix = outcome == Outcome.FAILED ? "" : outcomeName(outcome) + ": ";
            return count + " x " + prefix + shown;
        }
    }

    public FailureBreakdown {
        Map<Outcome, Long> complete = new EnumMap<>(Outcome.class);
        for (Outcome outcome : Outcome.values()) {
            if (outcome != Outcome.SUCCESS) {
                complete.put(outcome, byOutcome.getOrDefault(outcome, 0L));
            }
        }
        byOutcome = Collections.unmodifiableMap(complete);
        reasons = List.copyOf(reasons);
    }

    /** Groups the given records' reasons; successful records are left out. */
    public static FailureBreakdown of(Iterable<RequestRecord> records) {
        record Key(Outcome outcome, String text) {}
        final class Group {
            long count;
            long first = Long.MAX_VALUE;
            final List<Long> examples = new ArrayList<>();
        }
        Map<Key, Group> groups = new LinkedHashMap<>();
        Map<Outcome, Long> byOutcome = new EnumMap<>(Outcome.class);
        long requests = 0;
        for (RequestRecord record : records) {
            if (record.isSuccess()) {
                continue;
            }
            requests++;
            byOutcome.merge(record.outcome(), 1L, Long::sum);
            Group group = groups.computeIfAbsent(
                    new Key(record.outcome(), String.valueOf(record.errorDetail())), key -> new Group());
            group.count++;
            group.first = Math.min(group.first, record.index());
            group.examples.add(record.index());
            if (group.examples.size() > EXAMPLES) {
                group.examples.sort(null);
                group.examples.remove(EXAMPLES);
            }
        }
        List<Map.Entry<Key, Group>> sorted = new ArrayList<>(groups.entrySet());
        sorted.sort(Comparator.comparingLong((Map.Entry<Key, Group> e) -> -e.getValue().count)
                .thenComparingLong(e -> e.getValue().first));
        List<Reason> reasons = new ArrayList<>(sorted.size());
        for (Map.Entry<Key, Group> entry : sorted) {
            List<Long> examples = new ArrayList<>(entry.getValue().examples);
            examples.sort(null);
            reasons.add(new Reason(entry.getKey().outcome(), entry.getKey().text(), entry.getValue().count, examples));
        }
        return new FailureBreakdown(requests, byOutcome, reasons);
    }

    /** Returns whether every request succeeded. */
    public boolean isEmpty() {
        return requests == 0;
    }

    /** Returns the {@code n} most frequent reasons (all of them when there are fewer). */
    public List<Reason> top(int n) {
        return reasons.subList(0, Math.min(Math.max(0, n), reasons.size()));
    }

    /**
     * Describes the breakdown in lines for a summary or a failure message: a heading that says how many requests
     * did not succeed and that warm-up and cool-down are included, then one {@link Reason#describe()} line per
     * reason, at most {@code maxReasons} of them, then how many reasons and requests were left out. Empty when
     * every request succeeded.
     *
     * @param indent what each reason line starts with
     */
    public List<String> describe(int maxReasons, String indent) {
        if (isEmpty()) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        lines.add(String.format(
                Locale.ROOT,
                "why %d request%s did not succeed (warm-up and cool-down included):",
                requests,
                requests == 1 ? "" : "s"));
        List<Reason> shown = top(maxReasons);
        shown.forEach(reason -> lines.add(indent + reason.describe()));
        if (shown.size() < reasons.size()) {
            long rest = requests - shown.stream().mapToLong(Reason::count).sum();
            int more = reasons.size() - shown.size();
            lines.add(String.format(
                    Locale.ROOT,
                    "%s... and %d more reason%s (%d request%s); every request's reason is in requests.csv",
                    indent,
                    more,
                    more == 1 ? "" : "s",
                    rest,
                    rest == 1 ? "" : "s"));
        }
        return lines;
    }

    /** Returns an outcome's name as the reports write it: {@code failed}, {@code timed out}, {@code cancelled}. */
    public static String outcomeName(Outcome outcome) {
        return outcome.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
