package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Which OpenAI-compatible endpoint a request goes to. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum ApiKind {
    /** {@code POST /v1/completions} with a {@code prompt}. */
    COMPLETIONS("/v1/completions"),
    /** {@code POST /v1/chat/completions} with {@code messages}; the server applies its chat template. */
    CHAT("/v1/chat/completions");

    private final String path;

    ApiKind(String path) {
        this.path = path;
    }

    /** Returns the request path, for example {@code /v1/chat/completions}. */
    public String path() {
        return path;
    }
}
