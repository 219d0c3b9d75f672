package dev.goodput.core.transport;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** A started HTTP exchange that can be aborted; aborting one that already ended does nothing. */
@API(status = EXPERIMENTAL, since = "0.2")
@FunctionalInterface
public interface Exchange {

    /** Aborts the exchange and releases its connection. Never throws. */
    void abort();
}
