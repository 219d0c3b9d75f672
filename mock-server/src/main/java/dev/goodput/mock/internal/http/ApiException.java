package dev.goodput.mock.internal.http;

/** A request the API refuses, with the HTTP status and vLLM-style message to answer it with. */
final class ApiException extends Exception {
    private static final long serialVersionUID = 1L;

    final int status;

    ApiException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }
}
