package dev.goodput.core.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Opens a local HTML file in headless Chromium, with a fresh profile and every background connection turned off,
 * to dump the DOM after its scripts ran (with the console on stderr) or to take a screenshot. A test that needs
 * it is skipped, with a message, where no chromium binary is on the PATH.
 */
public final class HeadlessChromium {

    private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome");
    private static final long TIMEOUT_SECONDS = 90;

    private final String binary;

    private HeadlessChromium(String binary) {
        this.binary = binary;
    }

    /** Returns the browser, or skips the calling test when none is installed. */
    public static HeadlessChromium requireInstalled() {
        Optional<String> binary = find();
        Assumptions.assumeTrue(
                binary.isPresent(),
                "chromium is not installed (looked for " + NAMES + " on the PATH); .ci/setup-chromium.sh installs it");
        return new HeadlessChromium(binary.get());
    }

    private static Optional<String> find() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String name : NAMES) {
            for (String dir : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate.toString());
                }
            }
        }
        return Optional.empty();
    }

    /** What one browser run printed. */
    public record Output(String stdout, String stderr) {}

    /** Loads the page and returns its DOM after the scripts ran, and the console output. */
    public Output dumpDom(Path page, Path workDir) throws IOException, InterruptedException {
        return run(workDir, "--dump-dom", page.toUri().toString());
    }

    /** Loads the page and saves a PNG screenshot of the given window size. */
    public Output screenshot(Path page, Path png, int width, int height) throws IOException, InterruptedException {
        return run(
                png.getParent(),
                "--screenshot=" + png.toAbsolutePath(),
                "--window-size=" + width + "," + height,
                "--hide-scrollbars",
                page.toUri().toString());
    }

    private static void deleteRecursively(Path directory) throws IOException {
        try (var paths = Files.walk(directory)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // A file Chromium still held: the profile stays under target/, which the next clean removes.
        }
    }

    private Output run(Path workDir, String... arguments) throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path profile = Files.createTempDirectory(workDir, "chromium-profile-");
        List<String> command = new ArrayList<>(List.of(
                binary,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--enable-logging=stderr",
                "--v=0",
                "--virtual-time-budget=3000",
                "--user-data-dir=" + profile.toAbsolutePath()));
        command.addAll(List.of(arguments));
        Path out = workDir.resolve("chromium.out");
        Path err = workDir.resolve("chromium.err");
        Process process = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IllegalStateException("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + command);
            }
        } finally {
            deleteRecursively(profile);
        }
        return new Output(Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }
}
