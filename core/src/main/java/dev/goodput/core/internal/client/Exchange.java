package dev.goodput.core.internal.client;

/** A started HTTP exchange that can be aborted; aborting one that already ended does nothing. */
@FunctionalInterface
public interface Exchange {

    /** Aborts the exchange and releases its connection. Never throws. */
    void abort();
}
