package dev.goodput.junit;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.RunSpec;
import dev.goodput.core.SampleSize;
import dev.goodput.core.load.Load;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.workload.TimedWorkload;
import dev.goodput.core.workload.WorkloadSpec;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
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
 * (or none), the objectives and the sweep (or none). A bad annotation fails with an {@link
 * ExtensionConfigurationException} naming the annotation, the attribute and the value, before any server is
 * started or load sent. The core checks every value; this class checks only the annotations' own shape.
 *
 * @param workload the workload
 * @param load the load (scaled by {@code goodput.load.scale}), or empty when the method runs no load itself; for a
 *     sweep, the load of one run, whose rate each run replaces
 * @param objectives the objectives, class-level ones first, a method's own replacing the class's on the same key
 * @param sweep the {@link LoadSweep}, when the method is a sweep
 */
record GateDefinition(WorkloadSpec workload, Optional<Load> load, List<SloSpec> objectives, Optional<LoadSweep> sweep) {

    static GateDefinition of(Class<?> testClass, Method method, String where, double loadScale) {
        return of(testClass, method, where, loadScale, true);
    }

    static GateDefinition of(Class<?> testClass, Method method, String where, GoodputConfiguration configuration) {
        return of(testClass, method, where, configuration.loadScale(), configuration.failOnInconclusive());
    }

    /**
     * @param failOnTooFewSamples whether a load too small for a percentile objective to be met fails here, before
     *     any server is started (else the run notes it: {@code goodput.slo.inconclusive=warn})
     */
    static GateDefinition of(
            Class<?> testClass, Method method, String where, double loadScale, boolean failOnTooFewSamples) {
        WorkloadSpec workload = TrafficAnnotations.nearest(testClass, method, where)
                .orElseGet(() -> WorkloadSpec.synthetic().build());
        Optional<LoadSweep> sweep = nearest(testClass, method, LoadSweep.class);
        Optional<LoadProfile> profile =
                sweep.isPresent() ? Optional.empty() : nearest(testClass, method, LoadProfile.class);
        Optional<Load> load = sweep.isPresent()
                ? sweep.map(annotation -> SweepGate.runLoad(annotation, where))
                : profile.map(annotation -> LoadProfiles.of(annotation, where));
        load = load.map(value -> value.scaled(loadScale));
        if (workload instanceof TimedWorkload trace) {
            if (load.isPresent()) {
                throw new ExtensionConfigurationException("@LoadProfile on " + where
                        + " does not fit @Workload(trace = ...): a trace replays its own arrival times; remove it");
            }
            long requests = Math.max(1, Math.min(trace.size(), Math.round(trace.size() * loadScale)));
            load = Optional.of(Load.traceReplay().requests(requests));
        }
        List<SloSpec> objectives = objectives(testClass, method, where);
        if (load.isEmpty() && !objectives.isEmpty()) {
            throw new ExtensionConfigurationException(
                    "@Slo on " + where + " has no load to judge: add @LoadProfile to the method or the class");
        }
        UnusedAnnotations.check(testClass, method, where, load.isPresent());
        if (profile.isPresent() && profile.get().requests() == LoadProfile.AUTO && load.isPresent()) {
            load = Optional.of(LoadProfiles.sizedFor(profile.get(), load.get(), objectives, workload, where));
        }
        load.ifPresent(value -> new AnnotationSettings("@Slo", where).apply(() -> {
            RunSpec.checkFits(workload, value, objectives);
            return null;
        }));
        if (load.isPresent() && sweep.isEmpty() && failOnTooFewSamples) {
            // An A/B gate's load is one block; the candidate's objectives are judged over all its blocks, so the
            // sample it can reach is its most pairs' worth of blocks.
            Optional<ABGate> ab = nearest(testClass, method, ABGate.class);
            Load judged =
                    ab.isEmpty() ? load.get() : armLoad(load.get(), ab.get().maxPairs());
            if (!objectives.isEmpty()) {
                // One count of what the load plans for all objectives; a refusal names its own @Slo.
                for (SampleSize size : SampleSize.of(judged, objectives, RunSpec.DEFAULT_CONFIDENCE, workload)) {
                    if (size.isTooFew()) {
                        refuseSampleSize(size.objective(), workload, judged, loadScale, where);
                    }
                }
            }
        }
        return new GateDefinition(workload, load, objectives, sweep);
    }

