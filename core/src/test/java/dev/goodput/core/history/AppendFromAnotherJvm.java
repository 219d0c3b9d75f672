package dev.goodput.core.history;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/** Appends entries to a history file from its own JVM, for {@link RunHistoryTest}'s test of parallel test JVMs. */
public final class AppendFromAnotherJvm {

    private AppendFromAnotherJvm() {}

    /** Arguments: the file, the test id, the number of entries. */
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int count = Integer.parseInt(args[2]);
        for (int i = 0; i < count; i++) {
            // A long line, so that an unlocked append would have many chances to interleave.
            RunHistory.append(
                    file,
                    new HistoryEntry(args[1], Instant.EPOCH, "x".repeat(2000), "", "dev", Map.of("value", (double) i)));
        }
    }
}
