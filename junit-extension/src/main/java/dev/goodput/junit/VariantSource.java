package dev.goodput.junit;

import dev.goodput.core.report.VariantComparison;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * Reads a {@link ServerVariants} test's variants from the method it names, refusing at once, before any server is
 * started, a method that does not exist or returns something else, an empty list, a null element, and two variants
 * whose names (or report directories) are the same.
 */
final class VariantSource {

    private VariantSource() {}

    /**
     * Calls the test class's method that an annotation names (static, or of the test instance) and returns what it
     * returned, refusing a missing method, a missing instance or a throwing method with a message that starts with
     * {@code prefix} and says what to return ({@code expected}).
     */
    static Object invoke(ExtensionContext context, String methodName, String prefix, String expected) {
        Class<?> testClass = context.getRequiredTestClass();
        Optional<Method> found =
                methodName.isBlank() ? Optional.empty() : ReflectionSupport.findMethod(testClass, methodName);
        Method method = found.orElseThrow(() -> new ExtensionConfigurationException(prefix + testClass.getSimpleName()
                + " has no method " + methodName + "() without parameters; name a method that returns " + expected));
        Object instance = Modifier.isStatic(method.getModifiers())
                ? null
                : context.getTestInstance()
                        .orElseThrow(() -> new ExtensionConfigurationException(prefix + methodName
                                + "() is an instance method but there is no test instance; make it static"));
        try {
            return ReflectionSupport.invokeMethod(method, instance);
        } catch (RuntimeException e) {
            throw new ExtensionConfigurationException(prefix + methodName + "() threw " + e, e);
        }
    }

    static List<ServerVariant> read(ExtensionContext context, ServerVariants annotation, String where) {
        String methodName = annotation.value();
        String prefix = "@ServerVariants(\"" + methodName + "\") on " + where + ": ";
        Object returned = invoke(context, methodName, prefix, "a Stream, a Collection or an array of ServerVariant");
        List<?> elements = elements(returned, prefix + methodName + "()");
        if (elements.isEmpty()) {
            throw new ExtensionConfigurationException(
                    prefix + methodName + "() returned no variant; return at least one ServerVariant");
        }
        List<ServerVariant> variants = new ArrayList<>();
        Map<String, String> directories = new HashMap<>();
        for (Object element : elements) {
            if (!(element instanceof ServerVariant variant)) {
                throw new ExtensionConfigurationException(prefix + methodName + "() returned "
                        + (element == null ? "null" : "a " + element.getClass().getName())
                        + " among its variants; every element must be a ServerVariant");
            }
            String directory = VariantComparison.directoryName(variant.name());
            String previous = directories.put(directory, variant.name());
            if (previous != null) {
                throw new ExtensionConfigurationException(prefix + methodName + "() returned "
                        + (previous.equals(variant.name())
                                ? "two variants named '" + previous + "'"
                                : "variants '" + previous + "' and '" + variant.name()
                                        + "', which share the report directory " + directory)
                        + "; every variant needs a name of its own");
            }
            variants.add(variant);
        }
        return variants;
    }

    private static List<?> elements(Object returned, String source) {
        if (returned instanceof Stream<?> stream) {
            try (stream) {
                return stream.toList();
            }
        }
        if (returned instanceof Collection<?> collection) {
            return new ArrayList<>(collection);
        }
        if (returned instanceof Object[] array) {
            return Arrays.asList(array);
        }
        throw new ExtensionConfigurationException(source + " returned "
                + (returned == null ? "null" : "a " + returned.getClass().getName())
                + "; return a Stream, a Collection or an array of ServerVariant");
    }
}
