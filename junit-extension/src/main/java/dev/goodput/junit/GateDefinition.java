package dev.goodput.junit;

import dev.goodput.core.Load;
import dev.goodput.core.Metric;
import dev.goodput.core.Objective;
import dev.goodput.core.SyntheticWorkload;
import dev.goodput.core.WorkloadSpec;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * What a test method's annotations ask for, turned into validated core values at once: the workload, the load
 * profile (or none) and the objectives. A bad annotation fails with an {@link ExtensionConfigurationException}
 * naming the annotation, the attribute and the value, before any server is started or load sent.
 *
 * @param workload the workload
 * @param load the load profile, or empty when the method runs no load itself
 * @param objectives the objectives, class-level ones first, a method's own replacing the class's on the same key
 */
record GateDefinition(WorkloadSpec workload, Optional<Load> load, List<Objective> objectives) {

    static GateDefinition of(Class<?> testClass, Method method, double loadScale) {
        String where = testClass.getSimpleName() + "." + method.getName() + "()";
        WorkloadSpec workload = nearest(testClass, method, Workload.class)
                .map(w -> workload(w, where))
                .orElseGet(() -> WorkloadSpec.synthetic().build());
        Optional<Load> load = nearest(testClass, method, LoadProfile.class)
                .map(annotation -> LoadProfiles.of(annotation, where).scaled(loadScale));
        if (workload instanceof dev.goodput.core.workload.TimedWorkload trace) {
            if (load.isPresent()) {
                throw new ExtensionConfigurationException("@LoadProfile on " + where
                        + " does not fit @Workload(trace = ...): a trace replays its own arrival times; remove it");
            }
            long requests = Math.max(1, Math.min(trace.size(), Math.round(trace.size() * loadScale)));
            load = Optional.of(Load.traceReplay().requests(requests));
        }
        load.ifPresent(profile -> validate(() -> profile.validate(), "@LoadProfile", where));
        List<Objective> objectives = objectives(testClass, method, where);
        if (workload instanceof SyntheticWorkload synthetic && synthetic.outputTokens() < 2) {
            for (Objective slo : objectives) {
                if (slo.metric().needsTwoTokens()) {
                    throw new ExtensionConfigurationException("@Slo(metric = " + slo.metric() + ") on " + where
                            + " cannot be measured: @Workload(outputTokens = " + synthetic.outputTokens()
                            + ") gives no gap between tokens; it needs at least 2");
                }
            }
        }
        return new GateDefinition(workload, load, objectives);
    }

    private static WorkloadSpec workload(Workload annotation, String where) {
        return validate(() -> WorkloadAnnotations.of(annotation), "@Workload", where);
    }

    private static List<Objective> objectives(Class<?> testClass, Method method, String where) {
        Map<String, Objective> byKey = new LinkedHashMap<>();
        List<AnnotatedElement> levels = new ArrayList<>(enclosingFirst(testClass));
        levels.add(method);
        for (AnnotatedElement level : levels) {
            for (Slo annotation : AnnotationSupport.findRepeatableAnnotations(level, Slo.class)) {
                Objective slo = slo(annotation, where);
                byKey.remove(key(slo));
                byKey.put(key(slo), slo);
            }
        }
        return List.copyOf(byKey.values());
    }

    private static String key(Objective slo) {
        return slo.metric() + "/" + slo.statistic() + "/" + slo.percentile() + "/" + slo.comparison();
    }

    static Objective slo(Slo annotation, String where) {
        Metric metric = annotation.metric();
        String name = "@Slo(metric = " + metric + ")";
        int statistics = (Double.isNaN(annotation.percentile()) ? 0 : 1)
                + (annotation.mean() ? 1 : 0)
                + (annotation.max() ? 1 : 0);
        if (metric.kind() == Metric.Kind.RUN && statistics > 0) {
            throw new ExtensionConfigurationException(
                    name + " on " + where + ": " + metric + " is one value per run; remove percentile, mean and max");
        }
        if (metric.kind() != Metric.Kind.RUN && statistics != 1) {
            throw new ExtensionConfigurationException(name + " on " + where
                    + ": set exactly one of percentile, mean = true or max = true (found " + statistics + ")");
        }
        boolean atMost = !Double.isNaN(annotation.atMost());
        boolean atLeast = !Double.isNaN(annotation.atLeast());
        if (atMost == atLeast) {
            throw new ExtensionConfigurationException(name + " on " + where
                    + ": set exactly one of atMost and atLeast (atMost = " + annotation.atMost() + ", atLeast = "
                    + annotation.atLeast() + ")");
        }
        double bound = atMost ? annotation.atMost() : annotation.atLeast();
        if (!Double.isFinite(bound) || bound < 0) {
            // Checked here, before the unit conversion, so the message shows the value the user wrote.
            throw new ExtensionConfigurationException(name + " on " + where + ": " + (atMost ? "atMost" : "atLeast")
                    + " = " + bound + " must be a finite value of at least 0");
        }
        double threshold = metric.isLatency() ? bound * nanosPer(annotation.unit()) : bound;
        return validate(
                () -> {
                    dev.goodput.core.Objective.Builder builder = Objective.of(metric);
                    if (!Double.isNaN(annotation.percentile())) {
                        builder.percentile(annotation.percentile());
                    } else if (annotation.mean()) {
                        builder.mean();
                    } else if (annotation.max()) {
                        builder.max();
                    }
                    return atMost ? builder.atMost(threshold) : builder.atLeast(threshold);
                },
                name,
                where);
    }

    private static double nanosPer(TimeUnit unit) {
        return unit.toNanos(1);
    }

    /** Returns the annotation on the method, else on the class or a class enclosing it (nearest first). */
    static <A extends Annotation> Optional<A> nearest(Class<?> testClass, Method method, Class<A> type) {
        Optional<A> found = AnnotationSupport.findAnnotation(method, type);
        for (Class<?> level = testClass; found.isEmpty() && level != null; level = level.getEnclosingClass()) {
            found = AnnotationSupport.findAnnotation(level, type);
        }
        return found;
    }

    private static List<Class<?>> enclosingFirst(Class<?> testClass) {
        List<Class<?>> levels = new ArrayList<>();
        for (Class<?> level = testClass; level != null; level = level.getEnclosingClass()) {
            levels.add(0, level);
        }
        return levels;
    }

    static <T> T validate(java.util.function.Supplier<T> action, String annotation, String where) {
        try {
            return action.get();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ExtensionConfigurationException(annotation + " on " + where + ": " + e.getMessage(), e);
        }
    }

    private static void validate(Runnable action, String annotation, String where) {
        validate(
                () -> {
                    action.run();
                    return null;
                },
                annotation,
                where);
    }

    static Duration seconds(double seconds) {
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }
}
