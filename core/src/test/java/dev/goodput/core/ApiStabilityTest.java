package dev.goodput.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;

/** The public API says how stable it is, and never hands out an internal type. */
class ApiStabilityTest {

    private static List<Class<?>> publicApiTypes() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(Goodput.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        List<Class<?>> types = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root.resolve("dev/goodput/core"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = root.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                if (name.contains(".internal.") || name.contains("$") || name.endsWith("package-info")) {
                    continue;
                }
                Class<?> type = Class.forName(name);
                if (Modifier.isPublic(type.getModifiers())) {
                    types.add(type);
                }
            }
        }
        return types;
    }

    @Test
    void should_mark_every_public_type_with_its_stability() throws Exception {
        List<Class<?>> types = publicApiTypes();
        assertThat(types).hasSizeGreaterThan(20);
        assertThat(types)
                .filteredOn(type -> type.getAnnotation(API.class) == null)
                .as("public types without @API")
                .isEmpty();
    }

    @Test
    void should_not_expose_internal_types_in_public_signatures() throws Exception {
        List<String> leaks = new ArrayList<>();
        for (Class<?> type : publicApiTypes()) {
            for (Method method : type.getMethods()) {
                if (method.getDeclaringClass() != type) {
                    continue;
                }
                Stream.concat(Stream.of(method.getReturnType()), Stream.of(method.getParameterTypes()))
                        .filter(used -> used.getName().contains(".internal."))
                        .forEach(used -> leaks.add(type.getSimpleName() + "." + method.getName() + " uses " + used));
            }
        }
        assertThat(leaks).isEmpty();
    }
}
