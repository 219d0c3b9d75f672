package dev.goodput.core.transport.internal;

/**
 * Told what became of a request's attempt, on whichever thread ended it and never under the request's monitor, so
 * a listener may take its own lock and cancel requests under it.
 */
public interface RequestListener {

    /**
     * The request's attempt failed and the request will try again after {@code waitNanos}: the listener sends
     * its next attempt ({@link InFlightRequest#send}) when the wait is over.
     */
    void retrying(InFlightRequest request, long waitNanos);

    /** The request ended; told exactly once per request, with what the request hands over. */
    void finished(InFlightRequest request, FinishedRequest finished);
}
