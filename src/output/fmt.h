/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmt.h - the one formatter for fslab's own numbers and the one
 * verdict-to-text, shared by the text, JSON, CSV and HTML renderers so a
 * figure and a verdict read the same everywhere.
 *
 * Numbers: four significant digits, never scientific notation (1234,
 * 123.4, 12.34, 1.234, 0.01234); NaN is "-" (JSON writes null, CSV an
 * empty field: util/jsonout.h, output/csv.h).
 *
 * Verdicts (README "Comparing runs"): "improvement", "REGRESSION",
 * "equivalent" (the change's interval lies inside +-min-change),
 * "can't tell" (not significant, and the minimum detectable change
 * exceeds min-change or cannot be computed: the comparison could not
 * have seen a change that matters), "no significant change" (not
 * significant although a change of min-change was detectable),
 * "too few reps", "too short", "FAILED run", "no verdict" (a metric
 * without a direction).  Never "same".
 */
#ifndef FSLAB_OUTPUT_FMT_H
#define FSLAB_OUTPUT_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/compare.h"

/* Decimals that give v four significant digits (0 for |v| >= 1000). */
int fmt_sig4_decimals(double v);
/* v with dec decimals; NaN "-", infinities "inf"/"-inf". */
void fmt_dec(char *buf, size_t len, double v, int dec);
/* v to four significant digits. */
void fmt_sig4(char *buf, size_t len, double v);
/* "+12.3%", or "-" when not finite. */
void fmt_pct(char *buf, size_t len, double v);
/* "0.0123", "<0.0001", or "-". */
void fmt_p(char *buf, size_t len, double p);
/* A latency in ns as "812ns", "12.3us", "4.56ms", "1.23s" (three
 * significant digits); with space, "12.3 us" as the HTML tables put it. */
void fmt_ns(char *buf, size_t len, uint64_t ns, bool space);
/*
 * A mean and its interval in one field: "m ± h" when the interval is
 * symmetric about m (within 5 % of its half-width), "m [lo, hi]" when
 * it is not (a harmonic mean's interval), "m" when there is none.  All
 * at dec decimals.
 */
void fmt_mean_ci(char *buf, size_t len, double m, double lo, double hi,
		 int dec);

/* The verdict's word alone (the JSON and CSV "verdict" field). */
const char *verdict_word(const struct cmp_delta *d,
			 const struct compare_opts *o);
/* The word with what qualifies it: "can't tell (mdc 613%)",
 * "equivalent within 2%", ... (text and HTML). */
void verdict_text(char *buf, size_t len, const struct cmp_delta *d,
		  const struct compare_opts *o);
/* The same in at most width columns where it can be: an mdc of 1000 %
 * or more becomes ">999%" (the compact table; --long gives it whole). */
void verdict_text_fit(char *buf, size_t len, const struct cmp_delta *d,
		      const struct compare_opts *o, size_t width);
/* The minimum detectable change shown with d: only where no change
 * was found (it says how large a change could have been seen). */
double verdict_mdc_pct(const struct cmp_delta *d);

#endif
