package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Which Prometheus endpoints the gate scrapes while it runs, and how often. Without this annotation the server's
 * own {@code /metrics} is scraped once a second (a server without one is noted, not failed); the configuration
 * parameter {@code goodput.server-metrics=off} turns scraping off for every gate, and
 * {@code goodput.server-metrics.endpoints} adds endpoints (comma-separated) to every gate's. The scraped figures
 * appear in every report and can be judged: {@code @Slo(metric = Metric.PREEMPTIONS, atMost = 0)}. See
 * {@code docs/server-metrics.md}.
 *
 * <pre>{@code
 * @ServerMetrics(endpoints = "http://127.0.0.1:9400/metrics")  // a DCGM exporter: GPU utilisation and power
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.2")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(GoodputExtension.class)
public @interface ServerMetrics {

    /** Whether to scrape the server's own {@code /metrics}. */
    boolean scrapeServer() default true;

    /** Further exposition URLs to scrape (never sent the API key), for example a DCGM or node exporter. */
    String[] endpoints() default {};

    /** Milliseconds between two scrapes, at least 100. */
    long intervalMs() default 1000;
}
