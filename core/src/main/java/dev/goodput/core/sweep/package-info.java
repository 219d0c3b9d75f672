/**
 * Sweeps: one workload at several loads, each run kept whole, and what the curve says - the knee, SLO
 * attainment against offered load, and the max goodput rate. Start with {@link dev.goodput.core.sweep.Sweep}.
 */
package dev.goodput.core.sweep;
