/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress.c - the status line of a running `fslab run` (see progress.h).
 *
 * Everything the measuring thread does for it is a few relaxed atomic
 * stores and, at phase boundaries, a short critical section; formatting,
 * reading the device counters and writing to the terminal happen in the
 * timer thread, at most four times a second.
 */
#include "phase/progress.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "measure/measure.h"
#include "measure/result.h"
#include "util/util.h"
#include "phase/workload.h"

#define TICK_NS 250000000L

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool started, thread_up, stopping;
	enum progress_mode mode;
	bool live;              /* redrawing on a terminal */
	bool drawn;             /* a status line is on the terminal now */
	bool active;            /* a phase or step is running */
	bool in_phase;
	uint64_t t0;            /* now_ns() at its start */
	char where[160];        /* "[1/2 ext4 r1/3]" */
	char what[256];         /* "compilebench create kernel-3" */
	char dev[64];           /* /sys/block name, "" none */
	bool dev_base_set;
	uint64_t dev_rd0, dev_wr0;
	FILE *stream;           /* ctx->progress for workloads */
} P = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};

/* Live work counters of the running phase (phase_progress/expect). */
static _Atomic uint64_t done_bytes, done_files, done_ops;
static _Atomic uint64_t exp_bytes, exp_files, exp_ops, exp_ns;

char *progress_fmt_secs(char *buf, size_t len, double secs)
{
	if (!(secs >= 0))
		snprintf(buf, len, "?");
	else if (secs < 60)
		snprintf(buf, len, "%.1f s", secs);
	else if (secs < 3600)
		snprintf(buf, len, "%dm%02ds", (int)(secs / 60),
			 (int)fmod(secs, 60));
	else
		snprintf(buf, len, "%dh%02dm", (int)(secs / 3600),
			 (int)fmod(secs / 60, 60));
	return buf;
}

double progress_eta(double elapsed, uint64_t done, uint64_t expected)
{
	if (!expected || !done || elapsed <= 0)
		return -1;
	if (done >= expected)
		return 0;
	return elapsed * (double)(expected - done) / (double)done;
}

static int term_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

static void put_raw(const char *s, size_t n)
{
	if (write_full(STDERR_FILENO, s, n) < 0)
		P.live = false; /* a terminal that went away: stop drawing */
}

static void clear_locked(void)
{
	if (P.drawn) {
		put_raw("\r\033[K", 4);
		P.drawn = false;
	}
}

/* "12.0M 3.4M/s" style: what was done and at what rate. */
static void add_work(char *buf, size_t len, size_t *at, const char *sep,
		     uint64_t n, bool bytes, const char *unit, double secs)
{
	char a[32], b[32];

	if (*at >= len)
		return;
	if (bytes) {
		fmt_size(a, sizeof(a), n);
		fmt_size(b, sizeof(b), secs > 0 ? (uint64_t)((double)n / secs)
						: 0);
		*at += (size_t)snprintf(buf + *at, len - *at, "%s%s %s/s", sep,
					a, b);
	} else {
		*at += (size_t)snprintf(buf + *at, len - *at,
					"%s%" PRIu64 " %s %.0f/s", sep, n, unit,
					secs > 0 ? (double)n / secs : 0);
	}
}

static void dev_counters(uint64_t *rd, uint64_t *wr)
{
	char path[128], *text;
	uint64_t ri, rs, wi, ws;

	*rd = *wr = 0;
	snprintf(path, sizeof(path), "/sys/block/%s/stat", P.dev);
	text = read_file(path, NULL);
	if (text && measure_parse_blkstat(text, &ri, &rs, &wi, &ws) == 0) {
		*rd = rs * 512;
		*wr = ws * 512;
	}
	free(text);
}

