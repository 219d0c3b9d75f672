package dev.goodput.junit;

import dev.goodput.core.workload.TrafficClassSpec;
import dev.goodput.core.workload.WorkloadMix;
import dev.goodput.core.workload.WorkloadSpec;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.commons.support.AnnotationSupport;

/** Turns {@link TrafficClass} and {@link TrafficMix} annotations into a {@link WorkloadMix}. */
final class TrafficAnnotations {

    private TrafficAnnotations() {}

    /**
     * Returns the workload of the nearest level (the method, then the class and the classes enclosing it) that
     * carries {@code @TrafficClass} or {@code @Workload}; empty when none does. One level may not carry both.
     */
    static Optional<WorkloadSpec> nearest(Class<?> testClass, Method method, String where) {
        Optional<WorkloadSpec> found = at(method, where);
        for (Class<?> level = testClass; found.isEmpty() && level != null; level = level.getEnclosingClass()) {
            found = at(level, where);
        }
        return found;
    }

    private static Optional<WorkloadSpec> at(AnnotatedElement level, String where) {
        List<TrafficClass> classes = AnnotationSupport.findRepeatableAnnotations(level, TrafficClass.class);
        Optional<Workload> workload = AnnotationSupport.findAnnotation(level, Workload.class);
        if (classes.isEmpty()) {
            return workload.map(w -> new AnnotationSettings("@Workload", where).apply(() -> WorkloadAnnotations.of(w)));
        }
        if (workload.isPresent()) {
            throw new ExtensionConfigurationException("@Workload and @TrafficClass on " + where
                    + " both say what to send: give each class its workload as @TrafficClass(workload = @Workload(...))"
                    + " and remove @Workload");
        }
        Optional<TrafficMix> mix = AnnotationSupport.findAnnotation(level, TrafficMix.class);
        WorkloadMix.Builder builder = WorkloadMix.builder();
        mix.ifPresent(m -> builder.selection(m.selection()).seed(m.seed()));
        for (TrafficClass annotation : classes) {
            builder.add(trafficClass(annotation, where));
        }
        return Optional.of(builder.build());
    }

    private static TrafficClassSpec trafficClass(TrafficClass annotation, String where) {
        String at = "@TrafficClass(name = \"" + annotation.name() + "\")";
        WorkloadSpec workload = new AnnotationSettings(at + " workload", where)
                .apply(() -> WorkloadAnnotations.of(annotation.workload()));
        return new AnnotationSettings(at, where).apply(() -> {
            TrafficClassSpec result = TrafficClassSpec.of(annotation.name(), annotation.weight(), workload);
            if (annotation.priority() != TrafficClass.NO_PRIORITY) {
                result = result.withPriority(annotation.priority());
            }
            String[] headers = annotation.headers();
            for (int k = 0; k < headers.length; k++) {
                String header = headers[k];
                int colon = header.indexOf(':');
                if (colon <= 0) {
                    // The text is not repeated: a header value may be a secret.
                    throw new ExtensionConfigurationException(at + " on " + where + ": headers[" + k
                            + "] must be \"Name: value\" (found no name before a ':')");
                }
                result = result.withHeader(
                        header.substring(0, colon).trim(),
                        header.substring(colon + 1).trim());
            }
            return result;
        });
    }
}
