/**
 * What must hold: an {@link dev.goodput.core.slo.SloSpec} on a {@link dev.goodput.core.slo.Metric}
 * (the {@code @Slo} annotation of the JUnit extension), and the {@link dev.goodput.core.slo.SloVerdict}
 * a run earns for it: {@link dev.goodput.core.slo.Verdict#MET}, {@code VIOLATED} or {@code INCONCLUSIVE}.
 */
package dev.goodput.core.slo;
