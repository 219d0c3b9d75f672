package dev.goodput.core.servermetrics;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Which Prometheus endpoints a run scrapes and how often. By default the server's own {@code /metrics} is scraped
 * once a second; a server without one is noted in the result, never a failure. Scrapes run on their own thread
 * with a timeout, so a slow or failing endpoint costs the load nothing.
 *
 * @param serverMetrics whether to scrape the server's own {@code /metrics} (next to its API, at the root)
 * @param extraEndpoints further exposition URLs to scrape, for example a DCGM exporter's
 *     {@code http://gpu-host:9400/metrics} for GPU utilisation and power; never sent the API key
 * @param interval time between the starts of two scrapes, at least 100 ms
 * @param timeout how long one scrape may take before it is counted as failed, at most the interval
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record ScrapeSettings(boolean serverMetrics, List<URI> extraEndpoints, Duration interval, Duration timeout) {

    /** The default: the server's {@code /metrics} every second, with a one-second timeout. */
    public static final ScrapeSettings DEFAULT = new ScrapeSettings(true, List.of(), Duration.ofSeconds(1), null);

    /** Nothing is scraped. */
    public static final ScrapeSettings OFF = new ScrapeSettings(false, List.of(), Duration.ofSeconds(1), null);

    /**
     * Checks the settings.
     *
     * @throws InvalidSettingException naming the setting and its value when an endpoint is not an absolute
     *     {@code http} or {@code https} URL, the interval is under 100 ms, or the timeout is not positive or longer
     *     than the interval; a {@code null} timeout means the interval
     */
    public ScrapeSettings {
        extraEndpoints = List.copyOf(extraEndpoints);
        for (URI endpoint : extraEndpoints) {
            String scheme = endpoint.getScheme();
            if (!endpoint.isAbsolute()
                    || endpoint.getHost() == null
                    || !("http".equals(scheme) || "https".equals(scheme))) {
                throw InvalidSettingException.of(
                        "serverMetrics.endpoints", endpoint, "must be an absolute http:// or https:// URL");
            }
        }
        Objects.requireNonNull(interval, "interval");
        if (interval.compareTo(Duration.ofMillis(100)) < 0) {
            throw InvalidSettingException.of("serverMetrics.interval", interval, "must be at least 100 ms");
        }
        if (timeout == null) {
            timeout = interval;
        }
        if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(interval) > 0) {
            throw InvalidSettingException.of(
                    "serverMetrics.timeout", timeout, "must be positive and at most the interval (" + interval + ")");
        }
    }

    /** Returns whether anything is scraped at all. */
    public boolean isOn() {
        return serverMetrics || !extraEndpoints.isEmpty();
    }

    /** Returns these settings with another interval (and the timeout capped at it). */
    public ScrapeSettings withInterval(Duration value) {
        Objects.requireNonNull(value, "interval");
        return new ScrapeSettings(serverMetrics, extraEndpoints, value, timeout.compareTo(value) > 0 ? value : timeout);
    }

    /** Returns these settings also scraping the given exposition URLs. */
    public ScrapeSettings withExtraEndpoints(List<URI> values) {
        return new ScrapeSettings(serverMetrics, values, interval, timeout);
    }

    /** Returns these settings scraping (or not) the server's own {@code /metrics}. */
    public ScrapeSettings withServerMetrics(boolean value) {
        return new ScrapeSettings(value, extraEndpoints, interval, timeout);
    }
}
