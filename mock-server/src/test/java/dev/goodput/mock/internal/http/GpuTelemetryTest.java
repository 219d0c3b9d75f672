package dev.goodput.mock.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.mock.SimulatedMetrics;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The simulated GPU on made-up times: utilisation over the last second, power from it, energy integrated. */
class GpuTelemetryTest {

    private static final long MILLI = 1_000_000L;
    private static final long SECOND = 1_000 * MILLI;
    private static final long TICK = GpuTelemetry.SAMPLE_PERIOD_MILLIS * MILLI;

    private final GpuTelemetry gpu = new GpuTelemetry(SimulatedMetrics.defaults(), 0, 0);
    private long now;
    private long busy;
    private double integratedJoules;

    /** Advances by {@code seconds} in ticks, busy for {@code share} of each, integrating the exported power. */
    private void run(double seconds, double share) {
        for (long t = 0; t < Math.round(seconds * SECOND / TICK); t++) {
            now += TICK;
            busy += Math.round(share * TICK);
            gpu.sample(now, busy);
            integratedJoules += gpu.powerWatts() * TICK / 1e9;
        }
    }

    @Test
    @DisplayName("utilisation is the busy share of the last second and power rises with it from idle to busy")
    void utilisationAndPower() {
        assertThat(gpu.utilization()).isZero();
        assertThat(gpu.powerWatts()).isEqualTo(70);
        run(2, 1.0);
        run(1, 0.6);
        assertThat(gpu.utilization()).isCloseTo(0.6, within(1e-9));
        assertThat(gpu.powerWatts()).isCloseTo(70 + 280 * 0.6, within(1e-6));
        run(0.5, 0.0);
        // Half of the last second at 60 %, half idle.
        assertThat(gpu.utilization()).isCloseTo(0.3, within(1e-9));
    }

    @Test
    @DisplayName("after a restart (a reset engine's busy time starts again from 0) it reads as a fresh GPU")
    void restartReadsAsAFreshGpu() {
        run(2, 1.0);
        gpu.restart(now, 0);
        busy = 0;
        assertThat(gpu.energyMillijoules()).isZero();
        assertThat(gpu.utilization()).isZero();
        run(1, 0.5);
        assertThat(gpu.utilization()).isCloseTo(0.5, within(1e-9));
        assertThat(gpu.energyMillijoules()).isEqualTo(Math.round((70 + 280 * 0.5) * 1000));
    }

    @Test
    @DisplayName(
            "the energy counter is the integral of the power: exactly that of the busy time, and within one window of the exported power's")
    void energyIsTheIntegralOfPower() {
        run(20, 0.5);
        run(20, 1.0);
        run(10, 0.0);
        // 50 s at 70 W, plus 280 W over 10 + 20 busy seconds.
        double expectedJoules = 70 * 50 + 280 * 30;
        assertThat(gpu.energyMillijoules()).isCloseTo(Math.round(expectedJoules * 1000), within(1L));
        // The exported power lags the truth by its one-second window at each of the two changes of load.
        assertThat(integratedJoules).isCloseTo(expectedJoules, within(280.0 * 1));
        assertThat(Math.abs(integratedJoules - expectedJoules)).isPositive();
    }

    @Test
    @DisplayName("a step longer than the sampling period is counted in full, and utilisation never passes 100 %")
    void longStepIsCountedInFull() {
        now = 100 * MILLI;
        gpu.sample(now, 0);
        gpu.sample(now + 100 * MILLI, 300 * MILLI); // a 300 ms step ended: counted when it ends
        assertThat(gpu.utilization()).isEqualTo(1.0);
        assertThat(gpu.energyMillijoules()).isEqualTo(Math.round((70 * 0.2 + 280 * 0.3) * 1000));
    }

    @Test
    @DisplayName("a sample not later than the last one is ignored")
    void staleSampleIsIgnored() {
        gpu.sample(SECOND, SECOND / 2);
        long energy = gpu.energyMillijoules();
        gpu.sample(SECOND, SECOND);
        gpu.sample(SECOND / 2, SECOND);
        assertThat(gpu.energyMillijoules()).isEqualTo(energy);
        assertThat(gpu.utilization()).isCloseTo(0.5, within(1e-9));
    }

    @Test
    @DisplayName("it renders DCGM's names, types, units and labels")
    void rendersDcgmSeries() {
        run(1, 0.25);
        StringBuilder out = new StringBuilder();
        gpu.render(out);
        String labels = "{gpu=\"0\",UUID=\"GPU-00000000-0000-4000-8000-000000000000\","
                + "modelName=\"Goodput simulated GPU\",Hostname=\"goodput-mock\"}";
        assertThat(out.toString())
                .contains("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\nDCGM_FI_DEV_GPU_UTIL" + labels + " 25\n")
                .contains("# TYPE DCGM_FI_DEV_POWER_USAGE gauge\nDCGM_FI_DEV_POWER_USAGE" + labels + " 140.0\n")
                .contains("# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\n"
                        + "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION" + labels + " 140000\n");
    }
}