    /** Returns the load one arm of an A/B gate offers at most: {@code maxPairs} blocks' measured requests. */
    private static Load armLoad(Load block, int maxPairs) {
        long warmup = block.warmup().requests().orElse(0);
        long measured = block.limits().requests().orElse(warmup) - warmup;
        return block.requests(Math.max(1, maxPairs) * measured + warmup);
    }

    /**
     * Refuses a load too small for the objective to be met, naming its {@code @Slo}; a sweep is not checked (it
     * judges rates by attainment), and a scaled load says by how much it was scaled.
     */
    private static void refuseSampleSize(
            SloSpec objective, WorkloadSpec workload, Load load, double loadScale, String where) {
        new AnnotationSettings("@Slo(metric = " + objective.metric() + ")", where).apply(() -> {
            try {
                RunSpec.checkSampleSize(load, List.of(objective), RunSpec.DEFAULT_CONFIDENCE, workload);
            } catch (InvalidSettingException e) {
                if (loadScale == 1) {
                    throw e;
                }
                throw InvalidSettingException.conflict(
                        name -> e.message(name) + ", after " + GoodputConfiguration.LOAD_SCALE + " = " + loadScale,
                        e.settings().toArray(String[]::new));
            }
            return null;
        });
    }

    private static List<SloSpec> objectives(Class<?> testClass, Method method, String where) {
        Map<String, SloSpec> byKey = new LinkedHashMap<>();
        List<AnnotatedElement> levels = new ArrayList<>(enclosingFirst(testClass));
        levels.add(method);
        for (AnnotatedElement level : levels) {
            for (Slo annotation : AnnotationSupport.findRepeatableAnnotations(level, Slo.class)) {
                SloSpec objective = objective(annotation, where);
                byKey.remove(key(objective));
                byKey.put(key(objective), objective);
            }
        }
        return List.copyOf(byKey.values());
    }

    private static String key(SloSpec objective) {
        return objective.metric() + "/" + objective.statistic() + "/" + objective.percentile() + "/"
                + objective.comparison() + "/" + objective.trafficClass();
    }

    static SloSpec objective(Slo annotation, String where) {
        Metric metric = annotation.metric();
        boolean atMost = !Double.isNaN(annotation.atMost());
        double bound = atMost ? annotation.atMost() : annotation.atLeast();
        AnnotationSettings names = new AnnotationSettings("@Slo(metric = " + metric + ")", where)
                .map("percentile", "percentile", annotation.percentile())
                .map("threshold", atMost ? "atMost" : "atLeast", bound)
                .map("trafficClass", "trafficClass", '"' + annotation.trafficClass() + '"');
        int statistics = (Double.isNaN(annotation.percentile()) ? 0 : 1)
                + (annotation.mean() ? 1 : 0)
                + (annotation.max() ? 1 : 0);
        if (metric.kind() == Metric.Kind.RUN && statistics > 0) {
            throw names.refusal(metric + " is one value per run; remove percentile, mean and max");
        }
        if (!metric.isLatency() && annotation.unit() != TimeUnit.MILLISECONDS) {
            throw names.refusal("unit = " + annotation.unit() + " applies to a latency bound; " + metric
                    + " is not a latency, so remove unit");
        }
        if (metric.kind() != Metric.Kind.RUN && statistics != 1) {
            throw names.refusal("set exactly one of percentile, mean = true or max = true (found " + statistics + ")");
        }
        if (atMost == !Double.isNaN(annotation.atLeast())) {
            throw names.refusal("set exactly one of atMost and atLeast (atMost = " + annotation.atMost()
                    + ", atLeast = " + annotation.atLeast() + ")");
        }
        // The core checks the bound; the unit conversion keeps its sign and whether it is finite.
        double threshold = metric.isLatency() ? bound * nanosPer(annotation.unit()) : bound;
        return names.apply(() -> {
            SloSpec.Builder builder = SloSpec.of(metric);
            if (!Double.isNaN(annotation.percentile())) {
                builder.percentile(annotation.percentile());
            } else if (annotation.mean()) {
                builder.mean();
            } else if (annotation.max()) {
                builder.max();
            }
            if (!annotation.trafficClass().isEmpty()) {
                builder.inClass(annotation.trafficClass());
            }
            return atMost ? builder.atMost(threshold) : builder.atLeast(threshold);
        });
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
}
