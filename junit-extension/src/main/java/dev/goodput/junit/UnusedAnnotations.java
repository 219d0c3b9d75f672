package dev.goodput.junit;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.OptionalInt;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Refuses annotations that a test method carries but that would have no effect, so that none is silently ignored:
 * a {@link MaxGoodputRate} without a {@link LoadSweep} to judge, a {@link LoadProfile} that a sweep at the same or
 * a nearer level replaces, and a {@link Workload} on a method that runs no annotated load. Called once the
 * annotations' own values have been checked, so that a wrong value is reported as such first.
 */
final class UnusedAnnotations {

    private UnusedAnnotations() {}

    static void check(Class<?> testClass, Method method, String where, boolean hasLoad) {
        OptionalInt sweep = level(testClass, method, LoadSweep.class);
        OptionalInt profile = level(testClass, method, LoadProfile.class);
        if (sweep.isEmpty() && level(testClass, method, MaxGoodputRate.class).isPresent()) {
            throw new ExtensionConfigurationException("@MaxGoodputRate on " + where
                    + " has no sweep to judge: add @LoadSweep to the method or the class, or remove it");
        }
        if (sweep.isPresent() && profile.isPresent() && profile.getAsInt() <= sweep.getAsInt()) {
            throw new ExtensionConfigurationException("@LoadProfile on " + where
                    + " would be ignored: @LoadSweep runs loads of its own at each rate; remove one of them");
        }
        if (!hasLoad && AnnotationSupport.isAnnotated(method, Workload.class)) {
            throw new ExtensionConfigurationException("@Workload on " + where + " has no load to apply to: add"
                    + " @LoadProfile to the method or the class (a GoodputRunner's runs take their workload as an"
                    + " argument)");
        }
    }

    /** Returns how far up the annotation is found: 0 on the method, 1 on the class, 2 on its enclosing class... */
    private static OptionalInt level(Class<?> testClass, Method method, Class<? extends Annotation> type) {
        if (AnnotationSupport.isAnnotated(method, type)) {
            return OptionalInt.of(0);
        }
        int level = 1;
        for (Class<?> current = testClass; current != null; current = current.getEnclosingClass(), level++) {
            if (AnnotationSupport.isAnnotated(current, type)) {
                return OptionalInt.of(level);
            }
        }
        return OptionalInt.empty();
    }
}
