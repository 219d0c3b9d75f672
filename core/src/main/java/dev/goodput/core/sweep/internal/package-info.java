/** How sweeps run: the grid and the search, the knee, and the watcher that ends hopeless runs early. */
package dev.goodput.core.sweep.internal;
