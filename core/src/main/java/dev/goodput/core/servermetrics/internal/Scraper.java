package dev.goodput.core.servermetrics.internal;

import dev.goodput.core.NanoClock;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.servermetrics.ScrapeSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Scrapes Prometheus endpoints during a run on its own daemon thread: once before the load (the baseline every
 * counter's increase starts from), every interval during it, and once after it ({@link #finish()}). A scrape has
 * its own client and a timeout, so a slow exporter never holds up a request of the load; a failed scrape is
 * recorded with its reason and the next one is tried on time. The server's own {@code /metrics} answering 404 or
 * with something that is not an exposition before it ever answered with one means it has none: that is noted once
 * and the endpoint dropped. Any other status is a failed scrape, tried again at the next interval: llama-server
 * answers 503 {@code Loading model} on every path, {@code /metrics} included, until its model is loaded.
 */
public final class Scraper implements AutoCloseable {

    /** Points kept per series: an hour at one scrape a second before the series are thinned. */
    static final int MAX_POINTS = 3_600;

    private final ScrapeSettings settings;
    private final NanoClock clock;
    private final List<Target> targets = new ArrayList<>();
    private final ScrapeLog log;
    private final HttpClient client;
    private final SecretRedaction redaction;
    private final Thread thread;
    private volatile boolean stopping;

    private Scraper(ScrapeSettings settings, ServerEndpoint server, NanoClock clock) {
        this.settings = settings;
        this.clock = clock;
        this.redaction = SecretRedaction.of(server.resolveApiKey().orElse(null));
        if (settings.serverMetrics()) {
            String authorization =
                    server.resolveApiKey().map(key -> "Bearer " + key).orElse(null);
            targets.add(new Target(URI.create(server.baseUrl() + "/metrics"), authorization, true));
        }
        settings.extraEndpoints().forEach(uri -> targets.add(new Target(uri, null, false)));
        this.log = new ScrapeLog(targets.stream().map(t -> t.label).toList(), MAX_POINTS);
        this.client = targets.isEmpty()
                ? null
                : HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(settings.timeout())
                        .followRedirects(HttpClient.Redirect.NORMAL)
                        .build();
        this.thread = new Thread(this::loop, "goodput-scraper");
        thread.setDaemon(true);
    }

    /**
     * Takes the baseline scrape now, then keeps scraping on a thread of its own until {@link #finish()}; does
     * nothing when the settings scrape nothing.
     */
    public static Scraper start(ScrapeSettings settings, ServerEndpoint server, NanoClock clock) {
        Scraper scraper = new Scraper(settings, server, clock);
        if (!scraper.targets.isEmpty()) {
            scraper.tick();
            scraper.thread.start();
        }
        return scraper;
    }

    /** Stops the scraping thread, takes the closing scrape and returns everything scraped. */
    public ScrapeLog finish() {
        if (!targets.isEmpty() && !stopping) {
            stop();
            tick();
        }
        return log;
    }

    @Override
    public void close() {
        if (!targets.isEmpty() && !stopping) {
            stop();
        }
    }

    private void stop() {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join(settings.timeout().toMillis() * Math.max(1, targets.size()) + 1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        long interval = settings.interval().toNanos();
        long next = clock.nanoTime() + interval;
        while (!stopping) {
            long wait = next - clock.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
                continue;
            }
            tick();
            // A scrape that overran its slot is not made up for: the next starts one interval after this one.
            next = Math.max(next + interval, clock.nanoTime());
        }
    }

    private synchronized void tick() {
        Map<String, ScrapeReading> readings = new LinkedHashMap<>();
        long sum = 0;
        for (Target target : targets) {
            if (target.dropped) {
                continue;
            }
            long before = clock.nanoTime();
            ScrapeReading reading = scrape(target);
            long after = clock.nanoTime();
            if (reading != null) {
                readings.put(target.label, reading);
                sum += before / 2 + after / 2;
            }
        }
        if (!readings.isEmpty()) {
            log.record(sum / readings.size(), readings);
        }
    }

    private ScrapeReading scrape(Target target) {
        HttpRequest.Builder request = HttpRequest.newBuilder(target.uri)
                .timeout(settings.timeout())
                .header("Accept", "text/plain;version=0.0.4;q=1,*/*;q=0.1")
                .GET();
        if (target.authorization != null) {
            request.header("Authorization", target.authorization);
        }
        HttpResponse<String> response;
        // The request's own timeout covers only the wait for the response head; a server that sends a head and
        // then stalls its body (a scripted fault, a proxy) would hold the scraper for ever. So the whole exchange,
        // body included, gets the timeout, and an exchange that overruns it is cancelled.
        CompletableFuture<HttpResponse<String>> exchange =
                client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
        try {
            response = exchange.get(settings.timeout().toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            log.failed(target.label, "no answer within " + settings.timeout().toMillis() + " ms");
            return null;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            log.failed(
                    target.label,
                    cause instanceof HttpTimeoutException
                            ? "no answer within " + settings.timeout().toMillis() + " ms"
                            : cause.getClass().getSimpleName()
                                    + (cause.getMessage() == null ? "" : ": " + redaction.redact(cause.getMessage())));
            return null;
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            return null;
        }
        if (response.statusCode() == 404) {
            return refuse(target, "HTTP 404");
        }
        if (response.statusCode() != 200) {
            log.failed(target.label, "HTTP " + response.statusCode());
            return null;
        }
        try {
            ScrapeReading reading = ScrapeReading.of(Exposition.parse(response.body(), redaction));
            target.answeredOnce = true;
            return reading;
        } catch (IllegalArgumentException e) {
            return refuse(target, "not a Prometheus exposition (" + e.getMessage() + ")");
        }
    }

    private ScrapeReading refuse(Target target, String why) {
        if (target.isServersOwn && !target.answeredOnce) {
            target.dropped = true;
            log.note("the server has no Prometheus metrics at " + target.label + " (" + why
                    + "); the run has no server view");
        } else {
            log.failed(target.label, why);
        }
        return null;
    }

    /** One endpoint to scrape. */
    private static final class Target {
        final URI uri;
        final String label;
        final String authorization;
        final boolean isServersOwn;
        boolean answeredOnce;
        boolean dropped;

        Target(URI uri, String authorization, boolean isServersOwn) {
            this.uri = uri;
            this.label = labelOf(uri);
            this.authorization = authorization;
            this.isServersOwn = isServersOwn;
        }

        /** The URL as it may be shown: user information and secret-looking query values masked. */
        private static String labelOf(URI uri) {
            return SecretRedaction.shownUrl(uri);
        }
    }
}
