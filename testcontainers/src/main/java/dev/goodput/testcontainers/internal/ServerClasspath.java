package dev.goodput.testcontainers.internal;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Where the mock server's code and its libraries are on the test JVM's classpath, to copy into a container. */
public final class ServerClasspath {

    /** The mock server's command-line entry point. */
    public static final String MAIN_CLASS = "dev.goodput.mock.internal.cli.MockServerMain";

    private static final List<String> CLASSES = List.of(
            MAIN_CLASS,
            "com.fasterxml.jackson.databind.ObjectMapper",
            "com.fasterxml.jackson.core.JsonFactory",
            "com.fasterxml.jackson.annotation.JsonProperty");

    private ServerClasspath() {}

    /** Returns the jars (or class folders) that hold the mock server and Jackson, each once. */
    public static List<Path> entries() {
        Set<Path> entries = new LinkedHashSet<>();
        for (String name : CLASSES) {
            entries.add(locationOf(name));
        }
        return new ArrayList<>(entries);
    }

    private static Path locationOf(String className) {
        try {
            Class<?> type = Class.forName(className, false, ServerClasspath.class.getClassLoader());
            CodeSource source = type.getProtectionDomain().getCodeSource();
            if (source == null || source.getLocation() == null) {
                throw new IllegalStateException("cannot tell where " + className + " was loaded from");
            }
            return Path.of(source.getLocation().toURI());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(className + " is not on the classpath; add goodput-mock-server", e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot read where " + className + " was loaded from", e);
        }
    }
}
