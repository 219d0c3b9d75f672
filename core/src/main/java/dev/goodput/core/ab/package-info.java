/**
 * A/B runs: a baseline server and a candidate server judged against each other in one run, in alternating blocks
 * of the same requests, with paired intervals on every change and the run's noise floor ({@link
 * dev.goodput.core.ab.ABRun}).
 */
@API(status = EXPERIMENTAL, since = "0.2")
package dev.goodput.core.ab;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;