static void draw_locked(void)
{
	char line[512], when[32], eta_s[32];
	double el = (double)(now_ns() - P.t0) / 1e9, eta = -1;
	uint64_t b = atomic_load_explicit(&done_bytes, memory_order_relaxed);
	uint64_t f = atomic_load_explicit(&done_files, memory_order_relaxed);
	uint64_t o = atomic_load_explicit(&done_ops, memory_order_relaxed);
	uint64_t eb = atomic_load_explicit(&exp_bytes, memory_order_relaxed);
	uint64_t ef = atomic_load_explicit(&exp_files, memory_order_relaxed);
	uint64_t eo = atomic_load_explicit(&exp_ops, memory_order_relaxed);
	uint64_t en = atomic_load_explicit(&exp_ns, memory_order_relaxed);
	size_t at = 0;
	int width = term_width();

	at = (size_t)snprintf(line, sizeof(line), "%s %s  %s", P.where,
			      P.what, progress_fmt_secs(when, sizeof(when),
							el));
	if (f)
		add_work(line, sizeof(line), &at, "  ", f, false, "files", el);
	if (b)
		add_work(line, sizeof(line), &at, f ? ", " : "  ", b, true,
			 NULL, el);
	if (!f && !b && o)
		add_work(line, sizeof(line), &at, "  ", o, false, "ops", el);
	if (!f && !b && !o && P.in_phase && *P.dev) {
		uint64_t rd, wr;

		dev_counters(&rd, &wr);
		if (!P.dev_base_set) {
			P.dev_rd0 = rd;
			P.dev_wr0 = wr;
			P.dev_base_set = true;
		}
		/* What the device did, when the workload does not say. */
		if (wr - P.dev_wr0)
			add_work(line, sizeof(line), &at, "  device wrote ",
				 wr - P.dev_wr0, true, NULL, el);
		if (rd - P.dev_rd0)
			add_work(line, sizeof(line), &at, wr - P.dev_wr0 ?
				 ", read " : "  device read ", rd - P.dev_rd0,
				 true, NULL, el);
	}
	if (ef && f)
		eta = progress_eta(el, f, ef);
	else if (eb && b)
		eta = progress_eta(el, b, eb);
	else if (eo && o)
		eta = progress_eta(el, o, eo);
	else if (en)
		eta = el * 1e9 < (double)en ? ((double)en / 1e9 - el) : 0;
	if (eta >= 0 && at < sizeof(line))
		at += (size_t)snprintf(line + at, sizeof(line) - at,
				       "  ETA %s",
				       progress_fmt_secs(eta_s, sizeof(eta_s),
							 eta));
	if (at >= sizeof(line))
		at = sizeof(line) - 1;
	/* A wrapped line cannot be redrawn with \r: cut it to the width. */
	if (at > (size_t)width - 1)
		at = (size_t)width - 1;
	put_raw("\r\033[K", 4);
	put_raw(line, at);
	P.drawn = true;
}

static void *timer_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&P.lock);
	while (!P.stopping) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += TICK_NS;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&P.cond, &P.lock, &ts);
		if (!P.stopping && P.active && P.live)
			draw_locked();
	}
	clear_locked();
	pthread_mutex_unlock(&P.lock);
	return NULL;
}

/*
 * Workloads print their own notes (ctx->progress) while a phase runs:
 * take the status line off first so the note gets a line of its own.
 */
static ssize_t stream_write(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	pthread_mutex_lock(&P.lock);
	clear_locked();
	if (write_full(STDERR_FILENO, buf, n) < 0) {
		pthread_mutex_unlock(&P.lock);
		return -1;
	}
	pthread_mutex_unlock(&P.lock);
	return (ssize_t)n;
}

static ssize_t null_write(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	(void)buf;
	return (ssize_t)n;
}

void progress_start(enum progress_mode mode)
{
	const char *term = getenv("TERM");

	if (P.started)
		return;
	P.started = true;
	P.mode = mode;
	P.live = mode == PROGRESS_AUTO && isatty(STDERR_FILENO) &&
		 !(term && !strcmp(term, "dumb"));
	if (P.live) {
		cookie_io_functions_t io = { .write = stream_write };

		P.stream = fopencookie(NULL, "w", io);
		if (P.stream)
			setvbuf(P.stream, NULL, _IOLBF, 0);
		P.thread_up = pthread_create(&P.thread, NULL, timer_main,
					     NULL) == 0;
		if (!P.thread_up)
			P.live = false;
	} else if (mode == PROGRESS_OFF) {
		cookie_io_functions_t io = { .write = null_write };

		P.stream = fopencookie(NULL, "w", io);
	}
}

void progress_stop(void)
{
	if (!P.started)
		return;
	pthread_mutex_lock(&P.lock);
	P.stopping = true;
	P.active = false;
	pthread_cond_signal(&P.cond);
	pthread_mutex_unlock(&P.lock);
	if (P.thread_up)
		pthread_join(P.thread, NULL);
	P.thread_up = false;
	if (P.stream)
		fclose(P.stream);
	P.stream = NULL;
	P.started = P.stopping = P.live = false;
}

FILE *progress_stream(void)
{
	return P.stream ? P.stream : stderr;
}

