/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipeline.c - distribute's threads: producers publish, scanners move
 * batches into pools and fan them out, deliverers deliver.
 */
#include "workloads/distribute/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/verify.h"

static bool stopping(struct dist_run *r)
{
	return atomic_load(&r->stop) || phase_stop_requested();
}

/* Wake every thread that may sleep, so they see the stop flag. */
static void wake_all(struct dist_run *r)
{
	for (unsigned i = 0; i < r->ninst; i++) {
		struct dist_inst *in = &r->inst[i];

		pthread_mutex_lock(&in->mu);
		pthread_cond_broadcast(&in->cond);
		pthread_mutex_unlock(&in->mu);
		for (unsigned d = 0; d < r->fanout; d++) {
			pthread_mutex_lock(&in->q[d].mu);
			pthread_cond_broadcast(&in->q[d].cond);
			pthread_mutex_unlock(&in->q[d].mu);
		}
	}
}

void dist_request_stop(struct dist_run *r)
{
	atomic_store(&r->stop, true);
	wake_all(r);
}

/* A thread failed: keep the first reason, stop everyone. */
static void PRINTF(2, 3) thread_fail(struct dist_run *r, const char *fmt,
		   ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&r->mu);
	if (!r->err)
		r->err = xstrdup(msg);
	pthread_mutex_unlock(&r->mu);
	dist_request_stop(r);
}

static void pass_name(char *buf, size_t len, uint64_t pass, int dest)
{
	if (dest < 0)
		snprintf(buf, len, "%llu", (unsigned long long)pass);
	else
		snprintf(buf, len, "%llu.%d", (unsigned long long)pass, dest);
}

