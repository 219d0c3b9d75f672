package dev.goodput.junit;

import dev.goodput.core.servermetrics.Deployment;
import dev.goodput.core.servermetrics.ScrapeSettings;
import java.lang.reflect.Method;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Turns {@link ServerMetrics}, {@link GpuDeployment} and the {@code goodput.server-metrics*} configuration
 * parameters into core values, refusing bad ones with the annotation, the attribute and the value.
 */
final class ServerMetricsAnnotations {

    private ServerMetricsAnnotations() {}

    static ScrapeSettings scrape(Class<?> testClass, Method method, String where, GoodputConfiguration configuration) {
        if (!configuration.serverMetrics()) {
            return ScrapeSettings.OFF;
        }
        ServerMetrics annotation =
                GateDefinition.nearest(testClass, method, ServerMetrics.class).orElse(null);
        List<URI> endpoints = new ArrayList<>();
        ScrapeSettings settings = ScrapeSettings.DEFAULT;
        if (annotation != null) {
            for (String endpoint : annotation.endpoints()) {
                endpoints.add(uri(endpoint, "@ServerMetrics(endpoints = \"" + endpoint + "\") on " + where));
            }
            AnnotationSettings names = new AnnotationSettings("@ServerMetrics", where)
                    .map("serverMetrics.interval", "intervalMs", annotation.intervalMs());
            settings = names.apply(() -> ScrapeSettings.DEFAULT
                    .withServerMetrics(annotation.scrapeServer())
                    .withInterval(Duration.ofMillis(annotation.intervalMs())));
        }
        for (String endpoint : configuration.serverMetricsEndpoints()) {
            endpoints.add(uri(
                    endpoint,
                    "configuration parameter " + GoodputConfiguration.SERVER_METRICS_ENDPOINTS + " = '" + endpoint
                            + "'"));
        }
        List<URI> all = endpoints;
        ScrapeSettings base = settings;
        return new AnnotationSettings("@ServerMetrics", where)
                .map("serverMetrics.endpoints", "endpoints", endpoints)
                .apply(() -> base.withExtraEndpoints(all));
    }

    static Deployment deployment(Class<?> testClass, Method method, String where) {
        return GateDefinition.nearest(testClass, method, GpuDeployment.class)
                .map(annotation -> new AnnotationSettings("@GpuDeployment", where)
                        .map("gpuCount", "count", annotation.count())
                        .apply(() -> new Deployment(
                                annotation.gpu(),
                                annotation.count(),
                                annotation.pricePerGpuHour(),
                                annotation.memoryBandwidthGBps(),
                                annotation.modelParameters(),
                                annotation.bytesPerParameter())))
                .orElse(Deployment.UNSTATED);
    }

    private static URI uri(String text, String what) {
        try {
            return URI.create(text.trim());
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException(what + " is not a URL: " + e.getMessage());
        }
    }
}
