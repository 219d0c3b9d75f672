package dev.goodput.mock.internal.cli;

import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/** {@code java -jar goodput-mock-server.jar}: runs the mock server until the process is stopped. */
public final class MockServerMain {

    /** Exit code of a command line that can't be used. */
    static final int USAGE_ERROR = 2;

    private MockServerMain() {}

    public static void main(String[] args) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        int code = run(args, System.out, System.err, server -> {
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                server.close();
                                stopped.countDown();
                            },
                            "goodput-mock-shutdown"));
        });
        if (code != 0) {
            System.exit(code);
        }
        if (!CliOptions.wantsHelp(args)) {
            stopped.await();
        }
    }

    /**
     * Runs the command line: prints help, or reports a bad option, or starts a server and hands it to {@code
     * started}.
     *
     * @return the exit code: 0, or {@value #USAGE_ERROR} for a bad command line, 1 if the server can't start
     */
    static int run(String[] args, PrintStream out, PrintStream err, Consumer<MockServer> started) {
        if (CliOptions.wantsHelp(args)) {
            out.print(Option.usage());
            return 0;
        }
        MockServerConfig config;
        try {
            config = CliOptions.parse(args);
        } catch (CliOptions.CliException e) {
            err.println("goodput-mock-server: " + e.getMessage());
            err.println("Try --help for the options.");
            return USAGE_ERROR;
        }
        MockServer server;
        try {
            server = MockServer.start(config);
        } catch (RuntimeException e) {
            err.println("goodput-mock-server: could not start: " + e.getMessage());
            return 1;
        }
        out.println("Goodput mock server listening on " + server.baseUrl() + " (model " + server.modelName()
                + ", performance model " + config.performanceModel().name() + ")");
        started.accept(server);
        return 0;
    }
}
