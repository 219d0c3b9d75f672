package dev.goodput.mock.internal.http;

import dev.goodput.mock.SimulatedMetrics;
import java.util.ArrayDeque;

/**
 * A simulated GPU's telemetry, under the names and units of NVIDIA's DCGM exporter: it is busy exactly while the
 * engine steps. It is fed samples of the engine's busy time (a timer every {@link #SAMPLE_PERIOD_MILLIS} ms, and
 * each scrape) on whatever clock the caller uses, so tests drive it on made-up times. Thread-safe.
 *
 * <p>Utilisation is the busy share of the last {@link #WINDOW_NANOS} (DCGM averages over its own sampling
 * period too). Energy integrates the true busy time, not the windowed utilisation: between two samples it adds
 * {@code idle x wall + (busy - idle) x busy time}, so over a run it equals the integral of the power the
 * engine's steps imply, whatever the sampling.
 */
final class GpuTelemetry {

    /** How often the server samples the engine's busy time. */
    static final long SAMPLE_PERIOD_MILLIS = 100;

    /** The span utilisation and power are averaged over. */
    static final long WINDOW_NANOS = 1_000_000_000L;

    private static final String LABELS =
            "gpu=\"0\",UUID=\"GPU-00000000-0000-4000-8000-000000000000\",modelName=\"Goodput simulated GPU\","
                    + "Hostname=\"goodput-mock\"";

    /** One sample: a time and the engine's total busy time then. */
    private record Point(long nanos, long busyNanos) {}

    private final double idleWatts;
    private final double busyWatts;
    private final ArrayDeque<Point> window = new ArrayDeque<>();
    private double energyJoules;

    GpuTelemetry(SimulatedMetrics settings, long startNanos, long busyNanosAtStart) {
        this.idleWatts = settings.gpuIdleWatts();
        this.busyWatts = settings.gpuBusyWatts();
        window.addLast(new Point(startNanos, busyNanosAtStart));
    }

    /**
     * Starts again as on a fresh server: no energy, and the window from {@code nowNanos}, when the engine's busy
     * time was {@code busyNanos} (a reset engine's starts again from 0).
     */
    synchronized void restart(long nowNanos, long busyNanos) {
        window.clear();
        window.addLast(new Point(nowNanos, busyNanos));
        energyJoules = 0;
    }

    /** Takes a sample; one not later than the last is ignored (the timer and a scrape may race). */
    synchronized void sample(long nowNanos, long busyNanos) {
        Point last = window.peekLast();
        if (nowNanos <= last.nanos()) {
            return;
        }
        long busy = Math.max(0, busyNanos - last.busyNanos());
        energyJoules += (idleWatts * (nowNanos - last.nanos()) + (busyWatts - idleWatts) * busy) / 1e9;
        window.addLast(new Point(nowNanos, Math.max(busyNanos, last.busyNanos())));
        while (window.size() > 2 && secondOldest().nanos() <= nowNanos - WINDOW_NANOS) {
            window.pollFirst();
        }
    }

    /** Returns the busy share of the last second, 0 to 1 (0 before the second sample). */
    synchronized double utilization() {
        Point first = window.peekFirst();
        Point last = window.peekLast();
        if (last.nanos() == first.nanos()) {
            return 0;
        }
        double share = (double) (last.busyNanos() - first.busyNanos()) / (last.nanos() - first.nanos());
        // A step's time is counted when it ends, so a long step can push one window's share past 1.
        return Math.min(1, share);
    }

    /** Returns the power drawn now, in watts: idle plus the busy share of the difference. */
    synchronized double powerWatts() {
        return idleWatts + (busyWatts - idleWatts) * utilization();
    }

    /** Returns the energy consumed since the server started, in millijoules (DCGM's unit). */
    synchronized long energyMillijoules() {
        return Math.round(energyJoules * 1000);
    }

    /** Appends the DCGM series: utilisation in whole percent, power in watts, energy in millijoules. */
    synchronized void render(StringBuilder out) {
        series(out, "DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", "gauge", Math.round(utilization() * 100));
        series(out, "DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", "gauge", powerWatts());
        series(
                out,
                "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
                "Total energy consumption since boot (in mJ).",
                "counter",
                energyMillijoules());
    }

    private Point secondOldest() {
        var points = window.iterator();
        points.next();
        return points.next();
    }

    private static void series(StringBuilder out, String name, String help, String type, Object value) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        out.append(name).append('{').append(LABELS).append("} ").append(value).append('\n');
    }
}
