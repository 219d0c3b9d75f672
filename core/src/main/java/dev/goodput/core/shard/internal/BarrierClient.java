package dev.goodput.core.shard.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A joining shard's side of the start barrier: measures its clock offset to the coordinator, checks in, and
 * converts the agreed start to its own clock. Unreachable coordinators, and coordinators still serving another
 * run, are tried again after a pause until the timeout, because shard 0's pod may come up after this one.
 */
final class BarrierClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration MOST_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** A clock reading is answered at once; one that takes longer is lost, and tried again. */
    private static final long MOST_WAIT = MOST_CONNECT_TIMEOUT.toNanos();

    private final int index;
    private final int count;
    private final String runId;
    private final String address;
    private final BarrierSettings settings;
    private final WallClock clock;
    private final HttpClient http;
    private final long deadline;
    private int attempts;
    private String lastError = "none";

    BarrierClient(
            int index,
            int count,
            String runId,
            InetSocketAddress coordinator,
            BarrierSettings settings,
            WallClock clock) {
        this.index = index;
        this.count = count;
        this.runId = runId;
        String host = coordinator.getHostString();
        this.address = (host.contains(":") ? "[" + host + "]" : host) + ":" + coordinator.getPort();
        this.settings = settings;
        this.clock = clock;
        this.deadline = System.nanoTime() + settings.timeout().toNanos();
        Duration connectTimeout =
                settings.timeout().compareTo(MOST_CONNECT_TIMEOUT) < 0 ? settings.timeout() : MOST_CONNECT_TIMEOUT;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                // Responses complete on the client's own selector thread, not after a hop to a pool thread: every
                // hop lengthens the return half of a clock exchange only, which biases the offset.
                .executor(Runnable::run)
                .build();
    }

    AgreedStart join() throws InterruptedException {
        ClockOffset offset = measureOffset();
        long agreed = checkIn();
        return new AgreedStart(agreed - offset.offsetNanos(), offset.offsetNanos(), offset.uncertaintyNanos(), agreed);
    }

    /** Makes {@code clockSamples} clock exchanges and keeps the one with the shortest round trip. */
    ClockOffset measureOffset() throws InterruptedException {
        ClockOffset best = null;
        for (int sample = 0; sample < settings.clockSamples(); sample++) {
            while (true) {
                HttpRequest request = HttpRequest.newBuilder(uri("/time"))
                        .timeout(Duration.ofNanos(Math.max(Math.min(deadline - System.nanoTime(), MOST_WAIT), 1)))
                        .GET()
                        .build();
                long t0 = clock.epochNanos();
                HttpResponse<String> response = send(request);
                long t3 = clock.epochNanos();
                if (response == null) {
                    continue;
                }
                ClockOffset measured = ClockOffset.of(t0, parseTime(response), t3);
                best = best == null ? measured : best.better(measured);
                break;
            }
        }
        return best;
    }

    private long checkIn() throws InterruptedException {
        ObjectNode body =
                JSON.createObjectNode().put("runId", runId).put("index", index).put("count", count);
        while (true) {
            long remaining = Math.max(deadline - System.nanoTime(), 1);
            HttpRequest request = HttpRequest.newBuilder(uri("/ready"))
                    .timeout(Duration.ofNanos(remaining))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                    .build();
            HttpResponse<String> response = send(request);
            if (response != null) {
                try {
                    JsonNode answer = JSON.readTree(response.body());
                    if (answer.path("startEpochNanos").isIntegralNumber()) {
                        return answer.get("startEpochNanos").longValue();
                    }
                } catch (IOException e) {
                    // Reported below with the body itself.
                }
                throw new StartBarrierException("the coordinator " + address + " answered shard " + index
                        + "'s check-in with: " + response.body());
            }
        }
    }

    /**
     * Sends {@code request}; returns the response if it is 200, {@code null} after a pause if the request should be
     * tried again (no connection, or 409: the coordinator serves another run, perhaps the previous gate's).
     *
     * @throws StartBarrierException for any other status, or when the timeout has passed
     */
    private HttpResponse<String> send(HttpRequest request) throws InterruptedException {
        if (System.nanoTime() - deadline >= 0) {
            throw timedOut();
        }
        attempts++;
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                return response;
            }
            if (response.statusCode() != 409) {
                throw new StartBarrierException("the coordinator " + address + " refused shard " + index + " ("
                        + request.method() + " " + request.uri().getPath() + ", HTTP " + response.statusCode()
                        + "): " + response.body());
            }
            lastError = "HTTP 409: " + response.body();
        } catch (IOException e) {
            // A request cut short by the timeout itself says nothing new; keep the error that led up to it.
            if (System.nanoTime() - deadline < 0 || attempts == 1) {
                lastError = describe(e);
            }
        }
        long pause = Math.min(settings.retryBackoff().toNanos(), deadline - System.nanoTime());
        if (pause > 0) {
            TimeUnit.NANOSECONDS.sleep(pause);
        }
        return null;
    }

    private StartBarrierException timedOut() {
        return new StartBarrierException("shard " + index + " of " + count + " (runId = '" + runId
                + "') got no agreed start from the coordinator at " + address + " (GET /time, then POST /ready)"
                + " within timeout = " + settings.timeout() + " after " + attempts + " request(s); last error: "
                + lastError);
    }

    /** Returns the exception and its distinct causes: the HTTP client's own often just wraps the real one. */
    private static String describe(Throwable error) {
        StringBuilder description = new StringBuilder(error.toString());
        for (Throwable cause = error.getCause(); cause != null; cause = cause.getCause()) {
            if (!cause.toString().equals(error.toString())) {
                description.append(" caused by ").append(cause);
            }
            error = cause;
        }
        return description.toString();
    }

    private long parseTime(HttpResponse<String> response) {
        String reading = response.headers().firstValue(StartBarrier.TIME_HEADER).orElse("");
        try {
            return Long.parseLong(reading.trim());
        } catch (NumberFormatException e) {
            throw new StartBarrierException("the coordinator " + address + " answered GET /time without epoch"
                    + " nanoseconds in its header " + StartBarrier.TIME_HEADER + ": '" + reading + "'");
        }
    }

    private URI uri(String path) {
        return URI.create("http://" + address + path);
    }
}
