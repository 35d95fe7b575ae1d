/*
 * bundle.h - the JavaScript of the HTML report, embedded into the binary
 * at build time (the Makefile generates build/gen/report_bundle.c from
 * web/node_modules: Chart.js and chartjs-chart-matrix, pinned by
 * web/package-lock.json, then src/report/html_charts.js), so that an
 * installed copyscope writes reports without its source tree and never
 * fetches anything.  The flame graphs' script is a second one
 * (flame_bundle: the d3 modules d3-flame-graph needs, d3-flame-graph,
 * then src/report/html_flame.js, from the same lock file), embedded
 * only into a report that draws a flame graph.
 */
#ifndef COPYSCOPE_BUNDLE_H
#define COPYSCOPE_BUNDLE_H

#include <stddef.h>

/* The script text, NUL-terminated; report_bundle_len bytes before it. */
extern const unsigned char report_bundle[];
extern const size_t report_bundle_len;

/* The flame graphs' script, NUL-terminated; flame_bundle_len bytes. */
extern const unsigned char flame_bundle[];
extern const size_t flame_bundle_len;

#endif
