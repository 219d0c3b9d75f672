package dev.goodput.junit.assertions;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;

/** The public assertions say how stable they are, and stay off core's internals, which may change at will. */
class ApiConventionsTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/goodput/junit/assertions");

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.list(SOURCES)) {
            return files.filter(file -> file.toString().endsWith(".java"))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void should_mark_every_public_type_with_its_stability() throws Exception {
        List<Class<?>> publicTypes = sources().stream()
                .map(file -> file.getFileName().toString().replace(".java", ""))
                .filter(name -> !name.equals("package-info"))
                .map(ApiConventionsTest::load)
                .filter(type -> Modifier.isPublic(type.getModifiers()))
                .toList();

        assertThat(publicTypes).hasSizeGreaterThanOrEqualTo(7);
        assertThat(publicTypes)
                .filteredOn(type -> type.getAnnotation(API.class) == null)
                .as("public types without @API")
                .isEmpty();
    }

    @Test
    void should_not_use_core_internals_in_main_code() throws Exception {
        for (Path file : sources()) {
            assertThat(Files.readString(file)).as(file.toString()).doesNotContain("dev.goodput.core.internal");
        }
    }

    private static Class<?> load(String simpleName) {
        try {
            return Class.forName(ApiConventionsTest.class.getPackageName() + "." + simpleName);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