/* Sleep until the monotonic time t, in slices so a stop is seen. */
static void sleep_until(struct dist_run *r, uint64_t t)
{
	for (;;) {
		uint64_t now = now_ns(), until;
		struct timespec ts;

		if (now >= t || stopping(r))
			return;
		until = t - now > NS / 10 ? now + NS / 10 : t;
		ts.tv_sec = (time_t)(until / NS);
		ts.tv_nsec = (long)(until % NS);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

/*
 * --verify file id: "i<instance>/<name>".  A file keeps its name through
 * the pool, the outgoing directories and the destinations (links, copies
 * and renames), so every copy of it carries the same pattern.
 */
uint64_t dist_vid(unsigned inst, const char *name, char *rel,
		  size_t len)
{
	snprintf(rel, len, "i%u/%s", inst, name);
	return verify_file_id(rel);
}

/* Write one file as `.name`, then rename it to `name`. */
static int produce_one(struct dist_thread *t, uint64_t seq)
{
	struct dist_run *r = t->r;
	struct dist_inst *in = t->in;
	int sfd = in->src_fd[t->src], fd;
	uint64_t size = dist_file_size(r->seed, in->idx, t->src, seq,
				       r->min_size, r->max_size), left;
	char name[32], dot[40], rel[300];
	uint64_t vid = 0;
	const char *buf = r->buf;

	dist_file_name(name, sizeof(name), t->src, seq);
	if (r->verify) {
		vid = dist_vid(in->idx, name, rel, sizeof(rel));
		buf = t->buf;
	}
	snprintf(dot, sizeof(dot), ".%s", name);
	fd = openat(sfd, dot, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		goto fail;
	for (left = size; left;) {
		size_t n = left < IOBUF ? (size_t)left : IOBUF;

		if (r->verify)
			verify_fill(r->ctx->seed, vid, size - left, t->buf, n);
		if (write_full(fd, buf, n))
			goto fail_close;
		left -= n;
	}
	if (r->o->fsync == DIST_FSYNC_FILE && fsync(fd))
		goto fail_close;
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	/* stored before the rename: the scanner may see the name at once */
	atomic_store(&in->pub_ns[t->src][seq], now_ns());
	if (renameat(sfd, dot, sfd, name))
		goto fail;
	t->bytes += size;
	t->files++;
	t->ops += 2;
	pthread_mutex_lock(&in->mu);
	in->produced[t->src] = seq + 1;
	in->published++;
	pthread_cond_signal(&in->cond);
	pthread_mutex_unlock(&in->mu);
	atomic_fetch_add(&r->c_published, 1);
	return 0;
fail_close:
	close(fd);
fail:
	thread_fail(r, "cannot produce '%s/i%u/s%u/%s': %s", r->ctx->dir,
		    in->idx, t->src, name, strerror(errno));
	return -1;
}

static void producer(struct dist_thread *t)
{
	struct dist_run *r = t->r;
	struct dist_inst *in = t->in;
	uint64_t cap = in->cap[t->src];
	/* open loop: file k is due at k / rate after the start */
	double per = r->burst ? 0 : (double)r->o->rate /
				    (double)(r->ninst * r->nsrc);

	for (uint64_t seq = 0; seq < cap && !stopping(r); seq++) {
		if (!r->burst) {
			uint64_t due = r->prod_start_ns +
				       (uint64_t)((double)seq * 1e9 / per);

			if (due >= r->prod_end_ns)
				break;
			sleep_until(r, due);
			if (stopping(r))
				break;
		}
		if (produce_one(t, seq))
			break;
	}
	pthread_mutex_lock(&in->mu);
	in->producers_left--;
	pthread_cond_broadcast(&in->cond);
	pthread_mutex_unlock(&in->mu);
}

static void queue_push(struct dist_queue *q, struct dist_job *j)
{
	pthread_mutex_lock(&q->mu);
	j->next = NULL;
	if (q->tail)
		q->tail->next = j;
	else
		q->head = j;
	q->tail = j;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->mu);
}

/* Collect up to batch published names from one source directory. */
static size_t scan_dir(struct dist_thread *t, unsigned s,
		       struct dist_item *items, size_t batch)
{
	struct dist_run *r = t->r;
	struct dist_inst *in = t->in;
	DIR *d = opendir_at(in->src_fd[s]);
	struct dirent *de;
	size_t n = 0;

	if (!d) {
		thread_fail(r, "cannot open '%s/%s/i%u/s%u': %s", r->ctx->dir,
			    TOPDIR, in->idx, s, strerror(errno));
		return (size_t)-1;
	}
	while (n < batch && (de = readdir(d))) {
		struct dist_item *it = &items[n];
		struct stat sb;

		if (de->d_name[0] == '.')
			continue;     /* ".", ".." and files being written */
		if (dist_parse_name(de->d_name, &it->src, &it->seq) ||
		    it->src != s) {
			closedir(d);
			thread_fail(r, "unexpected file '%s' in "
				    "'%s/%s/i%u/s%u'", de->d_name,
				    r->ctx->dir, TOPDIR, in->idx, s);
			return (size_t)-1;
		}
		/* AFD stats what it takes: its size goes into the job */
		if (fstatat(in->src_fd[s], de->d_name, &sb, 0)) {
			closedir(d);
			thread_fail(r, "cannot stat '%s/%s/i%u/s%u/%s': %s",
				    r->ctx->dir, TOPDIR, in->idx, s,
				    de->d_name, strerror(errno));
			return (size_t)-1;
		}
		it->size = (uint64_t)sb.st_size;
		it->pub_ns = atomic_load(&in->pub_ns[s][it->seq]);
		if (it->pub_ns < r->release_ns)
			it->pub_ns = r->release_ns;
		t->ops++;
		n++;
	}
	closedir(d);
	return n;
}

/*
 * One scanner pass: rename the files into a new pool directory, link
 * them into one outgoing directory per destination, hand each outgoing
 * directory to its destination's queue, empty and remove the pool.
 * A pass is never cut short, so a stop leaves no file in a pool.
 */
static int scan_pass(struct dist_thread *t, unsigned s,
		     struct dist_item *items, size_t n)
{
	struct dist_run *r = t->r;
	struct dist_inst *in = t->in;
	uint64_t pass = ++in->pass;
	char pname[32], oname[48], name[32];
	const char *what = "create pool";
	int pfd = -1, ofd = -1;

	pass_name(pname, sizeof(pname), pass, -1);
	if (mkdirat(in->pool_fd, pname, 0755))
		goto fail;
	pfd = openat(in->pool_fd, pname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		goto fail;
	what = "move into pool";
	for (size_t i = 0; i < n; i++) {
		dist_file_name(name, sizeof(name), s, items[i].seq);
		if (renameat(in->src_fd[s], name, pfd, name))
			goto fail;
		t->ops++;
	}
	atomic_fetch_add(&r->c_pool, n);
	atomic_fetch_add(&r->c_scanned, n);
	pthread_mutex_lock(&in->mu);
	in->scanned += n;
	pthread_mutex_unlock(&in->mu);
	for (unsigned d = 0; d < r->fanout; d++) {
		struct dist_job *j;

		what = "create outgoing";
		pass_name(oname, sizeof(oname), pass, (int)d);
		if (mkdirat(in->out_fd, oname, 0755))
			goto fail;
		ofd = openat(in->out_fd, oname,
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (ofd < 0)
			goto fail;
		what = "link into outgoing";
		for (size_t i = 0; i < n; i++) {
			dist_file_name(name, sizeof(name), s, items[i].seq);
			if (linkat(pfd, name, ofd, name, 0))
				goto fail;
			t->ops++;
		}
		close(ofd);
		ofd = -1;
		atomic_fetch_add(&r->c_out, n);
		j = xmalloc(sizeof(*j) + n * sizeof(j->items[0]));
		j->pass = pass;
		j->nr = n;
		memcpy(j->items, items, n * sizeof(items[0]));
		queue_push(&in->q[d], j);
	}
	what = "empty pool";
	for (size_t i = 0; i < n; i++) {
		dist_file_name(name, sizeof(name), s, items[i].seq);
		if (unlinkat(pfd, name, 0))
			goto fail;
		t->ops++;
	}
	close(pfd);
	pfd = -1;
	atomic_fetch_sub(&r->c_pool, n);
	what = "remove pool";
	if (unlinkat(in->pool_fd, pname, AT_REMOVEDIR))
		goto fail;
	t->files += n;
	t->ops += 2 + r->fanout;
	return 0;
fail:
	thread_fail(r, "cannot %s (pass %llu of instance %u): %s", what,
		    (unsigned long long)pass, in->idx, strerror(errno));
	if (pfd >= 0)
		close(pfd);
	if (ofd >= 0)
		close(ofd);
	return -1;
}

static void scanner(struct dist_thread *t)
{
	struct dist_run *r = t->r;
	struct dist_inst *in = t->in;
	size_t batch = (size_t)r->o->batch;
	struct dist_item *items = xmalloc(batch * sizeof(*items));
	unsigned s = 0;

	for (;;) {
		size_t got = 0;

		pthread_mutex_lock(&in->mu);
		/*
		 * A file is counted as published after its rename, so a
		 * pass may take files not yet counted: scanned can run
		 * ahead of published, never the other way at the end.
		 */
		while (!stopping(r) && in->published <= in->scanned &&
		       in->producers_left)
			pthread_cond_wait(&in->cond, &in->mu);
		if (stopping(r) || (in->published <= in->scanned &&
				    !in->producers_left)) {
			pthread_mutex_unlock(&in->mu);
			break;
		}
		pthread_mutex_unlock(&in->mu);
		/* one round: one pass per source directory */
		for (unsigned k = 0; k < r->nsrc && !stopping(r); k++) {
			size_t n = scan_dir(t, s, items, batch);

			if (n == (size_t)-1 ||
			    (n && scan_pass(t, s, items, n)))
				goto out;
			got += n;
			s = (s + 1) % r->nsrc;
		}
		/*
		 * A round that starts after a file was counted sees it:
		 * finding none while some are counted means files vanished.
		 */
		if (!got && !stopping(r)) {
			uint64_t missing;

			pthread_mutex_lock(&in->mu);
			missing = in->published > in->scanned ?
				  in->published - in->scanned : 0;
			pthread_mutex_unlock(&in->mu);
			if (missing) {
				thread_fail(r, "instance %u: %llu published "
					    "files are missing from the "
					    "source directories", in->idx,
					    (unsigned long long)missing);
				break;
			}
		}
	}
out:
	free(items);
	for (unsigned d = 0; d < r->fanout; d++) {
		pthread_mutex_lock(&in->q[d].mu);
		in->q[d].closed = true;
		pthread_cond_broadcast(&in->q[d].cond);
		pthread_mutex_unlock(&in->q[d].mu);
	}
}

/*
 * Copy name to dot.  With --verify what is read is checked first: a
 * mismatch fails the run (thread_fail) and returns -2.
 */
static int copy_file(struct dist_thread *t, int from_dir, int to_dir,
		     const char *name, const char *dot)
{
	int in_fd = openat(from_dir, name, O_RDONLY | O_CLOEXEC), out_fd;
	int ret = 0;
	char rel[300];
	uint64_t vid = t->r->verify ? dist_vid(t->in->idx, name, rel,
					       sizeof(rel)) : 0, off = 0;
	struct verify_bad bad;

	if (in_fd < 0)
		return -1;
	out_fd = openat(to_dir, dot, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			0644);
	if (out_fd < 0) {
		close(in_fd);
		return -1;
	}
	for (;;) {
		ssize_t n = read(in_fd, t->buf, IOBUF);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = (int)n;
			break;
		}
		if (t->r->verify &&
		    !verify_check(t->r->ctx->seed, vid, off, t->buf,
				  (size_t)n, &bad)) {
			thread_fail(t->r, "verify: file %s offset %llu: %s "
				    "(copying it to i%u/d%u)", rel,
				    (unsigned long long)bad.block, bad.what,
				    t->in->idx, t->dest);
			ret = -2;
			break;
		}
		off += (uint64_t)n;
		if (write_full(out_fd, t->buf, (size_t)n)) {
			ret = -1;
			break;
		}
	}
	if (!ret && t->r->o->fsync == DIST_FSYNC_FILE && fsync(out_fd))
		ret = -1;
	close(in_fd);
	if (close(out_fd))
		ret = -1;
	return ret;
}

static int deliver_one(struct dist_thread *t, int jfd,
		       const struct dist_item *it)
{
	struct dist_run *r = t->r;
	int dfd = t->in->dst_fd[t->dest];
	char name[32], dot[40];
	const char *what;

	if (!t->first_rt)
		t->first_rt = realtime_ns();
	dist_file_name(name, sizeof(name), it->src, it->seq);
	snprintf(dot, sizeof(dot), ".%s", name);
	switch (r->o->deliver) {
	case DIST_MOVE:
		what = "move";
		if (renameat(jfd, name, dfd, name))
			goto fail;
		t->ops++;
		break;
	case DIST_COPY:
		what = "copy";
		switch (copy_file(t, jfd, dfd, name, dot)) {
		case 0:
			goto rename;
		case -2:
			return -1;      /* the mismatch is the error */
		default:
			goto fail;
		}
	default:
		what = "link";
		if (linkat(jfd, name, dfd, dot, 0))
			goto fail;
rename:
		what = "rename";
		if (renameat(dfd, dot, dfd, name))
			goto fail;
		what = "unlink outgoing";
		if (unlinkat(jfd, name, 0))
			goto fail;
		t->ops += 3;
		break;
	}
	if (r->o->fsync == DIST_FSYNC_FILE && fsync(dfd)) {
		what = "fsync destination of";
		goto fail;
	}
	lathist_add(t->hist, now_ns() - it->pub_ns);
	t->last_rt = realtime_ns();
	t->bytes += it->size;
	t->files++;
	atomic_fetch_sub(&r->c_out, 1);
	atomic_fetch_add(&r->c_delivered, 1);
	return 0;
fail:
	thread_fail(r, "cannot %s '%s' to '%s/%s/i%u/d%u': %s", what, name,
		    r->ctx->dir, TOPDIR, t->in->idx, t->dest,
		    strerror(errno));
	return -1;
}

static int deliver_job(struct dist_thread *t, const struct dist_job *j)
{
	struct dist_run *r = t->r;
	struct dist_inst *in = t->in;
	char oname[48];
	int jfd;

	pass_name(oname, sizeof(oname), j->pass, (int)t->dest);
	jfd = openat(in->out_fd, oname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (jfd < 0) {
		thread_fail(r, "cannot open outgoing '%s/%s/i%u/out/%s': %s",
			    r->ctx->dir, TOPDIR, in->idx, oname,
			    strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < j->nr; i++) {
		if (stopping(r)) {
			close(jfd);
			return 0;     /* the rest stays outgoing */
		}
		if (deliver_one(t, jfd, &j->items[i])) {
			close(jfd);
			return -1;
		}
	}
	close(jfd);
	if (r->o->fsync == DIST_FSYNC_BATCH && syncfs(in->dst_fd[t->dest])) {
		thread_fail(r, "cannot syncfs '%s': %s", r->ctx->dir,
			    strerror(errno));
		return -1;
	}
	if (unlinkat(in->out_fd, oname, AT_REMOVEDIR)) {
		thread_fail(r, "cannot remove outgoing '%s/%s/i%u/out/%s': "
			    "%s", r->ctx->dir, TOPDIR, in->idx, oname,
			    strerror(errno));
		return -1;
	}
	t->ops++;
	return 0;
}

static void deliverer(struct dist_thread *t)
{
	struct dist_queue *q = &t->in->q[t->dest];

	for (;;) {
		struct dist_job *j;
		int ret;

		pthread_mutex_lock(&q->mu);
		while (!q->head && !q->closed && !stopping(t->r))
			pthread_cond_wait(&q->cond, &q->mu);
		if (stopping(t->r) || !q->head) {
			pthread_mutex_unlock(&q->mu);
			return;
		}
		j = q->head;
		q->head = j->next;
		if (!q->head)
			q->tail = NULL;
		pthread_mutex_unlock(&q->mu);
		ret = deliver_job(t, j);
		free(j);
		if (ret)
			return;
	}
}

static void *thread_main(void *arg)
{
	struct dist_thread *t = arg;
	struct dist_run *r = t->r;

	t->start_rt = realtime_ns();
	switch (t->role) {
	case ROLE_PRODUCE:
		producer(t);
		break;
	case ROLE_SCAN:
		scanner(t);
		break;
	case ROLE_DELIVER:
		deliverer(t);
		break;
	}
	t->end_rt = realtime_ns();
	pthread_mutex_lock(&r->mu);
	r->running--;
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

int dist_start_threads(struct dist_run *r, unsigned roles)
{
	for (size_t i = 0; i < r->nr_th; i++) {
		struct dist_thread *t = &r->th[i];
		int e;

		if (!(roles & (1u << t->role)))
			continue;
		pthread_mutex_lock(&r->mu);
		r->running++;
		pthread_mutex_unlock(&r->mu);
		e = pthread_create(&t->th, NULL, thread_main, t);
		if (e) {
			pthread_mutex_lock(&r->mu);
			r->running--;
			pthread_mutex_unlock(&r->mu);
			errno = e;
			thread_fail(r, "cannot start a thread: %s",
				    strerror(e));
			return -1;
		}
		t->started = true;
	}
	return 0;
}

void dist_join_threads(struct dist_run *r)
{
	for (size_t i = 0; i < r->nr_th; i++) {
		if (r->th[i].started)
			pthread_join(r->th[i].th, NULL);
		r->th[i].started = false;
	}
}

/* Queued jobs a stop left behind (their files stay outgoing). */
void dist_drain_queues(struct dist_run *r)
{
	for (unsigned i = 0; i < r->ninst; i++)
		for (unsigned d = 0; d < r->fanout; d++) {
			struct dist_queue *q = &r->inst[i].q[d];

			while (q->head) {
				struct dist_job *j = q->head;

				q->head = j->next;
				free(j);
			}
			q->tail = NULL;
		}
}
