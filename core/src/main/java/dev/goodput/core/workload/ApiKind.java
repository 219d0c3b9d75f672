package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.ServerEndpoint;
import org.apiguardian.api.API;

/** Which OpenAI-compatible endpoint a request goes to. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum ApiKind {
    /** {@code POST /v1/completions} (by default) with a {@code prompt}. */
    COMPLETIONS("/completions"),
    /** {@code POST /v1/chat/completions} (by default) with {@code messages}; the server applies its chat template. */
    CHAT("/chat/completions");

    private final String path;

    ApiKind(String path) {
        this.path = path;
    }

    /**
     * Returns the request path under the API base path ({@link ServerEndpoint#apiBasePath()}, {@code /v1} unless
     * set), for example {@code /chat/completions}.
     */
    public String path() {
        return path;
    }
}
