/**
 * What the server saw during a run: its Prometheus metrics scraped alongside the load ({@link
 * dev.goodput.core.servermetrics.ScrapeSettings}), the deployment stated for cost and the bandwidth check ({@link
 * dev.goodput.core.servermetrics.Deployment}), and what came of both ({@link
 * dev.goodput.core.servermetrics.ServerMetricsResult}). {@code docs/server-metrics.md} defines every figure.
 */
@API(status = EXPERIMENTAL, since = "0.2")
package dev.goodput.core.servermetrics;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;
