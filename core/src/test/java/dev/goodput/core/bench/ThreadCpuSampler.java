package dev.goodput.core.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a run's CPU went, by thread, including the JVM's own (garbage collection, JIT compilation), and how often
 * the threads were switched out: reads each of this process's threads in {@code /proc/self/task} every 200 ms, so
 * that threads which end during the run (its transport's, its scheduler's, its pause meter's) are counted up to
 * their last reading. Reading the process's totals after a run would lose what its ended threads did. Linux only;
 * the CPU resolution is the kernel's clock tick (10 ms), fine over runs of seconds. The sampler's own CPU is
 * measured so that the caller can take it out of the process's.
 */
final class ThreadCpuSampler implements AutoCloseable {

    private static final long NANOS_PER_TICK = 10_000_000L; // USER_HZ is 100 on Linux

    /**
     * How often the threads are read. .ci/bench-client keeps this class out of the JIT compiler
     * ({@code -XX:CompileCommand=exclude}): compiled, its parsing loop was the largest single compilation of a whole
     * benchmark (C2 compiled it again and again, 16 s of compiler threads' time in one run on a busy machine), and
     * that time was charged to the client under measurement as JIT compilation. Interpreted, a reading costs a few
     * milliseconds of this thread's own CPU (taken out of the figures), so it reads less often than the 50 ms it
     * used to: a thread that ends during a run loses at most this much of its breakdown, never of the total, which
     * is the process's.
     */
    private static final long PERIOD_MILLIS = 200;

    private static final java.io.File TASKS = new java.io.File("/proc/self/task");
    private static final byte[] VOLUNTARY = "voluntary_ctxt_switches:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NONVOLUNTARY = "nonvoluntary_ctxt_switches:".getBytes(StandardCharsets.US_ASCII);

    private final Map<String, Long> before = new HashMap<>();
    private final Map<String, Long> latest = new ConcurrentHashMap<>();
    private final Map<String, Long> switchesBefore = new HashMap<>();
    private final Map<String, Long> switchesLatest = new ConcurrentHashMap<>();
    private volatile long ownCpuNanos;
    private final Map<String, String> names = new ConcurrentHashMap<>();
    private final Thread sampler = new Thread(this::sample, "bench-cpu-sampler");
    private volatile boolean running = true;

    /**
     * The bytes of the file last read. One thread at a time reads: the constructor, then the sampler (started by it),
     * then {@link #close()} (after joining it).
     */
    private byte[] buffer = new byte[8192];

    ThreadCpuSampler() {
        read(before, switchesBefore);
        sampler.setDaemon(true);
        sampler.start();
    }

    /**
     * Reads every thread's CPU ticks and context switches. Parses the bytes by hand into one reused buffer: reading
     * {@code /proc} with {@code Files.readAllLines} and {@code String.split}, as this did at first, made most of the
     * JVM's garbage during a run and so young-generation pauses of 5-15 ms every two seconds or so, which stopped the
     * client under measurement and showed in its p99 figures.
     */
    private void read(Map<String, Long> into, Map<String, Long> switchesInto) {
        String[] tasks = TASKS.list();
        if (tasks == null) {
            return; // not Linux: no breakdown
        }
        for (String id : tasks) {
            try {
                int length = readFile("/proc/self/task/" + id + "/stat");
                int open = indexOf((byte) '(', 0, length);
                int close = lastIndexOf((byte) ')', length);
                // Fields after the name, from 0: state, ppid, ..., utime is the 11th and stime the 12th.
                int at = close + 2;
                for (int field = 0; field < 11; field++) {
                    at = indexOf((byte) ' ', at, length) + 1;
                }
                long utime = parseLong(at);
                long stime = parseLong(indexOf((byte) ' ', at, length) + 1);
                if (!names.containsKey(id) || !sameName(names.get(id), open + 1, close)) {
                    // the latest: a new thread bears its creator's name until it sets its own
                    names.put(id, new String(buffer, open + 1, close - open - 1, StandardCharsets.UTF_8));
                }
                length = readFile("/proc/self/task/" + id + "/status");
                long switches = 0;
                for (int line = 0; line < length; ) {
                    if (startsWith(VOLUNTARY, line, length) || startsWith(NONVOLUNTARY, line, length)) {
                        int value = indexOf((byte) ':', line, length) + 1;
                        while (buffer[value] == ' ' || buffer[value] == '\t') {
                            value++;
                        }
                        switches += parseLong(value);
                    }
                    int newline = indexOf((byte) '\n', line, length);
                    line = newline < 0 ? length : newline + 1;
                }
                into.put(id, utime + stime);
                switchesInto.put(id, switches);
            } catch (IOException | RuntimeException ended) {
                // the thread ended meanwhile
            }
        }
    }

    private int readFile(String path) throws IOException {
        try (java.io.FileInputStream in = new java.io.FileInputStream(path)) {
            int length = 0;
            for (int read = 0; read >= 0; read = in.read(buffer, length, buffer.length - length)) {
                length += read;
                if (length == buffer.length) {
                    buffer = java.util.Arrays.copyOf(buffer, 2 * buffer.length);
                }
            }
            return length;
        }
    }

    private int indexOf(byte b, int from, int length) {
        for (int i = from; i < length; i++) {
            if (buffer[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private int lastIndexOf(byte b, int length) {
        for (int i = length - 1; i >= 0; i--) {
            if (buffer[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private long parseLong(int at) {
        long value = 0;
        for (int i = at; buffer[i] >= '0' && buffer[i] <= '9'; i++) {
            value = value * 10 + (buffer[i] - '0');
        }
        return value;
    }

    private boolean startsWith(byte[] prefix, int at, int length) {
        if (at + prefix.length > length) {
            return false;
        }
        for (int k = 0; k < prefix.length; k++) {
            if (buffer[at + k] != prefix[k]) {
                return false;
            }
        }
        return true;
    }

    private boolean sameName(String name, int from, int to) {
        if (name.length() != to - from) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) != (char) buffer[from + i]) {
                return false;
            }
        }
        return true;
    }

    private void sample() {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        while (running) {
            read(latest, switchesLatest);
            ownCpuNanos = threads.getCurrentThreadCpuTime();
            try {
                Thread.sleep(PERIOD_MILLIS);
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

    /**
     * Waits until the JIT compiler's threads have been asleep (state {@code S} in {@code /proc}, neither running nor
     * waiting for a core) at every look over {@code quietMillis}, at most {@code maxMillis}; returns how long it
     * waited. A measured run starts only then, so that it is not charged with compiling what ran before it (the
     * previous run, the benchmark's own matching and sorting of its samples). Its CPU alone would not do: on a busy
     * machine a compiler thread with a full queue waits for a core and uses none.
     */
    static long awaitQuietCompiler(long quietMillis, long maxMillis) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + maxMillis * 1_000_000L;
        long quietSince = start;
        while (System.nanoTime() < deadline) {
            Thread.sleep(50);
            if (compilerBusy()) {
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince >= quietMillis * 1_000_000L) {
                break;
            }
        }
        return (System.nanoTime() - start) / 1_000_000L;
    }

    /** Whether a JIT compiler thread is running or waiting for a core (state R), or could not be read. */
    private static boolean compilerBusy() {
        String[] tasks = TASKS.list();
        for (String id : tasks == null ? new String[0] : tasks) {
            try {
                String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/task", id, "stat"));
                int close = stat.lastIndexOf(')');
                if (stat.substring(stat.indexOf('(') + 1, close).contains("CompilerThre")
                        && stat.charAt(close + 2) == 'R') {
                    return true;
                }
            } catch (IOException | RuntimeException ended) {
                // the thread ended meanwhile
            }
        }
        return false;
    }
}
