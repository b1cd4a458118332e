/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmt.c - numbers and verdicts in words, one definition for every
 * renderer (see fmt.h).
 */
#include "output/fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int fmt_sig4_decimals(double v)
{
	double a = fabs(v);
	int d;

	if (!isfinite(a) || a == 0 || a >= 1000)
		return 0;
	if (a >= 100)
		return 1;
	if (a >= 10)
		return 2;
	if (a >= 1)
		return 3;
	d = 3 - (int)floor(log10(a));
	return d > 9 ? 9 : d;
}

void fmt_dec(char *buf, size_t len, double v, int dec)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, "%sinf", v < 0 ? "-" : "");
	else
		snprintf(buf, len, "%.*f", dec, v);
}

void fmt_sig4(char *buf, size_t len, double v)
{
	fmt_dec(buf, len, v, fmt_sig4_decimals(v));
}

void fmt_pct(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", v);
}

void fmt_p(char *buf, size_t len, double p)
{
	if (!isfinite(p))
		snprintf(buf, len, "-");
	else if (p < 0.0001)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.4f", p);
}

static bool fmt_ci_symmetric(double m, double lo, double hi)
{
	double up = hi - m, down = m - lo;

	return fabs(up - down) <= 0.05 * fmax(fabs(up), fabs(down));
}

void fmt_mean_ci(char *buf, size_t len, double m, double lo, double hi,
		 int dec)
{
	char a[40], b[40], c[40];

	fmt_dec(a, sizeof(a), m, dec);
	if (!isfinite(lo) || !isfinite(hi) || !isfinite(m)) {
		snprintf(buf, len, "%s", a);
		return;
	}
	if (fmt_ci_symmetric(m, lo, hi)) {
		fmt_dec(b, sizeof(b), (hi - lo) / 2, dec);
		snprintf(buf, len, "%s ± %s", a, b);
		return;
	}
	fmt_sig4(b, sizeof(b), lo);
	fmt_sig4(c, sizeof(c), hi);
	snprintf(buf, len, "%s [%s, %s]", a, b, c);
}

/* Not significant: could the comparison have seen a change that
 * matters?  Only when its minimum detectable change is within the
 * practical threshold. */
static bool cant_tell(const struct cmp_delta *d,
		      const struct compare_opts *o)
{
	return !isfinite(d->mdc_pct) || d->mdc_pct > o->min_change_pct;
}

const char *verdict_word(const struct cmp_delta *d,
			 const struct compare_opts *o)
{
	switch (d->verdict) {
	case CMP_BETTER:
		return "improvement";
	case CMP_WORSE:
		return "REGRESSION";
	case CMP_EQUIVALENT:
		return "equivalent";
	case CMP_SAME:
		return cant_tell(d, o) ? "can't tell" : "no significant change";
	case CMP_INFO:
		return "no verdict";
	case CMP_FAILED:
		return "FAILED run";
	case CMP_SHORT:
		return "too short";
	case CMP_NA:
		break;
	}
	return "too few reps";
}

double verdict_mdc_pct(const struct cmp_delta *d)
{
	return d->verdict == CMP_SAME || d->verdict == CMP_EQUIVALENT
	       ? d->mdc_pct : NAN;
}

void verdict_text(char *buf, size_t len, const struct cmp_delta *d,
		  const struct compare_opts *o)
{
	const char *w = verdict_word(d, o);

	if (d->verdict == CMP_EQUIVALENT)
		snprintf(buf, len, "%s within %g%%", w, o->min_change_pct);
	else if (d->verdict == CMP_SAME && isfinite(d->mdc_pct))
		snprintf(buf, len, "%s (mdc %.*f%%)", w,
			 d->mdc_pct < 10 ? 1 : 0, d->mdc_pct);
	else if (d->verdict == CMP_SAME)
		snprintf(buf, len, "%s (mdc -)", w);
	else
		snprintf(buf, len, "%s", w);
}

void verdict_text_fit(char *buf, size_t len, const struct cmp_delta *d,
		      const struct compare_opts *o, size_t width)
{
	verdict_text(buf, len, d, o);
	if (strlen(buf) > width && d->verdict == CMP_SAME &&
	    d->mdc_pct >= 1000)
		snprintf(buf, len, "%s (mdc >999%%)", verdict_word(d, o));
}

void fmt_ns(char *buf, size_t len, uint64_t ns, bool space)
{
	double v = (double)ns;
	const char *sp = space ? " " : "";

	if (v < 1e3)
		snprintf(buf, len, "%.0f%sns", v, sp);
	else if (v < 1e6)
		snprintf(buf, len, "%.3g%sus", v / 1e3, sp);
	else if (v < 1e9)
		snprintf(buf, len, "%.3g%sms", v / 1e6, sp);
	else
		snprintf(buf, len, "%.3g%ss", v / 1e9, sp);
}
