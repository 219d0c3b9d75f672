package dev.goodput.realserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.goodput.core.ab.ABResult;
import dev.goodput.core.ab.PairedChange;
import dev.goodput.core.compare.ChangeVerdict;
import dev.goodput.core.compare.MetricChange;
import dev.goodput.core.record.Phase;
import dev.goodput.core.result.RunResult;
import dev.goodput.junit.ABGate;
import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.ServerVariant;
import dev.goodput.junit.Workload;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * An A/B gate between two real llama-servers that differ in one setting, their slots ({@code --parallel}), under four
 * users. The baseline's one slot serves the users one after another; the candidate's four decode all of them in each
 * step, and on one CPU thread a step of four sequences costs well over twice a step of one, so every token comes
 * later (and the first comes sooner: nobody queues). The gate ({@link MoreSlots}, written as a user writes one)
 * must fail on TPOT, and the engine's own time per token ({@code predicted_per_token_ms}) must rise with it.
 *
 * <p>The gate runs through JUnit's {@link EngineTestKit}, as junit-extension's own tests run theirs, because the
 * outcome to check is a failing gate: {@link ABGate} fails its test on a regression, with no attribute to expect one.
 */
@RequiresLlamaServer
class LlamaCppABGateTest {

    /**
     * The least rise of the engine's time per token, and of the lower end of TPOT p50's interval, that counts as the
     * effect: in five runs here the former was +142 % or more, the latter +80 % or more (docs/real-servers.md).
     */
    private static final double LARGE_CHANGE = 0.3;

    @GoodputTest
    static class MoreSlots {
        static ABResult captured;

        static ServerVariant oneSlot() {
            return ServerVariant.of("--parallel 1", LlamaServer.withSlots(1, 2048));
        }

        // Each slot gets the same 2048 tokens of context as the baseline's one: only the slots differ.
        static ServerVariant fourSlots() {
            return ServerVariant.of("--parallel 4", LlamaServer.withSlots(4, 4 * 2048));
        }

        // One look after eight pairs of blocks: the effect is far above the noise (five runs of six pairs decided
        // it, docs/real-servers.md), and the run stays well under a minute.
        @Test
        @ABGate(baseline = "oneSlot", candidate = "fourSlots", firstLookPairs = 8, maxPairs = 8)
        @Workload(inputTokens = 64, outputTokens = 16, seed = 7)
        @LoadProfile(concurrency = 4, requests = 16, warmupRequests = 4)
        void four_slots_serve_four_users_no_slower_than_one(ABResult result) {
            captured = result;
        }
    }

    @Test
    void should_fail_the_gate_on_TPOT_in_the_direction_of_the_engines_own_time_per_token() {
        List<Event> failures = EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(MoreSlots.class))
                .execute()
                .testEvents()
                .failed()
                .list();

        ABResult result = MoreSlots.captured;
        assertThat(result).as("the gate's A/B result").isNotNull();
        PairedChange tpot = result.change("TPOT p50").orElseThrow();
        double engineBaseline = engineMillisPerToken(result.baseline());
        double engineCandidate = engineMillisPerToken(result.candidate());
        double engineChange = engineCandidate / engineBaseline - 1;
        System.out.printf(
                Locale.ROOT,
                "[ab] %s; engine predicted_per_token_ms p50 %.2f -> %.2f (%s); took %s%n",
                tpot.change().describe(),
                engineBaseline,
                engineCandidate,
                MetricChange.percent(engineChange),
                result.took());
        result.changes().forEach(change -> System.out.println("[ab]   " + change.describe()));

        assertThat(failures).as("the gate's failures").hasSize(1);
        assertThat(failures.get(0)
                        .getPayload(TestExecutionResult.class)
                        .orElseThrow()
                        .getThrowable()
                        .orElseThrow()
                        .getMessage())
                .contains("REGRESSED against the baseline")
                .contains("TPOT p50 +");
        assertThat(result.verdict()).isEqualTo(ChangeVerdict.REGRESSED);
        assertThat(tpot.verdict()).isEqualTo(ChangeVerdict.REGRESSED);
        // The engine's own time per token rises too, by as much as Goodput's interval on TPOT p50 says.
        assertThat(engineChange).as("the engine's change of its time per token").isGreaterThan(LARGE_CHANGE);
        assertThat(tpot.change().changeLower())
                .as("the lower end of TPOT p50's interval")
                .isGreaterThan(LARGE_CHANGE);
        assertThat(engineChange)
                .as("the engine's change of its time per token, within TPOT p50's interval")
                .isBetween(tpot.change().changeLower(), tpot.change().changeUpper());
        // The other side of the trade: with a slot each, no user waits for another's request to end.
        assertThat(result.change("TTFT p50").orElseThrow().verdict()).isEqualTo(ChangeVerdict.IMPROVED);
    }

    /** Returns the median of the engine's {@code predicted_per_token_ms} over an arm's measured requests. */
    private static double engineMillisPerToken(RunResult arm) {
        double[] perToken = arm.records().stream()
                .filter(record -> record.phase() == Phase.MEASURED && record.serverTimings() != null)
                .mapToDouble(record -> record.serverTimings().predictedMillisPerToken())
                .sorted()
                .toArray();
        assertThat(perToken).as("the engine's timings of the measured requests").isNotEmpty();
        int middle = perToken.length / 2;
        return perToken.length % 2 == 1 ? perToken[middle] : (perToken[middle - 1] + perToken[middle]) / 2;
    }
}
