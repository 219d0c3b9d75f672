package dev.goodput.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.goodput.core.RunSpec;
import dev.goodput.core.load.Load;
import dev.goodput.core.load.RequestPolicy;
import dev.goodput.core.report.ReportIndex;
import dev.goodput.core.report.Reports;
import dev.goodput.junit.GoodputTest;
import dev.goodput.mock.PerformanceModel;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.annotation.Repeatable;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * The sibling of {@link DocumentationSnippetsTest} for facts that are not code blocks and drift when the code moves:
 * defaults the docs quote (the send-lag limit, the drain, the timeouts, every annotation attribute's default), the
 * annotations docs/annotations.md describes against the annotation types of {@code dev.goodput.junit}, the report
 * files the docs list against {@link Reports}' file names, the configuration keys against the extension's one list,
 * and the simulated server's exact presets.
 */
class DocumentedFactsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String JUNIT_PACKAGE = "dev.goodput.junit";
    private static final Pattern HEADING = Pattern.compile("^#{2,3} `@(\\w+)`\\s*$", Pattern.MULTILINE);

    private static String read(String path) throws IOException {
        return Files.readString(ROOT.resolve(path));
    }

    /** Returns the text of the section under the first heading that equals {@code heading}, up to the next one. */
    private static String section(String document, String heading) {
        int start = document.indexOf("\n" + heading + "\n");
        assertThat(start).as("heading %s", heading).isNotNegative();
        int level = heading.indexOf(' ');
        Matcher next = Pattern.compile("\\n#{1," + level + "} ").matcher(document);
        int end = next.find(start + heading.length() + 1) ? next.start() : document.length();
        return document.substring(start, end);
    }

    /** Rows of the markdown tables in {@code text} whose first cell is a backticked name: name to cells. */
    private static Map<String, List<String>> rows(String text) {
        return rows(text, null);
    }

    /** Rows of the tables whose first column is {@code header} (any table when null): name to cells. */
    private static Map<String, List<String>> rows(String text, String header) {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        boolean inTable = false;
        for (String line : text.lines().toList()) {
            if (!line.startsWith("|")) {
                inTable = false;
            } else if (!inTable) {
                inTable = header == null || line.startsWith("| " + header + " |");
            }
            if (inTable && line.startsWith("| `")) {
                List<String> cells = new ArrayList<>();
                for (String cell : line.substring(1, line.length() - 1).split(" \\| ")) {
                    cells.add(cell.trim());
                }
                rows.put(cells.get(0).replace("`", ""), cells);
            }
        }
        return rows;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Defaults

    @Test
    void should_quote_the_send_lag_default_of_the_code() throws IOException {
        long millis = RunSpec.DEFAULT_SEND_LAG_LIMIT.toMillis();
        String parameters = section(read("docs/annotations.md"), "## Configuration parameters");
        assertThat(rows(parameters).get("goodput.client.send-lag-limit-ms"))
                .as("the goodput.client.send-lag-limit-ms row")
                .element(2)
                .isEqualTo("`" + millis + "`");

        String reliability = read("docs/reliability.md");
        assertThat(numbersAfter(reliability, "\\(the default is ")).isNotEmpty().containsOnly(millis);
        assertThat(numbersAfter(reliability, "limit, ")).isNotEmpty().containsOnly(millis);
        assertThat(reliability).contains("The default limit is therefore " + millis + " ms");
    }

    @Test
    void should_quote_the_drain_and_request_policy_defaults_of_the_code() throws IOException {
        Map<String, List<String>> profile = rows(section(read("docs/annotations.md"), "## `@LoadProfile`"));
        Load load = Load.poisson(1).requests(1);
        RequestPolicy policy = RequestPolicy.DEFAULT;

        assertThat(leadingNumber(profile.get("drainSeconds").get(2)))
                .isEqualTo(load.drain().toSeconds());
        assertThat(leadingNumber(profile.get("totalTimeoutSeconds").get(2)))
                .isEqualTo(policy.totalTimeout().toSeconds());
        assertThat(leadingNumber(profile.get("maxRetryWaitSeconds").get(2)))
                .isEqualTo(policy.maxRetryWait().toSeconds());
        assertThat(leadingNumber(profile.get("retries").get(2))).isEqualTo(policy.retries());

        String reliability = read("docs/reliability.md");
        assertThat(reliability)
                .contains("`maxRetryWait(Duration)` (default "
                        + policy.maxRetryWait().toSeconds() + " s)");
    }

    /**
     * Every table of an annotation's section lists real attributes with their real defaults, and every attribute is
     * described in annotations.md or workloads.md. A backticked default is the annotation's own; "unset" and
     * "none" stand for its not-set value (0, NaN, empty); "required" for no default. A bare number is the core's
     * default that the annotation's 0 keeps (checked above).
     */
    @Test
    void should_list_every_annotation_attribute_with_its_default() throws Exception {
        String annotations = read("docs/annotations.md");
        String workloads = read("docs/workloads.md");
        SoftAssertions softly = new SoftAssertions();
        for (Class<? extends Annotation> type : documentedAnnotations()) {
            String heading = headingOf(annotations, type);
            Map<String, List<String>> rows = rows(section(annotations, heading), "Attribute");
            for (Map.Entry<String, List<String>> row : rows.entrySet()) {
                Method attribute;
                try {
                    attribute = type.getMethod(row.getKey());
                } catch (NoSuchMethodException e) {
                    softly.fail("annotations.md lists %s.%s, which does not exist", type.getSimpleName(), row.getKey());
                    continue;
                }
                String cell = row.getValue().get(2);
                softly.assertThat(defaultMatches(attribute.getDefaultValue(), cell))
                        .as(
                                "default of @%s.%s: docs say %s, code says %s",
                                type.getSimpleName(), row.getKey(), cell, render(attribute.getDefaultValue()))
                        .isTrue();
            }
            for (Method attribute : type.getDeclaredMethods()) {
                Pattern inCode = Pattern.compile("`[^`\\n]*\\b" + attribute.getName() + "\\b[^`\\n]*`");
                softly.assertThat(inCode.matcher(annotations).find()
                                || inCode.matcher(workloads).find())
                        .as(
                                "@%s.%s is described in annotations.md or workloads.md",
                                type.getSimpleName(), attribute.getName())
                        .isTrue();
            }
        }
        softly.assertAll();
    }

    private static boolean defaultMatches(Object value, String cell) {
        if (cell.startsWith("`") && cell.endsWith("`")) {
            String literal = cell.substring(1, cell.length() - 1);
            if (value instanceof Number number && !(literal.startsWith("\""))) {
                return Double.compare(Double.parseDouble(literal), number.doubleValue()) == 0;
            }
            return render(value).equals(literal);
        }
        if (cell.startsWith("required")) {
            return value == null;
        }
        if (cell.startsWith("unset") || cell.startsWith("none")) {
            return value != null && isUnset(value);
        }
        // A bare number: the core's default, which the annotation's unset value keeps.
        return value != null && isUnset(value) && cell.matches("\\d.*");
    }

    private static boolean isUnset(Object value) {
        if (value instanceof Number number) {
            return number.doubleValue() == 0 || Double.isNaN(number.doubleValue());
        }
        if (value.getClass().isArray()) {
            return Array.getLength(value) == 0;
        }
        return "".equals(value);
    }

    private static String render(Object value) {
        if (value == null) {
            return "(none)";
        }
        if (value instanceof String text) {
            return "\"" + text + "\"";
        }
        if (value instanceof Enum<?> constant) {
            return constant.name();
        }
        if (value instanceof Annotation annotation) {
            // An annotation-valued default is written as the bare annotation: its own defaults apply.
            return "@" + annotation.annotationType().getSimpleName();
        }
        if (value.getClass().isArray()) {
            List<String> items = new ArrayList<>();
            for (int i = 0; i < Array.getLength(value); i++) {
                items.add(render(Array.get(value, i)));
            }
            return "{" + String.join(", ", items) + "}";
        }
        return String.valueOf(value);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Annotations

    /** The public annotation types of dev.goodput.junit, containers of a repeatable one left out. */
    @SuppressWarnings("unchecked")
    private static List<Class<? extends Annotation>> documentedAnnotations() {
        List<Class<? extends Annotation>> types = new ArrayList<>();
        for (JavaClass type : new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(JUNIT_PACKAGE)) {
            if (type.isAnnotation()
                    && type.getPackageName().equals(JUNIT_PACKAGE)
                    && type.getModifiers().contains(JavaModifier.PUBLIC)) {
                Class<? extends Annotation> annotation = (Class<? extends Annotation>) type.reflect();
                if (!isContainer(annotation)) {
                    types.add(annotation);
                }
            }
        }
        assertThat(types).as("annotation types found in %s", JUNIT_PACKAGE).hasSizeGreaterThan(5);
        return types;
    }

    private static boolean isContainer(Class<? extends Annotation> type) {
        try {
            Class<?> value = type.getMethod("value").getReturnType();
            return value.isArray()
                    && value.getComponentType().isAnnotationPresent(Repeatable.class)
                    && value.getComponentType().getAnnotation(Repeatable.class).value() == type;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static String headingOf(String document, Class<? extends Annotation> type) {
        Matcher heading = HEADING.matcher(document);
        while (heading.find()) {
            if (heading.group(1).equals(type.getSimpleName())) {
                return heading.group().trim();
            }
        }
        throw new AssertionError("docs/annotations.md has no section \"## `@" + type.getSimpleName() + "`\"");
    }

    @Test
    void should_describe_every_annotation_of_the_extension_and_no_other() throws IOException {
        String annotations = read("docs/annotations.md");
        Set<String> inCode = documentedAnnotations().stream()
                .map(Class::getSimpleName)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> inDocs = new TreeSet<>();
        Matcher heading = HEADING.matcher(annotations);
        while (heading.find()) {
            inDocs.add(heading.group(1));
        }

        assertThat(inDocs).isEqualTo(inCode);
        assertThat(annotations).contains("`" + GoodputTest.TAG + "`").contains("`" + GoodputTest.RESOURCE_LOCK + "`");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Reports

    /** Every file name constant of {@link Reports}, and the index's. */
    private static Set<String> reportFiles() throws IllegalAccessException {
        Set<String> files = new TreeSet<>();
        for (Field field : Reports.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getName().endsWith("_FILE")) {
                files.add((String) field.get(null));
            }
        }
        assertThat(files).as("Reports' file names").hasSizeGreaterThanOrEqualTo(6);
        files.add(ReportIndex.FILE);
        return files;
    }

    @Test
    void should_list_every_report_file_the_code_writes_and_no_other() throws Exception {
        String reports = section(read("docs/annotations.md"), "## Reports");
        Set<String> listed = new TreeSet<>();
        Matcher file = Pattern.compile("`(?:[^`/]*/)?([\\w.-]+\\.(?:json|csv|txt|html))`")
                .matcher(reports);
        while (file.find()) {
            listed.add(file.group(1));
        }

        assertThat(listed).isEqualTo(reportFiles());
    }

    @Test
    void should_name_every_file_of_a_run_where_the_docs_list_a_gates_reports() throws IOException {
        List<String> runFiles = List.of(Reports.JSON_FILE, Reports.CSV_FILE, Reports.SUMMARY_FILE, Reports.HTML_FILE);
        for (String document : List.of("README.md", "docs/getting-started.md")) {
            String text = read(document);
            for (String name : runFiles) {
                assertThat(text).as("%s names %s", document, name).contains("`" + name + "`");
            }
            assertThat(text).as("%s names the index", document).contains(ReportIndex.FILE);
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Configuration keys

    @SuppressWarnings("unchecked")
    private static Set<String> knownKeys() throws ReflectiveOperationException {
        Field keys = Class.forName(JUNIT_PACKAGE + ".GoodputConfiguration").getDeclaredField("KNOWN_KEYS");
        keys.setAccessible(true);
        return (Set<String>) keys.get(null);
    }

    @Test
    void should_document_exactly_the_configuration_keys_the_extension_knows() throws Exception {
        Set<String> known = knownKeys();
        Set<String> documented = rows(section(read("docs/annotations.md"), "## Configuration parameters"))
                .keySet();
        assertThat(known).containsAll(documented);

        StringBuilder docs = new StringBuilder(read("README.md"));
        try (var files = Files.list(ROOT.resolve("docs"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".md")).toList()) {
                docs.append(Files.readString(file));
            }
        }
        Matcher key = Pattern.compile("(?<![\\w.])goodput\\.[a-z][\\w.-]*[a-z]").matcher(docs);
        Set<String> mentioned = new TreeSet<>();
        while (key.find()) {
            mentioned.add(key.group());
        }
        assertThat(mentioned).as("goodput.* keys mentioned in the docs").containsAll(known);
        // Report entry names (goodput.ttft_p99_ms ...), package names and the misspelt key of the example message
        // are not keys; every other is known.
        mentioned.removeIf(name -> Pattern.compile(Pattern.quote(name) + "\\s+\\(a system property\\)")
                .matcher(docs)
                .find());
        mentioned.removeIf(name -> name.contains("_")
                || name.startsWith("goodput.run")
                || name.equals("goodput.requests")
                || name.startsWith("goodput.server-under-test"));
        assertThat(known).as("keys the docs mention").containsAll(mentioned);
    }

    // ---------------------------------------------------------------------------------------------------------
    // The simulated server's exact presets

    @Test
    void should_quote_the_exact_presets_times() throws IOException {
        Map<String, List<String>> presets = rows(read("docs/simulated-server.md"));
        PerformanceModel fixed = PerformanceModel.preset("fixed");
        PerformanceModel slot = PerformanceModel.preset("single-slot");

        assertThat(presets.get("fixed").get(1))
                .contains("TTFT " + fixed.constantTtftNanos() / 1_000_000 + " ms")
                .contains("TPOT " + fixed.constantTpotNanos() / 1_000_000 + " ms");
        assertThat(presets.get("single-slot").get(1))
                .contains("TTFT " + slot.constantTtftNanos() / 1_000_000 + " ms")
                .contains("TPOT " + slot.constantTpotNanos() / 1_000_000 + " ms");
        assertThat(slot.maxNumSeqs()).isEqualTo(1);
        // One request at a time, each holding the slot TTFT + (n - 1) TPOT: 4 tokens take 0.16 s.
        double fourTokens = 1e9 / (slot.constantTtftNanos() + 3 * slot.constantTpotNanos());
        assertThat(read("docs/simulated-server.md"))
                .contains(String.format(java.util.Locale.ROOT, "at %.2f req/s for 4 tokens", fourTokens));
        assertThat(read("docs/sweeps.md"))
                .contains(String.format(java.util.Locale.ROOT, "saturates at exactly %.2f req/s", fourTokens));
    }

    // ---------------------------------------------------------------------------------------------------------

    private static List<Long> numbersAfter(String text, String regex) {
        List<Long> numbers = new ArrayList<>();
        Matcher matcher = Pattern.compile(regex + "(\\d+)").matcher(text);
        while (matcher.find()) {
            numbers.add(Long.parseLong(matcher.group(1)));
        }
        return numbers;
    }

    private static long leadingNumber(String cell) {
        Matcher number = Pattern.compile("^`?(\\d+)").matcher(cell);
        assertThat(number.find()).as("a number in %s", cell).isTrue();
        return Long.parseLong(number.group(1));
    }
}
