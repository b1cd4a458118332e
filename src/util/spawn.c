/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn.c - run an external program and keep its output (spawn.h).
 */
#include "util/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"

/* How long a stopped child gets between SIGTERM and SIGKILL. */
#define SPAWN_GRACE_NS (5ULL * 1000000000ULL)

static noreturn void child(char *const argv[], int dirfd, int out, int err,
			   int status_fd)
{
	int null, e;

	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 ||
	    dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0 ||
	    (dirfd >= 0 && fchdir(dirfd) < 0)) {
		e = errno;
		(void)!write(status_fd, &e, sizeof(e));
		_exit(127);
	}
	execvp(argv[0], argv);
	e = errno;
	(void)!write(status_fd, &e, sizeof(e));
	_exit(127);
}

/* Append what fd has to read into buf, keeping at most cap bytes: the
 * head (keep_tail false) or the tail.  0 at EOF, 1 on data/EAGAIN. */
static int drain(int fd, char **buf, size_t *len, size_t *alloc, size_t cap,
		 bool keep_tail, bool *truncated)
{
	char chunk[16384];
	ssize_t r = read(fd, chunk, sizeof(chunk));

	if (r == 0)
		return 0;
	if (r < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (keep_tail && *len + (size_t)r > cap) {
		size_t drop = *len + (size_t)r - cap;

		if (drop >= *len) {
			size_t skip = (size_t)r > cap ? (size_t)r - cap : 0;

			*len = 0;
			memcpy(chunk, chunk + skip, (size_t)r - skip);
			r -= (ssize_t)skip;
		} else {
			memmove(*buf, *buf + drop, *len - drop);
			*len -= drop;
		}
		*truncated = true;
	} else if (!keep_tail && *len + (size_t)r > cap) {
		r = (ssize_t)(cap - *len);
		*truncated = true;
	}
	ALLOC_GROW(*buf, *len + (size_t)r + 1, *alloc);
	memcpy(*buf + *len, chunk, (size_t)r);
	*len += (size_t)r;
	(*buf)[*len] = '\0';
	return 1;
}

int spawn_run(char *const argv[], int dirfd, size_t out_cap, unsigned flags,
	      bool (*stop)(void), struct spawn_result *res)
{
	int opipe[2], epipe[2], spipe[2], e = 0;
	size_t oalloc = 0, ealloc = 0, elen = 0;
	bool etrunc = false, oopen = true, eopen = true;
	uint64_t kill_at = 0;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe2(opipe, O_CLOEXEC) < 0)
		return error_errno("cannot create a pipe");
	if (pipe2(epipe, O_CLOEXEC) < 0) {
		close(opipe[0]);
		close(opipe[1]);
		return error_errno("cannot create a pipe");
	}
	if (pipe2(spipe, O_CLOEXEC) < 0) {
		close(opipe[0]);
		close(opipe[1]);
		close(epipe[0]);
		close(epipe[1]);
		return error_errno("cannot create a pipe");
	}
	pid = fork();
	if (pid == 0)
		child(argv, dirfd, opipe[1],
		      flags & SPAWN_MERGE_ERR ? opipe[1] : epipe[1], spipe[1]);
	close(opipe[1]);
	close(epipe[1]);
	close(spipe[1]);
	/* Merged: nothing writes the stderr pipe; its EOF is now. */
	eopen = !(flags & SPAWN_MERGE_ERR);
	if (pid < 0) {
		close(opipe[0]);
		close(epipe[0]);
		close(spipe[0]);
		return error_errno("cannot fork to run '%s'", argv[0]);
	}
	/* The group exists before we might signal it. */
	setpgid(pid, pid);
	fcntl(opipe[0], F_SETFL, O_NONBLOCK);
	fcntl(epipe[0], F_SETFL, O_NONBLOCK);
	res->out = xstrdup("");
	oalloc = 1;
	res->err = NULL;
	while (oopen || eopen) {
		struct pollfd p[2] = {
			{ oopen ? opipe[0] : -1, POLLIN, 0 },
			{ eopen ? epipe[0] : -1, POLLIN, 0 },
		};

		if (poll(p, 2, 100) < 0 && errno != EINTR)
			break;
		if (p[0].revents && !drain(opipe[0], &res->out, &res->out_len,
					   &oalloc, out_cap, false,
					   &res->out_truncated))
			oopen = false;
		if (p[1].revents && !drain(epipe[0], &res->err, &elen, &ealloc,
					   SPAWN_ERR_KEEP, true, &etrunc))
			eopen = false;
		if (stop && stop() && !res->stopped) {
			res->stopped = true;
			kill(-pid, SIGTERM);
			kill_at = now_ns() + SPAWN_GRACE_NS;
		}
		if (kill_at && now_ns() > kill_at) {
			kill(-pid, SIGKILL);
			kill_at = 0;
		}
	}
	close(opipe[0]);
	close(epipe[0]);
	while (wait4(pid, &res->status, 0, &res->ru) < 0) {
		if (errno != EINTR) {
			close(spipe[0]);
			return error_errno("cannot wait for '%s'", argv[0]);
		}
	}
	if (!res->err)
		res->err = xstrdup("");
	res->code = WIFEXITED(res->status) ? WEXITSTATUS(res->status) :
		    128 + WTERMSIG(res->status);
	if (read(spipe[0], &e, sizeof(e)) == (ssize_t)sizeof(e)) {
		close(spipe[0]);
		errno = e;
		error_errno("cannot run '%s'", argv[0]);
		spawn_result_release(res);
		return -1;
	}
	close(spipe[0]);
	return 0;
}

void spawn_result_release(struct spawn_result *res)
{
	free(res->out);
	free(res->err);
	res->out = res->err = NULL;
}

void spawn_tail_lines(const char *text, int n, char *buf, size_t len)
{
	const char *end = text + strlen(text), *p;
	size_t o = 0;
	int lines = 0;

	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	p = end;
	while (p > text) {
		if (p[-1] == '\n' && ++lines == n)
			break;
		p--;
	}
	if (!len)
		return;
	for (; p < end && o + 4 < len; p++) {
		if (*p == '\n') {
			memcpy(buf + o, " | ", 3);
			o += 3;
		} else {
			buf[o++] = *p;
		}
	}
	buf[o] = '\0';
}

bool spawn_in_path(const char *prog)
{
	const char *env = getenv("PATH");
	char *path, *save = NULL, *dir;
	bool found = false;

	if (!*prog)
		return false;
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	path = xstrdup(env ? env : "/usr/bin:/bin");
	for (dir = strtok_r(path, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *p = path_join(*dir ? dir : ".", prog);

		found = access(p, X_OK) == 0;
		free(p);
	}
	free(path);
	return found;
}
