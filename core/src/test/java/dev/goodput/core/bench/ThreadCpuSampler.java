package dev.goodput.core.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a run's CPU went, by thread, including the JVM's own (garbage collection, JIT compilation), and how often
 * the threads were switched out: reads each of this process's threads in {@code /proc/self/task} every 50 ms, so
 * that threads which end during the run (its transport's, its scheduler's, its pause meter's) are counted up to
 * their last reading. Reading the process's totals after a run would lose what its ended threads did. Linux only;
 * the CPU resolution is the kernel's clock tick (10 ms), fine over runs of seconds. The sampler's own CPU is
 * measured so that the caller can take it out of the process's.
 */
final class ThreadCpuSampler implements AutoCloseable {

    private static final long NANOS_PER_TICK = 10_000_000L; // USER_HZ is 100 on Linux

    private final Map<String, Long> before = new HashMap<>();
    private final Map<String, Long> latest = new ConcurrentHashMap<>();
    private final Map<String, Long> switchesBefore = new HashMap<>();
    private final Map<String, Long> switchesLatest = new ConcurrentHashMap<>();
    private volatile long ownCpuNanos;
    private final Map<String, String> names = new ConcurrentHashMap<>();
    private final Thread sampler = new Thread(this::sample, "bench-cpu-sampler");
    private volatile boolean running = true;

    ThreadCpuSampler() {
        read(before, switchesBefore);
        sampler.setDaemon(true);
        sampler.start();
    }

    private void read(Map<String, Long> into, Map<String, Long> switchesInto) {
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    int close = stat.lastIndexOf(')');
                    String name = stat.substring(stat.indexOf('(') + 1, close);
                    String[] fields = stat.substring(close + 2).split(" ");
                    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime + stime
                    String id = task.getFileName().toString();
                    long switches = 0;
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.contains("ctxt_switches")) {
                            switches += Long.parseLong(
                                    line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                    into.put(id, ticks);
                    switchesInto.put(id, switches);
                    names.put(id, name); // the latest: a new thread bears its creator's name until it sets its own
                } catch (IOException | RuntimeException ended) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            // not Linux: no breakdown
        }
    }

    private void sample() {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        while (running) {
            read(latest, switchesLatest);
            ownCpuNanos = threads.getCurrentThreadCpuTime();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.join();
        read(latest, switchesLatest);
    }

    /** The CPU this sampler used, to be taken out of the process's. */
    long ownCpuNanos() {
        return ownCpuNanos;
    }

    /** The CPU the JIT compiler's threads used. */
    long compilerCpuNanos() {
        long total = 0;
        for (Map.Entry<String, Long> now : latest.entrySet()) {
            if (names.get(now.getKey()).contains("CompilerThre")) {
                total += (now.getValue() - before.getOrDefault(now.getKey(), 0L)) * NANOS_PER_TICK;
            }
        }
        return total;
    }

    /** Voluntary and involuntary context switches of all the process's threads, the sampler's excepted. */
    long contextSwitches() {
        long total = 0;
        for (Map.Entry<String, Long> now : switchesLatest.entrySet()) {
            if (!names.get(now.getKey()).startsWith("bench-cpu-")) {
                total += now.getValue() - switchesBefore.getOrDefault(now.getKey(), 0L);
            }
        }
        return total;
    }

    /**
     * The run's CPU as shares of the process's, by thread name with digits dropped (so a pool's threads add up);
     * names are the kernel's, cut to 15 characters. Names under 1 % are left out.
     */
    String shares(long processCpuNanos) {
        Map<String, Long> byName = new TreeMap<>();
        for (Map.Entry<String, Long> now : latest.entrySet()) {
            String name = names.get(now.getKey());
            if (name.startsWith("bench-cpu-")) {
                continue; // this sampler
            }
            long used = (now.getValue() - before.getOrDefault(now.getKey(), 0L)) * NANOS_PER_TICK;
            byName.merge(name.replaceAll("[0-9]+", "#"), used, Long::sum);
        }
        StringBuilder text = new StringBuilder();
        byName.entrySet().stream()
                .filter(e -> e.getValue() * 100 >= processCpuNanos)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> text.append(String.format(
                        Locale.ROOT,
                        "%s%s %.0f%%",
                        text.length() == 0 ? "" : ", ",
                        e.getKey(),
                        100.0 * e.getValue() / processCpuNanos)));
        return text.toString();
    }
}
