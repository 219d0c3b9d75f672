package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.goodput.core.ab.ABBlock;
import dev.goodput.core.ab.ABResult;
import dev.goodput.core.ab.PairedChange;
import dev.goodput.core.compare.ChangeVerdict;
import dev.goodput.core.compare.MetricChange;
import dev.goodput.core.load.RunLength;
import dev.goodput.core.report.internal.Html;
import dev.goodput.core.slo.SloVerdict;
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
 * The page of an A/B run: both arms side by side, each change with its interval and verdict, the minimum detectable
 * change of each, the block order, the noise floor and why the run stopped; written as {@value GateReport#MARKDOWN_FILE},
 * {@value GateReport#HTML_FILE} and {@value GateReport#JSON_FILE} (so the index and the session summary list it as a
 * gate), with each arm's pooled reports in {@value #BASELINE_DIRECTORY}/ and {@value #CANDIDATE_DIRECTORY}/.
 *
 * <p>Longer than 300 lines because it writes the same page three ways (Markdown, HTML, JSON), and the three read
 * the same facts and rows so that they never disagree.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class ABReport {

    /** The directory of the baseline arm's own reports. */
    public static final String BASELINE_DIRECTORY = "baseline";

    /** The directory of the candidate arm's own reports. */
    public static final String CANDIDATE_DIRECTORY = "candidate";

    private final ABResult result;
    private final String title;
    private final String verdict;
    private final List<String> why;

    private ABReport(ABResult result, String title, String verdict, List<String> why) {
        this.result = result;
        this.title = title;
        this.verdict = verdict;
        this.why = List.copyOf(why);
    }

    /**
     * Returns the page of an A/B run.
     *
     * @param verdict the gate's verdict, PASSED or FAILED
     * @param why why the gate did not pass, a line each; empty when it passed
     */
    public static ABReport of(ABResult result, String title, String verdict, List<String> why) {
        return new ABReport(result, title, verdict, why);
    }

    /** Writes the page's three files and both arms' reports into {@code directory} and returns the HTML page. */
    public Path write(Path directory) {
        try {
            Files.createDirectories(directory);
            Reports.writeAll(result.baseline(), directory.resolve(BASELINE_DIRECTORY), title + " [baseline]");
            Reports.writeAll(result.candidate(), directory.resolve(CANDIDATE_DIRECTORY), title + " [candidate]");
            Files.writeString(directory.resolve(GateReport.MARKDOWN_FILE), markdown(), StandardCharsets.UTF_8);
            new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(directory.resolve(GateReport.JSON_FILE).toFile(), json());
            Path page = directory.resolve(GateReport.HTML_FILE);
            Files.writeString(page, html(), StandardCharsets.UTF_8);
            return page;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the A/B reports to " + directory, e);
        }
    }

    /** Returns the short form the index's and summary's "vs baseline" column shows. */
    public String baselineColumn() {
        List<PairedChange> named = result.changes(result.verdict());
        String first = named.isEmpty() || result.verdict() == ChangeVerdict.UNCHANGED
                ? ""
                : " (" + named.get(0).name() + " "
                        + MetricChange.percent(named.get(0).change().change()) + ")";
        return "A/B " + result.verdict() + first + ", floor " + floor();
    }

    private String floor() {
        return result.noiseFloor()
                .map(c -> c.describeMinimumDetectable() + " (" + c.name() + ")")
                .orElse("n/a");
    }

    private List<String> facts() {
        RunLength length = result.runLength();
        return List.of(
                "baseline (A)",
                result.baseline().spec().server().shownUrl(),
                "candidate (B)",
                result.candidate().spec().server().shownUrl(),
                "pairs of blocks",
                result.pairs() + " (" + result.candidate().accounting().measured() + " measured requests per arm)",
                "block order",
                result.blockOrder(),
                "why it stopped",
                length.stopReason(),
                "looks",
                length.looks().size() + ", each at "
                        + String.format(Locale.ROOT, "%.1f %%", length.lookConfidence() * 100)
                        + " confidence (overall " + String.format(Locale.ROOT, "%.0f %%", result.confidence() * 100)
                        + ")",
                "minimum change",
                String.format(Locale.ROOT, "%.1f %%", result.minimumChange() * 100),
                "noise floor",
                floor() + ": the largest minimum detectable change of the comparisons",
                "client fell behind",
                result.blocksWithUntrustworthyClient().size() + " of "
                        + result.blocks().size() + " blocks (the machine was busy; small changes may not show)",
                "took",
                String.format(Locale.ROOT, "%.1f s", result.took().toMillis() / 1000.0));
    }

    private List<List<String>> changeRows() {
        List<List<String>> rows = new ArrayList<>();
        for (PairedChange paired : result.changes()) {
            MetricChange change = paired.change();
            rows.add(List.of(
                    change.name(),
                    number(change.baseline()),
                    number(change.current()),
                    MetricChange.percent(change.change()),
                    change.hasInterval()
                            ? MetricChange.percent(change.changeLower()) + " .. "
                                    + MetricChange.percent(change.changeUpper())
                            : "none",
                    change.verdict().name(),
                    paired.describeMinimumDetectable(),
                    Integer.toString(paired.pairs())));
        }
        return rows;
    }

    private static final List<String> CHANGE_HEADER = List.of(
            "statistic", "baseline (A)", "candidate (B)", "change", "interval", "verdict", "detectable", "pairs");

    String markdown() {
        StringBuilder text = new StringBuilder("### ")
                .append(title)
                .append(": ")
                .append(verdict)
                .append(" (A/B ")
                .append(result.headline())
                .append(")\n\n");
        for (String line : why) {
            text.append("- ").append(line).append('\n');
        }
        if (!why.isEmpty()) {
            text.append('\n');
        }
        List<String> facts = facts();
        for (int i = 0; i < facts.size(); i += 2) {
            text.append("- ")
                    .append(facts.get(i))
                    .append(": ")
                    .append(facts.get(i + 1))
                    .append('\n');
        }
        text.append("\n| ").append(String.join(" | ", CHANGE_HEADER)).append(" |\n|---|");
        text.append("---:|".repeat(CHANGE_HEADER.size() - 1)).append('\n');
        for (List<String> row : changeRows()) {
            text.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        text.append("\nLatencies in ms (each arm's mean over its blocks of the block's statistic), rates per second;")
                .append(" change and interval from the pairs' log ratios (median, sign test).\n");
        if (!result.candidate().verdicts().isEmpty()) {
            text.append("\nThe candidate's objectives, over its blocks pooled:\n\n");
            for (SloVerdict objective : result.candidate().verdicts()) {
                text.append("- ").append(objective.describe()).append('\n');
            }
        }
        return text.toString();
    }

    private String html() {
        StringBuilder body = new StringBuilder("<h1>")
                .append(Html.escape(title))
                .append(' ')
                .append(Html.verdict(verdict))
                .append("</h1>");
        body.append("<p>A/B: ")
                .append(Html.verdict(result.verdict().name()))
                .append(' ')
                .append(Html.escape(
                        result.headline().substring(result.verdict().name().length())))
                .append("</p>");
        for (String line : why) {
            body.append("<p class=\"why\">").append(Html.escape(line)).append("</p>");
        }
        body.append(Html.definitions(facts()));
        body.append("<h2>Changes, candidate against baseline</h2>");
        List<List<Object>> rows = new ArrayList<>();
        for (List<String> row : changeRows()) {
            List<Object> cells = new ArrayList<>(row);
            cells.set(5, Html.markup(Html.verdict(row.get(5))));
            rows.add(cells);
        }
        body.append(Html.table(CHANGE_HEADER, rows));
        body.append("<p class=\"note\">Latencies in ms: each arm's mean over its blocks of the block's statistic."
                + " The change is the median of the pairs' log ratios, its interval the sign test's; detectable is"
                + " the smallest change this many pairs with this spread would show four times in five.</p>");
        if (!result.candidate().verdicts().isEmpty()) {
            body.append("<h2>The candidate's objectives</h2>")
                    .append(HtmlReport.objectives(result.candidate().verdicts()));
        }
        body.append("<h2>Blocks</h2>");
        List<List<Object>> blocks = new ArrayList<>();
        for (ABBlock block : result.blocks()) {
            blocks.add(List.of(
                    block.pair(),
                    block.arm().letter() + " (" + block.arm().name().toLowerCase(Locale.ROOT) + ")",
                    block.firstInPair() ? "first" : "second",
                    String.format(Locale.ROOT, "%.1f s", block.startedAfter().toMillis() / 1000.0),
                    String.format(Locale.ROOT, "%.2f s", block.took().toMillis() / 1000.0),
                    block.measuredRequests(),
                    block.failedRequests()));
        }
        body.append(Html.table(List.of("pair", "arm", "in pair", "started", "took", "measured", "failed"), blocks));
        body.append("<p>Each arm's blocks pooled: <a href=\"")
                .append(BASELINE_DIRECTORY)
                .append('/')
                .append(Reports.HTML_FILE)
                .append("\">baseline</a>, <a href=\"")
                .append(CANDIDATE_DIRECTORY)
                .append('/')
                .append(Reports.HTML_FILE)
                .append("\">candidate</a>.</p>");
        Map<String, String> meta = new LinkedHashMap<>(HtmlReport.keyFigures(result.candidate()));
        meta.put(
                ReportIndex.REQUESTS_META,
                Long.toString(result.baseline().accounting().scheduled()
                        + result.candidate().accounting().scheduled()));
        meta.put(ReportIndex.BASELINE_META, baselineColumn());
        meta.put(ReportIndex.WHY_META, String.join("; ", why));
        return Html.page(title, verdict, meta, body.toString());
    }

    Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("title", title);
        json.put("verdict", verdict);
        json.put("why", why);
        json.put("ab_verdict", result.verdict().name());
        json.put("baseline_server", result.baseline().spec().server().shownUrl());
        json.put("candidate_server", result.candidate().spec().server().shownUrl());
        json.put("pairs", result.pairs());
        json.put("block_order", result.blockOrder());
        json.put("stop_reason", result.runLength().stopReason());
        json.put("decided", result.runLength().decided());
        json.put("look_confidence", result.runLength().lookConfidence());
        json.put("confidence", result.confidence());
        json.put("minimum_change", result.minimumChange());
        json.put(
                "noise_floor",
                result.noiseFloor().map(PairedChange::minimumDetectableChange).orElse(null));
        json.put(
                "noise_floor_statistic",
                result.noiseFloor().map(PairedChange::name).orElse(null));
        json.put("took_seconds", result.took().toMillis() / 1000.0);
        json.put(
                "blocks_with_untrustworthy_client",
                result.blocksWithUntrustworthyClient().size());
        List<Map<String, Object>> changes = new ArrayList<>();
        for (PairedChange paired : result.changes()) {
            MetricChange change = paired.change();
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", change.name());
            entry.put("lower_is_better", change.lowerIsBetter());
            entry.put("baseline", finite(change.baseline()));
            entry.put("candidate", finite(change.current()));
            entry.put("change", finite(change.change()));
            entry.put("change_lower", finite(change.changeLower()));
            entry.put("change_upper", finite(change.changeUpper()));
            entry.put("verdict", change.verdict().name());
            entry.put("pairs", paired.pairs());
            entry.put("minimum_detectable_change", finite(paired.minimumDetectableChange()));
            entry.put("method", change.method());
            changes.add(entry);
        }
        json.put("changes", changes);
        List<Map<String, Object>> objectives = new ArrayList<>();
        for (SloVerdict objective : result.candidate().verdicts()) {
            objectives.add(Map.of(
                    "objective",
                    objective.objective().toString(),
                    "verdict",
                    objective.verdict().name(),
                    "described",
                    objective.describe()));
        }
        json.put("candidate_objectives", objectives);
        List<Map<String, Object>> blocks = new ArrayList<>();
        for (ABBlock block : result.blocks()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("pair", block.pair());
            entry.put("arm", block.arm().name());
            entry.put("first_in_pair", block.firstInPair());
            entry.put("started_after_seconds", block.startedAfter().toMillis() / 1000.0);
            entry.put("took_seconds", block.took().toMillis() / 1000.0);
            entry.put("measured_requests", block.measuredRequests());
            entry.put("failed_requests", block.failedRequests());
            blocks.add(entry);
        }
        json.put("blocks", blocks);
        json.put(
                "arms",
                Map.of(
                        "baseline",
                        BASELINE_DIRECTORY + "/" + Reports.HTML_FILE,
                        "candidate",
                        CANDIDATE_DIRECTORY + "/" + Reports.HTML_FILE));
        return json;
    }

    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }

    private static String number(double value) {
        return Double.isNaN(value)
                ? "n/a"
                : String.format(Locale.ROOT, Math.abs(value) >= 100 ? "%.1f" : "%.3g", value);
    }
}
