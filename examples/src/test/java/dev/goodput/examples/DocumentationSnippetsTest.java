package dev.goodput.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the documentation honest: every code block in {@code docs/} and the README that is preceded by a
 * {@code <!-- snippet: path#tag -->} marker must equal, line for line, the region between
 * {@code // tag::tag[]} and {@code // end::tag[]} of that compiled source file ({@code <!-- tag::tag[] -->} and
 * {@code <!-- end::tag[] -->} in XML, such as the new user's pom that {@code getting-started-it} builds, whose
 * {@code @name@} versions are the parent pom's properties). The tag {@code imports} quotes a Java file's import
 * block, so that a guide can show what its snippets import.
 */
class DocumentationSnippetsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern MARKER =
            Pattern.compile("<!-- snippet: (\\S+)#(\\S+) -->\\s*\\n```(?:java|xml)\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern PROPERTY = Pattern.compile("<([\\w.-]+)>([^<]+)</\\1>");
    private static final Pattern FILTERED = Pattern.compile("@([\\w.-]+)@");
    private static final Pattern IMPORT = Pattern.compile("import (?:static )?[\\w.]*?(\\w+);");
    private static final String IMPORTS = "imports";

    record Snippet(Path document, String source, String tag, String quoted) {}

    private static List<Snippet> snippets() throws IOException {
        List<Path> documents = new ArrayList<>();
        documents.add(ROOT.resolve("README.md"));
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).forEach(documents::add);
        }
        List<Snippet> snippets = new ArrayList<>();
        for (Path document : documents) {
            String text = Files.readString(document);
            Matcher matcher = MARKER.matcher(text);
            int found = 0;
            while (matcher.find()) {
                snippets.add(new Snippet(document, matcher.group(1), matcher.group(2), matcher.group(3)));
                found++;
            }
            // A marker not directly followed by a code block would otherwise be skipped without a word.
            assertThat(found)
                    .as(
                            "snippet markers in %s directly followed by a ```java or ```xml block",
                            ROOT.relativize(document))
                    .isEqualTo(text.split("<!-- snippet: ", -1).length - 1);
        }
        return snippets;
    }

    static String taggedRegion(Path source, String tag) throws IOException {
        List<String> lines = Files.readAllLines(source);
        if (tag.equals(IMPORTS)) {
            return importBlock(lines);
        }
        int start = -1;
        int end = -1;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.equals("// tag::" + tag + "[]") || line.equals("<!-- tag::" + tag + "[] -->")) {
                start = i + 1;
            } else if (line.equals("// end::" + tag + "[]") || line.equals("<!-- end::" + tag + "[] -->")) {
                end = i;
            }
        }
        assertThat(start).as("tag %s in %s", tag, source).isPositive();
        assertThat(end).as("end of tag %s in %s", tag, source).isGreaterThanOrEqualTo(start);
        List<String> region = lines.subList(start, end);
        int indent = region.stream()
                .filter(line -> !line.isBlank())
                .mapToInt(line -> line.length() - line.stripLeading().length())
                .min()
                .orElse(0);
        StringBuilder text = new StringBuilder();
        for (String line : region) {
            text.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
        }
        return source.toString().endsWith(".xml") ? filtered(text.toString()) : text.toString();
    }

    /** Replaces {@code @name@} by the parent pom's property {@code name} ({@code project.version}: its version). */
    static String filtered(String text) throws IOException {
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        Matcher versionTag = Pattern.compile("<artifactId>goodput-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(pom);
        assertThat(versionTag.find()).as("the parent pom's version").isTrue();
        String properties = pom.substring(pom.indexOf("<properties>"), pom.indexOf("</properties>"));
        java.util.Map<String, String> values = new java.util.HashMap<>();
        Matcher property = PROPERTY.matcher(properties);
        while (property.find()) {
            values.put(property.group(1), property.group(2).trim());
        }
        values.put("project.version", versionTag.group(1));
        Matcher filtered = FILTERED.matcher(text);
        StringBuilder result = new StringBuilder();
        while (filtered.find()) {
            String value = values.get(filtered.group(1));
            assertThat(value)
                    .as("the parent pom's property %s", filtered.group(1))
                    .isNotNull();
            filtered.appendReplacement(result, Matcher.quoteReplacement(value));
        }
        filtered.appendTail(result);
        return result.toString();
    }

    /** Returns a Java file's lines from its first import to its last, as they are. */
    private static String importBlock(List<String> lines) {
        int first = -1;
        int last = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("import ")) {
                first = first < 0 ? i : first;
                last = i;
            }
        }
        assertThat(first).as("imports").isNotNegative();
        return String.join("\n", lines.subList(first, last + 1)) + "\n";
    }

    @Test
    void should_show_every_import_a_snippet_of_the_getting_started_guide_needs() throws IOException {
        Path guide = ROOT.resolve("docs/getting-started.md");
        String text = Files.readString(guide);
        List<Snippet> quoted = snippets().stream()
                .filter(snippet -> snippet.document().equals(guide))
                .filter(snippet ->
                        snippet.source().endsWith(".java") && !snippet.tag().equals(IMPORTS))
                .toList();
        assertThat(quoted).as("Java snippets in %s", ROOT.relativize(guide)).isNotEmpty();
        for (Snippet snippet : quoted) {
            for (String line : Files.readAllLines(ROOT.resolve(snippet.source()))) {
                Matcher declaration = IMPORT.matcher(line);
                if (declaration.matches()
                        && Pattern.compile("\\b" + declaration.group(1) + "\\b")
                                .matcher(snippet.quoted())
                                .find()) {
                    assertThat(text)
                            .as(
                                    "%s#%s uses %s: the guide shows its import",
                                    snippet.source(), snippet.tag(), declaration.group(1))
                            .contains(line);
                }
            }
        }
    }

    @Test
    void should_quote_compiled_example_code_exactly() throws IOException {
        List<Snippet> snippets = snippets();
        assertThat(snippets).as("snippets in the docs").isNotEmpty();
        for (Snippet snippet : snippets) {
            assertThat(snippet.quoted())
                    .as("%s quotes %s#%s", ROOT.relativize(snippet.document()), snippet.source(), snippet.tag())
                    .isEqualTo(taggedRegion(ROOT.resolve(snippet.source()), snippet.tag()));
        }
    }
}
