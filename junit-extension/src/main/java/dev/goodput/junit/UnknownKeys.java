package dev.goodput.junit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Finds {@code goodput.*} keys that Goodput does not know, so that a misspelt key fails instead of leaving its
 * setting silently at the default. It looks where an extension can list keys: the system properties (Maven's
 * {@code -D} options reach the test JVM as those) and every {@code junit-platform.properties} on the class path.
 * Parameters handed to the launcher directly (Surefire's {@code configurationParameters}) cannot be listed by an
 * extension, so they are not checked.
 */
final class UnknownKeys {

    static final String PREFIX = "goodput.";
    static final String PROPERTIES_FILE = "junit-platform.properties";

    private UnknownKeys() {}

    /** Fails with every unknown key found, each with the nearest known one. */
    static void check(Set<String> known) {
        Map<String, String> found = new LinkedHashMap<>();
        for (String key : System.getProperties().stringPropertyNames()) {
            found.put(key, "a system property");
        }
        keysInPropertiesFiles(classLoader()).forEach(found::putIfAbsent);
        String message = message(found, known);
        if (!message.isEmpty()) {
            throw new ExtensionConfigurationException(message);
        }
    }

    /**
     * Returns the message for the unknown {@code goodput.*} keys among {@code found} (key to where it was found),
     * empty when there are none.
     */
    static String message(Map<String, String> found, Set<String> known) {
        List<String> lines = new ArrayList<>();
        for (String key : new TreeSet<>(found.keySet())) {
            if (key.startsWith(PREFIX) && !known.contains(key)) {
                String nearest = nearest(key, known);
                lines.add("configuration parameter " + key + " (" + found.get(key) + ") is not one of Goodput's"
                        + (nearest == null ? "" : ": did you mean " + nearest + "?"));
            }
        }
        if (lines.isEmpty()) {
            return "";
        }
        return String.join("\n", lines) + "\nGoodput's configuration parameters are "
                + String.join(", ", new TreeSet<>(known)) + " (see docs/annotations.md)";
    }

    /** Returns the known key nearest to {@code key} by edit distance, or null when none is near enough to guess. */
    static String nearest(String key, Set<String> known) {
        String best = known.stream()
                .min(Comparator.comparingInt((String candidate) -> distance(key, candidate))
                        .thenComparing(Comparator.naturalOrder()))
                .orElse(null);
        if (best == null) {
            return null;
        }
        // Close enough to be a typo: a few edits, or a key that only adds or drops a part of the known one.
        int distance = distance(key, best);
        return distance <= Math.max(3, best.length() / 4) || best.startsWith(key) || key.startsWith(best) ? best : null;
    }

    /** Levenshtein distance: the fewest single-character insertions, deletions and substitutions. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /** Returns the keys of every {@value #PROPERTIES_FILE} the class loader sees, each with the file it is in. */
    static Map<String, String> keysInPropertiesFiles(ClassLoader loader) {
        Map<String, String> keys = new LinkedHashMap<>();
        try {
            Enumeration<URL> files = loader.getResources(PROPERTIES_FILE);
            for (URL file : Collections.list(files)) {
                Properties properties = new Properties();
                try (InputStream in = file.openStream()) {
                    properties.load(in);
                }
                for (String key : properties.stringPropertyNames()) {
                    keys.putIfAbsent(key, file.toString());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + PROPERTIES_FILE + " from the class path", e);
        }
        return keys;
    }

    private static ClassLoader classLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : UnknownKeys.class.getClassLoader();
    }
}