void progress_where(size_t k, size_t n, const char *name, int rep, int reps)
{
	pthread_mutex_lock(&P.lock);
	if (reps > 0)
		snprintf(P.where, sizeof(P.where), "[%zu/%zu %s r%d/%d]", k, n,
			 name, rep + 1, reps);
	else
		snprintf(P.where, sizeof(P.where), "[%zu/%zu %s r%d]", k, n,
			 name, rep + 1);
	pthread_mutex_unlock(&P.lock);
}

static void reset_counters(void)
{
	atomic_store_explicit(&done_bytes, 0, memory_order_relaxed);
	atomic_store_explicit(&done_files, 0, memory_order_relaxed);
	atomic_store_explicit(&done_ops, 0, memory_order_relaxed);
	atomic_store_explicit(&exp_bytes, 0, memory_order_relaxed);
	atomic_store_explicit(&exp_files, 0, memory_order_relaxed);
	atomic_store_explicit(&exp_ops, 0, memory_order_relaxed);
	atomic_store_explicit(&exp_ns, 0, memory_order_relaxed);
}

void progress_step(const char *what)
{
	if (!P.live)
		return;
	pthread_mutex_lock(&P.lock);
	clear_locked();
	reset_counters();
	P.in_phase = false;
	P.active = what != NULL;
	if (what)
		snprintf(P.what, sizeof(P.what), "%s", what);
	P.t0 = now_ns();
	if (P.active)
		draw_locked();
	pthread_mutex_unlock(&P.lock);
}

void progress_phase_begin(const char *workload, const char *phase,
			  const char *label, const char *devname)
{
	if (!P.started || P.mode == PROGRESS_OFF)
		return;
	pthread_mutex_lock(&P.lock);
	clear_locked();
	reset_counters();
	snprintf(P.what, sizeof(P.what), "%s%s%s%s%s",
		 workload ? workload : "", workload ? " " : "", phase,
		 label ? " " : "", label ? label : "");
	snprintf(P.dev, sizeof(P.dev), "%s", devname ? devname : "");
	P.dev_base_set = false;
	P.in_phase = true;
	P.active = true;
	P.t0 = now_ns();
	/* Name the phase at once, before it is measured (phase_begin calls
	 * us ahead of its snapshot): a phase shorter than a tick shows too. */
	if (P.live)
		draw_locked();
	pthread_mutex_unlock(&P.lock);
}

void progress_phase_end(const struct phase_rec *rec)
{
	char when[32], size[32];
	const struct metric *mibs, *fps;

	if (!P.started || P.mode == PROGRESS_OFF)
		return;
	pthread_mutex_lock(&P.lock);
	clear_locked();
	P.active = P.in_phase = false;
	if (!P.live) {
		/* One plain line per finished phase. */
		mibs = phase_rec_metric(rec, "MiB/s");
		fps = phase_rec_metric(rec, "files/s");
		fprintf(stderr, "fslab: %s %s: %s, %s", P.where, P.what,
			rec->status == PHASE_OK ? "ok" :
			rec->status == PHASE_FAILED ? "FAILED" : "interrupted",
			progress_fmt_secs(when, sizeof(when),
					  (double)rec->m.wall_ns / 1e9));
		if (rec->bytes)
			fprintf(stderr, ", %s", fmt_size(size, sizeof(size),
							 rec->bytes));
		if (mibs)
			fprintf(stderr, ", %.1f MiB/s", mibs->value);
		if (rec->files)
			fprintf(stderr, ", %" PRIu64 " files", rec->files);
		if (fps)
			fprintf(stderr, ", %.0f files/s", fps->value);
		fputc('\n', stderr);
	}
	pthread_mutex_unlock(&P.lock);
}

/* ---- the phase API's progress calls (workload.h) ---- */

void phase_expect(struct phase *ph, uint64_t bytes, uint64_t files,
		  uint64_t ops)
{
	(void)ph;
	atomic_store_explicit(&exp_bytes, bytes, memory_order_relaxed);
	atomic_store_explicit(&exp_files, files, memory_order_relaxed);
	atomic_store_explicit(&exp_ops, ops, memory_order_relaxed);
}

void phase_expect_secs(struct phase *ph, double seconds)
{
	(void)ph;
	atomic_store_explicit(&exp_ns, seconds > 0 ? (uint64_t)(seconds * 1e9)
						   : 0,
			      memory_order_relaxed);
}

void progress_count(uint64_t bytes, uint64_t files, uint64_t ops)
{
	if (bytes)
		atomic_fetch_add_explicit(&done_bytes, bytes,
					  memory_order_relaxed);
	if (files)
		atomic_fetch_add_explicit(&done_files, files,
					  memory_order_relaxed);
	if (ops)
		atomic_fetch_add_explicit(&done_ops, ops,
					  memory_order_relaxed);
}
