package dev.goodput.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Holds the versions the docs give to the build's: the coordinates a user copies (Maven and Gradle), the README's
 * status line and the migration guide's title tell one story, the version the parent pom builds. The sibling of
 * {@link DocumentedFactsTest} for versions, which change at every release (docs/release.md).
 */
class DocumentedVersionsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern GRADLE_COORDINATE =
            Pattern.compile("\"(dev\\.goodput|org\\.junit):([\\w-]+):([^\"]+)\"");
    private static final Pattern MAVEN_COORDINATE =
            Pattern.compile("<groupId>(dev\\.goodput|org\\.junit)</groupId>\\s*<artifactId>([\\w-]+)</artifactId>\\s*"
                    + "<version>([^<]+)</version>");

    private static String parentPomValue(String regex) throws IOException {
        Matcher matcher = Pattern.compile(regex).matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertThat(matcher.find()).as("%s in the parent pom", regex).isTrue();
        return matcher.group(1);
    }

    private static String projectVersion() throws IOException {
        return parentPomValue("<artifactId>goodput-parent</artifactId>\\s*<version>([^<]+)</version>");
    }

    private static Map<Path, String> documents() throws IOException {
        Map<Path, String> documents = new LinkedHashMap<>();
        List<Path> paths = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CHANGELOG.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(file -> file.toString().endsWith(".md")).sorted().forEach(paths::add);
        }
        for (Path path : paths) {
            documents.put(ROOT.relativize(path), Files.readString(path));
        }
        return documents;
    }

    @Test
    void should_give_the_built_version_wherever_the_docs_give_coordinates() throws IOException {
        String goodput = projectVersion();
        String junit = parentPomValue("<junit.version>([^<]+)</junit.version>");
        SoftAssertions softly = new SoftAssertions();
        int coordinates = 0;
        for (Map.Entry<Path, String> document : documents().entrySet()) {
            for (Pattern pattern : List.of(GRADLE_COORDINATE, MAVEN_COORDINATE)) {
                Matcher coordinate = pattern.matcher(document.getValue());
                while (coordinate.find()) {
                    String expected = coordinate.group(1).equals("dev.goodput") ? goodput : junit;
                    softly.assertThat(coordinate.group(3))
                            .as("%s gives %s:%s", document.getKey(), coordinate.group(1), coordinate.group(2))
                            .isEqualTo(expected);
                    coordinates++;
                }
            }
        }
        softly.assertAll();
        // README's Install (Maven and Gradle), getting-started's Gradle build: at least these four.
        assertThat(coordinates).as("coordinates found in the docs").isGreaterThanOrEqualTo(4);
    }

    @Test
    void should_tell_one_story_of_the_version_being_built() throws IOException {
        String version = projectVersion();
        String release = version.replace("-SNAPSHOT", "");
        String minor = release.substring(0, release.lastIndexOf('.'));
        Map<Path, String> documents = documents();

        assertThat(documents.get(Path.of("README.md"))).contains("Version " + release + ",");
        assertThat(documents.get(Path.of("docs", "migration.md")).lines().findFirst())
                .as("the migration guide's title")
                .hasValueSatisfying(title -> assertThat(title).endsWith(" to " + minor));
        assertThat(documents.get(Path.of("CHANGELOG.md")))
                .as("the changelog's newest section")
                .containsPattern("(?m)^## " + Pattern.quote(release) + " - ");
    }
}
