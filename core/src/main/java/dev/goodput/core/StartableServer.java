package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A server under test that a test framework can start and stop, such as a container with vLLM in it. The JUnit
 * extension starts one held by a {@code @ServerUnderTest} field before the first test that needs it and stops it
 * when the tests it served are done, unless it was already running, in which case whoever started it stops it.
 *
 * <p>Goodput's containers ({@code dev.goodput.testcontainers}) implement this interface; the names of its
 * methods are Testcontainers' own, so a container class implements it by adding {@link #serverEndpoint()}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface StartableServer {

    /** Starts the server and returns once it is ready to serve measured requests; does nothing if running. */
    void start();

    /** Stops the server and frees what it held; does nothing if it is not running. */
    void stop();

    /** Returns whether the server has been started and not stopped. */
    boolean isRunning();

    /**
     * Returns where the started server is and which model to ask for, with {@linkplain
     * ServerEndpoint#metadata() metadata} on how it was started (image, tag, engine arguments) for the run's
     * result.
     *
     * @throws IllegalStateException if the server is not running
     */
    ServerEndpoint serverEndpoint();
}
