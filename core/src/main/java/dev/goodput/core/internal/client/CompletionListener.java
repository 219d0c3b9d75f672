package dev.goodput.core.internal.client;

/** Told once when an {@link InFlightRequest} has ended, on whichever thread ended it. */
@FunctionalInterface
public interface CompletionListener {

    void onComplete(InFlightRequest request);
}
