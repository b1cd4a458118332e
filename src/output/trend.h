/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trend.h - `fslab report --history`: one self-contained HTML file with,
 * per series of `fslab history`, a trend chart (each point's mean with
 * its 95 % interval, the segments' means, the change points as dashed
 * lines) and what changed at each change point.
 */
#ifndef FSLAB_TREND_H
#define FSLAB_TREND_H

#include <stdio.h>

#include "compare/history.h"

/* One series' trend chart as inline SVG (chart.h: ids prefixed c<id>-);
 * NULL after a message. */
char *trend_chart(int id, const struct hist_series *s, enum hist_by by);

/* 0, or -1 with a message. */
int trend_write_report(FILE *out, const char *title, const struct history *h);

#endif
