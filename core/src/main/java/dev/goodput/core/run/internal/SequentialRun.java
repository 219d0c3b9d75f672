package dev.goodput.core.run.internal;

import dev.goodput.core.RunSpec;
import dev.goodput.core.load.RunLength;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.slo.internal.SloEvaluator;
import dev.goodput.core.stats.internal.Confidence;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A run that lasts until its objectives are decided ({@link dev.goodput.core.load.Load#untilDecided}): at each look of its
 * {@link LookPlan}, once every measured request up to the look has ended, it judges exactly those requests at the
 * plan's look confidence, on its scheduler's side thread; at the first look where no objective is INCONCLUSIVE, or one is VIOLATED, it
 * stops the driver creating requests. Its result judges the requests of its deciding look (or all measured ones, when
 * no look decided), and counts the measured requests created after that look as cool-down, excluded from every
 * metric like any cool-down.
 *
 * <p>Concurrency contract: {@link #lookReady} is called on the driver's threads; looks run one at a time on the side
 * executor, in order; {@link #result} waits for every look asked for before it computes.
 */
public final class SequentialRun implements LoadDriver.LookListener {

    private final RunSpec spec;
    private final LookPlan plan;
    private final RunRecorder recorder;
    private final LoadDriver driver;
    private final Executor sideWork;
    private final RunEnvironment lookEnvironment;

    // Guarded by this.
    private final List<RunLength.Look> looks = new ArrayList<>();
    private CompletableFuture<Void> pending = CompletableFuture.completedFuture(null);
    private long decidedEndIndex = -1;

    private SequentialRun(
            RunSpec spec,
            LookPlan plan,
            RunRecorder recorder,
            LoadDriver driver,
            Executor sideWork,
            RunEnvironment lookEnvironment) {
        this.spec = spec;
        this.plan = plan;
        this.recorder = recorder;
        this.driver = driver;
        this.sideWork = sideWork;
        this.lookEnvironment = lookEnvironment;
    }

    /**
     * Attaches the looks of the spec's plan to a driver that has not started; returns {@code null} for a run of fixed
     * length.
     */
    public static SequentialRun attach(
            RunSpec spec, RunRecorder recorder, LoadDriver driver, Executor sideWork, RunEnvironment environment) {
        return LookPlan.of(spec.load(), spec.confidence())
                .map(plan -> {
                    SequentialRun run = new SequentialRun(spec, plan, recorder, driver, sideWork, environment);
                    driver.looks(plan.measuredCounts(), run);
                    return run;
                })
                .orElse(null);
    }

    @Override
    public synchronized void lookReady(int look, long endIndex) {
        pending = pending.thenRunAsync(() -> look(look, endIndex), sideWork);
    }

    private void look(int look, long endIndex) {
        synchronized (this) {
            if (decidedEndIndex >= 0) {
                return;
            }
        }
        RunResult judged = ResultCalculator.compute(
                spec, lookEnvironment, recorder.snapshot(endIndex, false), plan.lookConfidence());
        int undecided = (int) judged.verdicts().stream()
                .filter(verdict -> verdict.verdict() == Verdict.INCONCLUSIVE)
                .count();
        // A VIOLATED objective decides the gate whatever the undecided ones would say: the intervals of all looks
        // hold together, so the miss found at this look stays valid, and looking on would only spend time.
        boolean missed = judged.verdicts().stream().anyMatch(verdict -> verdict.verdict() == Verdict.VIOLATED);
        boolean decided = (undecided == 0 || missed) && !judged.verdicts().isEmpty();
        synchronized (this) {
            looks.add(new RunLength.Look(
                    look + 1,
                    plan.looks(),
                    plan.measuredAt(look),
                    judged.verdicts().size() - undecided,
                    undecided));
            if (decided) {
                decidedEndIndex = endIndex;
            }
        }
        if (decided) {
            driver.stopCreating();
        }
    }

    /**
     * Returns the run's result once its driver has finished: the requests of its deciding look judged at the look
     * confidence, with its {@link RunLength}.
     */
    public RunResult result(RunEnvironment environment) {
        CompletableFuture<Void> last;
        synchronized (this) {
            last = pending;
        }
        last.join();
        long endIndex;
        List<RunLength.Look> taken;
        synchronized (this) {
            endIndex = decidedEndIndex >= 0 ? decidedEndIndex : Long.MAX_VALUE;
            taken = List.copyOf(looks);
        }
        RunResult result =
                ResultCalculator.compute(spec, environment, recorder.snapshot(endIndex, true), plan.lookConfidence());
        boolean decided = endIndex != Long.MAX_VALUE;
        long more = decided ? -1 : moreRequestsToDecide(result);
        return result.withRunLength(new RunLength(
                true, taken, plan.lookConfidence(), decided, more, stopReason(result, taken, decided, more)));
    }

    private String stopReason(RunResult result, List<RunLength.Look> taken, boolean decided, long more) {
        String levels = String.format(
                Locale.ROOT,
                "each look at %s%% so that all %d together keep %s%%",
                Confidence.percent(plan.lookConfidence()),
                plan.looks(),
                Confidence.percent(spec.confidence()));
        if (decided) {
            RunLength.Look look = taken.get(taken.size() - 1);
            String at = "decided at look " + look.number() + " of " + look.planned() + ", after "
                    + look.measuredRequests() + " measured requests: ";
            if (look.undecided() > 0) {
                return at + "an objective was VIOLATED, so the gate fails whatever the " + look.undecided()
                        + " undecided ones would say (" + levels + ")";
            }
            return at + "every objective's interval lies on one side of its bound (" + levels + ")";
        }
        long measured = result.accounting().measured();
        String estimate = more >= 0
                ? "; roughly " + more + " more measured requests would decide it"
                : "; no estimate of how many more would decide it";
        if (taken.size() < plan.looks()) {
            return "not decided: the run ended after " + measured + " measured requests, before look "
                    + (taken.size() + 1) + " of " + plan.looks() + estimate + " (" + levels + ")";
        }
        return "not decided at its maximum, look " + plan.looks() + " of " + plan.looks() + " after " + measured
                + " measured requests" + estimate + " (" + levels + ")";
    }

    /**
     * Returns roughly how many more measured requests would decide every undecided objective: an interval's half
     * width shrinks as one over the square root of the count, so an objective whose estimate lies {@code d} from its
     * bound with a half width {@code h} on the bound's side needs about {@code n (h / d)²}. -1 when an undecided
     * objective has no interval to estimate from, or sits on its bound.
     */
    static long moreRequestsToDecide(RunResult result) {
        long most = 0;
        for (SloVerdict verdict : result.verdicts()) {
            if (verdict.verdict() != Verdict.INCONCLUSIVE) {
                continue;
            }
            if (verdict.interval() == null
                    || !verdict.interval().hasLower()
                    || !verdict.interval().hasUpper()
                    || Double.isNaN(verdict.measured())) {
                return -1;
            }
            double bound = verdict.objective().threshold();
            double distance = Math.abs(verdict.measured() - bound);
            if (distance == 0) {
                return -1;
            }
            double halfWidth = verdict.measured() < bound
                    ? verdict.interval().upper() - verdict.measured()
                    : verdict.measured() - verdict.interval().lower();
            double needed = verdict.sampleCount() * (halfWidth / distance) * (halfWidth / distance);
            double confidence = verdict.interval().confidence();
            if (SloEvaluator.isTooShortForItsCorrelation(verdict.sampleCount(), verdict.effectiveCount(), confidence)) {
                // Not decided for too few effective samples: at least as many more as reach the least trusted.
                needed = Math.max(
                        needed,
                        verdict.sampleCount()
                                * SloEvaluator.minCorrelatedEffective(confidence)
                                / verdict.effectiveCount());
            }
            most = Math.max(most, (long) Math.ceil(needed) - verdict.sampleCount());
        }
        return most;
    }
}
