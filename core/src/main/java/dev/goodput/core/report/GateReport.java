package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.goodput.core.compare.ChangeVerdict;
import dev.goodput.core.compare.Comparison;
import dev.goodput.core.compare.MetricChange;
import dev.goodput.core.report.internal.Html;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.TrialSummary;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The page of a gate with several trials or attempts or a baseline comparison: {@value #HTML_FILE} (listed by the
 * index instead of its trials' pages), {@value #MARKDOWN_FILE} and {@value #JSON_FILE}. It shows the gate's verdict,
 * the objectives judged over all trials, every attempt with its key figures and a link to its own report, the
 * variation between trials, and the comparison with the baseline. A failed gate says first why it failed, and its
 * trials show their own objectives, never a PASSED beside the gate's FAILED.
 *
 * <p>Longer than 300 lines because it writes one gate three ways (Markdown, JSON, HTML) from the same record, and
 * the three must agree.
 *
 * @param title the gate's title
 * @param verdict {@code PASSED}, {@code FAILED} or {@code NO-OBJECTIVES}
 * @param trials the counted trials judged together
 * @param attempts every run of the gate, counted or repeated by the noise policy, in order
 * @param comparison the comparison with the baseline, or {@code null}
 * @param baselineNote what happened about the baseline ("no baseline at ...", "compared with ...")
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record GateReport(
        String title,
        String verdict,
        TrialSummary trials,
        List<Attempt> attempts,
        Comparison comparison,
        String baselineNote) {

    /** The gate page's file name. */
    public static final String HTML_FILE = "gate.html";

    /** The gate summary in Markdown. */
    public static final String MARKDOWN_FILE = "gate.md";

    /** The gate summary in JSON. */
    public static final String JSON_FILE = "gate.json";

    /**
     * One run of the gate.
     *
     * @param trial the trial it belongs to, from 1
     * @param attempt its attempt within the trial, from 1
     * @param link its report page, relative to the gate page
     * @param result what it measured
     * @param counted whether it counts (false when the noise policy ran the trial again)
     * @param repeatedBecause why it was repeated, or {@code null}
     */
    @API(status = EXPERIMENTAL, since = "0.2")
    public record Attempt(
            int trial, int attempt, String link, RunResult result, boolean counted, String repeatedBecause) {}

    public GateReport {
        attempts = List.copyOf(attempts);
    }

    /** Returns the comparison's short form for an index or summary column, empty without a comparison. */
    public String baselineColumn() {
        if (comparison == null) {
            return "";
        }
        List<MetricChange> notable = comparison.changes().stream()
                .filter(change -> change.verdict() == comparison.verdict())
                .limit(2)
                .toList();
        if (notable.isEmpty() || comparison.verdict() == dev.goodput.core.compare.ChangeVerdict.UNCHANGED) {
            return comparison.verdict().name();
        }
        return comparison.verdict() + " ("
                + String.join(
                        ", ",
                        notable.stream()
                                .map(change -> change.name() + " " + MetricChange.percent(change.change()))
                                .toList())
                + ")";
    }

    /**
     * Returns why the gate failed, the gravest first: a regression or an invalid comparison with the baseline, the
     * objectives over all trials not met, a trial whose client could not keep up; empty unless the verdict is
     * {@code FAILED}.
     */
    public List<String> why() {
        if (!verdict.equals("FAILED")) {
            return List.of();
        }
        List<String> why = new ArrayList<>();
        if (comparison != null
                && (comparison.verdict() == ChangeVerdict.REGRESSED || comparison.verdict() == ChangeVerdict.INVALID)) {
            why.add(comparison.headline());
        }
        String unmet = HtmlReport.unmet(trials.verdicts());
        if (!unmet.isEmpty()) {
            why.add("objectives over " + trials.trials().size() + " trial(s) not met: " + unmet);
        }
        for (int i = 0; i < trials.trials().size(); i++) {
            RunResult trial = trials.trials().get(i);
            if (!trial.clientHealth().trustworthy()) {
                why.add("trial " + (i + 1) + " is not trustworthy: "
                        + trial.clientHealth().reason());
            }
        }
        return why;
    }

    /** Writes the three files into the directory and returns the HTML page. */
    public Path write(Path directory) {
        try {
            Files.createDirectories(directory);
            Files.writeString(directory.resolve(MARKDOWN_FILE), markdown(), StandardCharsets.UTF_8);
            new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(directory.resolve(JSON_FILE).toFile(), json());
            Path page = directory.resolve(HTML_FILE);
            Files.writeString(page, html(), StandardCharsets.UTF_8);
            return page;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the gate report in " + directory, e);
        }
    }

    /** Returns the Markdown summary. */
    public String markdown() {
        StringBuilder text = new StringBuilder("# ")
                .append(title)
                .append(": ")
                .append(verdict)
                .append("\n\n");
        why().forEach(line -> text.append("**FAILED**: ").append(line).append("\n\n"));
        text.append(trials.trials().size())
                .append(" trial(s), ")
                .append(attempts.size())
                .append(" run(s)\n\n");
        text.append(
                        "| trial | attempt | counted | goodput | TTFT p50 | TTFT p99 | TPOT p50 | TPOT p99 | objectives met |\n")
                .append("|---:|---:|---|---:|---:|---:|---:|---:|---|\n");
        for (Attempt attempt : attempts) {
            RunResult result = attempt.result();
            text.append(String.format(
                    Locale.ROOT,
                    "| %d | %d | %s | %.3f/s | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %d/%d |%n",
                    attempt.trial(),
                    attempt.attempt(),
                    attempt.counted() ? "yes" : "no: " + attempt.repeatedBecause(),
                    TrialSummary.figure(result, "goodput"),
                    TrialSummary.figure(result, "TTFT p50"),
                    TrialSummary.figure(result, "TTFT p99"),
                    TrialSummary.figure(result, "TPOT p50"),
                    TrialSummary.figure(result, "TPOT p99"),
                    result.verdicts().stream().filter(v -> v.isMet()).count(),
                    result.verdicts().size()));
        }
        runLengths().forEach(line -> text.append('\n').append(line).append('\n'));
        if (trials.trials().size() > 1) {
            text.append("\nVariation between trials (coefficient of variation): ")
                    .append(String.join(", ", variationTexts()))
                    .append("\n");
        }
        text.append("\n## Objectives over all trials\n\n");
        trials.verdicts().forEach(v -> text.append("- ").append(v.describe()).append('\n'));
        text.append("\n## Baseline\n\n").append(baselineNote).append("\n\n");
        if (comparison != null) {
            text.append(comparison.headline()).append("\n\n");
            if (!comparison.changes().isEmpty()) {
                text.append(comparison.markdownTable()).append('\n');
            }
            comparison
                    .differences()
                    .forEach(d -> text.append("- differs: ").append(d).append('\n'));
            comparison.notes().forEach(n -> text.append("- note: ").append(n).append('\n'));
        }
        return text.toString();
    }

    private List<String> variationTexts() {
        List<String> texts = new ArrayList<>();
        trials.variation().forEach((name, cv) -> texts.add(name + " " + percent(cv)));
        return texts;
    }

    private static String percent(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.1f %%", value * 100);
    }

    private Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("title", title);
        json.put("verdict", verdict);
        json.put("why", why());
        json.put("trials", trials.trials().size());
        List<Map<String, Object>> runs = new ArrayList<>();
        for (Attempt attempt : attempts) {
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("trial", attempt.trial());
            run.put("attempt", attempt.attempt());
            run.put("counted", attempt.counted());
            run.put("repeated_because", attempt.repeatedBecause());
            run.put("report", attempt.link());
            Map<String, Object> figures = new LinkedHashMap<>();
            for (String figure : TrialSummary.KEY_FIGURES) {
                figures.put(figure, finite(TrialSummary.figure(attempt.result(), figure)));
            }
            run.put("figures", figures);
            runs.add(run);
        }
        json.put("runs", runs);
        Map<String, Object> variation = new LinkedHashMap<>();
        trials.variation().forEach((name, cv) -> variation.put(name, finite(cv)));
        json.put("variation_between_trials", variation);
        json.put("objectives", trials.verdicts().stream().map(v -> v.describe()).toList());
        Map<String, Object> baseline = new LinkedHashMap<>();
        baseline.put("note", baselineNote);
        if (comparison != null) {
            baseline.put("verdict", comparison.verdict().name());
            baseline.put("headline", comparison.headline());
            baseline.put("minimum_change", comparison.minimumChange());
            baseline.put("differences", comparison.differences());
            baseline.put("notes", comparison.notes());
            List<Map<String, Object>> changes = new ArrayList<>();
            for (MetricChange change : comparison.changes()) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("metric", change.name());
                entry.put("baseline", finite(change.baseline()));
                entry.put("current", finite(change.current()));
                entry.put("change", finite(change.change()));
                entry.put("change_lower", finite(change.changeLower()));
                entry.put("change_upper", finite(change.changeUpper()));
                entry.put("verdict", change.verdict().name());
                entry.put("method", change.method());
                changes.add(entry);
            }
            baseline.put("changes", changes);
        }
        json.put("baseline", baseline);
        return json;
    }

    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }

    private String html() {
        StringBuilder body = new StringBuilder("<h1>")
                .append(Html.escape(title))
                .append(' ')
                .append(Html.verdict(verdict))
                .append("</h1>");
        for (String line : why()) {
            body.append("<p class=\"why\">").append(Html.verdict(verdict)).append(": ");
            body.append(withVerdictMarked(line)).append("</p>");
        }
        body.append("<h2>Objectives over all trials</h2>").append(HtmlReport.objectives(trials.verdicts()));
        body.append("<h2>Baseline</h2><p>").append(Html.escape(baselineNote)).append("</p>");
        if (comparison != null) {
            body.append("<p>").append(withVerdictMarked(comparison.headline())).append("</p>");
            List<List<Object>> rows = new ArrayList<>();
            for (MetricChange change : comparison.changes()) {
                rows.add(List.of(
                        change.name(),
                        String.format(Locale.ROOT, "%.3f", change.baseline()),
                        String.format(Locale.ROOT, "%.3f", change.current()),
                        MetricChange.percent(change.change()),
                        change.hasInterval()
                                ? MetricChange.percent(change.changeLower()) + " .. "
                                        + MetricChange.percent(change.changeUpper())
                                : "none",
                        Html.markup(Html.verdict(change.verdict().name())),
                        change.method()));
            }
            if (!rows.isEmpty()) {
                body.append(Html.table(
                        List.of("metric", "baseline", "current", "change", "interval", "verdict", "method"), rows));
            }
            for (String line : comparison.differences()) {
                body.append("<p class=\"reason\">differs: ")
                        .append(Html.escape(line))
                        .append("</p>");
            }
            for (String line : comparison.notes()) {
                body.append("<p class=\"note\">").append(Html.escape(line)).append("</p>");
            }
        }
        body.append("<h2>Trials</h2>");
        List<List<Object>> rows = new ArrayList<>();
        for (Attempt attempt : attempts) {
            RunResult result = attempt.result();
            rows.add(List.of(
                    Html.markup("<a href=\"" + Html.escape(attempt.link()) + "\">trial " + attempt.trial()
                            + (attempt.attempt() > 1 ? " attempt " + attempt.attempt() : "") + "</a>"),
                    attempt.counted() ? "yes" : "no: " + attempt.repeatedBecause(),
                    Html.markup(trialObjectives(result)),
                    String.format(Locale.ROOT, "%.3f/s", TrialSummary.figure(result, "goodput")),
                    String.format(Locale.ROOT, "%.2f ms", TrialSummary.figure(result, "TTFT p50")),
                    String.format(Locale.ROOT, "%.2f ms", TrialSummary.figure(result, "TTFT p99")),
                    String.format(Locale.ROOT, "%.2f ms", TrialSummary.figure(result, "TPOT p50")),
                    String.format(Locale.ROOT, "%.2f ms", TrialSummary.figure(result, "TPOT p99"))));
        }
        body.append(Html.table(
                List.of(
                        "run",
                        "counted",
                        "its own objectives",
                        "goodput",
                        "TTFT p50",
                        "TTFT p99",
                        "TPOT p50",
                        "TPOT p99"),
                rows));
        body.append("<p class=\"note\">Each trial's objectives are judged on that trial alone; the gate's verdict"
                + " judges them over all trials together, with the comparison with the baseline.</p>");
        runLengths()
                .forEach(line -> body.append("<p class=\"note\">")
                        .append(Html.escape(line))
                        .append("</p>"));
        if (trials.trials().size() > 1) {
            body.append("<p class=\"note\">Variation between trials (coefficient of variation): ")
                    .append(Html.escape(String.join(", ", variationTexts())))
                    .append("</p>");
        }
        RunResult last = trials.trials().get(trials.trials().size() - 1);
        Map<String, String> meta = new LinkedHashMap<>(HtmlReport.keyFigures(last));
        meta.put(
                ReportIndex.REQUESTS_META,
                Long.toString(trials.trials().stream()
                        .mapToLong(t -> t.accounting().scheduled())
                        .sum()));
        meta.put(ReportIndex.BASELINE_META, baselineColumn());
        meta.put(ReportIndex.WHY_META, String.join("; ", why()));
        return Html.page(title, verdict, meta, body.toString());
    }

    /**
     * Escapes a line that starts with a comparison's verdict ({@code "REGRESSED vs baseline: ..."}) and colours
     * that verdict, so it reads once and in its colour.
     */
    private static String withVerdictMarked(String line) {
        for (ChangeVerdict change : ChangeVerdict.values()) {
            if (line.startsWith(change.name() + " ")) {
                return Html.verdict(change.name())
                        + Html.escape(line.substring(change.name().length()));
            }
        }
        return Html.escape(line);
    }

    /** Returns, for each run that lasted until decided, its looks and why it stopped; empty for fixed lengths. */
    private List<String> runLengths() {
        return attempts.stream()
                .filter(attempt -> attempt.result().runLength().untilDecided())
                .map(attempt ->
                        "Trial " + attempt.trial() + (attempt.attempt() > 1 ? " attempt " + attempt.attempt() : "")
                                + " run length: " + attempt.result().runLength().stopReason())
                .toList();
    }

    /**
     * Returns a trial's own objectives in short: all met, or the worst verdict among them and how many were not
     * met, so a trial never reads PASSED beside a gate that FAILED.
     */
    private static String trialObjectives(RunResult result) {
        List<SloVerdict> verdicts = result.verdicts();
        long unmet = verdicts.stream().filter(v -> !v.isMet()).count();
        if (verdicts.isEmpty()) {
            return "none";
        }
        if (unmet == 0) {
            return "<span class=\"MET\">all " + verdicts.size() + " met</span>";
        }
        Verdict worst = verdicts.stream().anyMatch(v -> v.verdict() == Verdict.VIOLATED)
                ? Verdict.VIOLATED
                : Verdict.INCONCLUSIVE;
        return Html.verdict(worst.name()) + " (" + unmet + " of " + verdicts.size() + " not met)";
    }
}
