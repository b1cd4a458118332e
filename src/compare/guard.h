/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guard.h - a comparison guarded by the validity checks (check/check.h):
 * a configuration with a run whose setup is invalid gets no verdict.
 */
#ifndef FSLAB_COMPARE_GUARD_H
#define FSLAB_COMPARE_GUARD_H

#include "check/check.h"
#include "compare/load.h"
#include "compare/session.h"

/*
 * Check every run of in (reports[i] for in->runs[i], allocated; release
 * each with check_report_release and free the array) and, unless
 * allow_invalid, mark each table's configurations that hold a run with
 * an invalid finding (compare_mark_invalid).  Returns how many
 * configurations were marked.
 */
size_t compare_guard(struct cmp_session *s, const struct cmp_input *in,
		     const struct check_opts *o, bool allow_invalid,
		     struct check_report **reports);

#endif
