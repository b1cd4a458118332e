/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.c - allocation, error reporting, clocks, parsing and process
 * helpers.  Everything here is small and has no knowledge of fslab's
 * domain; see util.h for the contracts.
 */
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static noreturn void oom(size_t n)
{
	fprintf(stderr, "fslab: fatal: out of memory allocating %zu bytes\n",
		n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom(strlen(s) + 1);
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		oom(n + 1);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		oom(strlen(fmt));
	va_end(ap);
	return p;
}

static char last_msg[512];

const char *last_error(void)
{
	return last_msg;
}

static void vreport(const char *prefix, const char *fmt, va_list ap,
		    const char *suffix)
{
	/* One fprintf per message so concurrent writers don't interleave. */
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fflush(stdout);
	fprintf(stderr, "fslab: %s%s%s%s\n", prefix, msg, suffix ? ": " : "",
		suffix ? suffix : "");
	if (!strcmp(prefix, "error: ")) {
		/* Truncation is fine: it is a one-line reason. */
		size_t n = strnlen(msg, sizeof(last_msg) - 1);

		memcpy(last_msg, msg, n);
		last_msg[n] = '\0';
		if (suffix) {
			strncat(last_msg, ": ", sizeof(last_msg) - n - 1);
			strncat(last_msg, suffix,
				sizeof(last_msg) - strlen(last_msg) - 1);
		}
	}
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap, NULL);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap, strerror(e));
	va_end(ap);
	errno = e;
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap, NULL);
	va_end(ap);
}

noreturn void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap, NULL);
	va_end(ap);
	exit(EXIT_RUNTIME);
}

noreturn void bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	char msg[1024];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "fslab: BUG: %s:%d: %s\n", file, line, msg);
	abort();
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int mkdir_p(const char *path, unsigned mode)
{
	char *p = xstrdup(path);
	int rc = 0;

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST) {
			rc = -1;
			break;
		}
		*s = '/';
	}
	if (!rc && mkdir(p, mode) < 0 && errno != EEXIST)
		rc = -1;
	if (!rc) {
		struct stat st;

		if (stat(path, &st) < 0)
			rc = -1;
		else if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			rc = -1;
		}
	}
	free(p);
	return rc;
}

char *read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0, alloc = 0;
	char *buf = NULL;

	if (fd < 0)
		return NULL;
	for (;;) {
		ssize_t r;

		ALLOC_GROW(buf, n + 4097, alloc);
		r = read(fd, buf + n, alloc - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			close(fd);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int write_file_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t len = strlen(s);
	ssize_t w;
	int e;

	if (fd < 0)
		return -1;
	w = write(fd, s, len);
	e = errno;
	if (close(fd) < 0 && w >= 0)
		return -1;
	errno = e;
	return w == (ssize_t)len ? 0 : -1;
}

ssize_t read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a);

	while (la > 1 && a[la - 1] == '/')
		la--;
	while (*b == '/')
		b++;
	return xasprintf("%.*s/%s", (int)la, a, b);
}

bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_int(const char *s, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (tolower((unsigned char)*end)) {
	case '\0':
		break;
	case 'k': shift = 10; end++; break;
	case 'm': shift = 20; end++; break;
	case 'g': shift = 30; end++; break;
	case 't': shift = 40; end++; break;
	case 'b': end++; if (*end) return -1; break;
	default:
		return -1;
	}
	if (shift) {
		if (tolower((unsigned char)*end) == 'i')
			end++;
		if (tolower((unsigned char)*end) == 'b')
			end++;
	}
	if (*end)
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

char *fmt_size(char *buf, size_t len, uint64_t bytes)
{
	static const char units[] = "BKMGTP";
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%lluB", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.1f%c", v, units[u]);
	return buf;
}

char **argv_split(const char *s, char *err, size_t errlen)
{
	char **argv = NULL;
	size_t nr = 0, alloc = 0;
	char *cur = xmalloc(strlen(s) + 1);

	for (;;) {
		size_t n = 0;
		char quote = 0;
		bool have = false;

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		for (; *s; s++) {
			if (quote) {
				if (*s == quote) {
					quote = 0;
					continue;
				}
				if (*s == '\\' && quote == '"' && s[1]) {
					cur[n++] = *++s;
					continue;
				}
				cur[n++] = *s;
				continue;
			}
			if (*s == ' ' || *s == '\t' || *s == '\n')
				break;
			if (*s == '\'' || *s == '"') {
				quote = *s;
				have = true;
				continue;
			}
			if (*s == '\\' && s[1]) {
				cur[n++] = *++s;
				continue;
			}
			cur[n++] = *s;
		}
		if (quote) {
			snprintf(err, errlen, "unbalanced %c quote", quote);
			free(cur);
			ALLOC_GROW(argv, nr + 1, alloc);
			argv[nr] = NULL;
			argv_free(argv);
			return NULL;
		}
		if (n || have) {
			ALLOC_GROW(argv, nr + 2, alloc);
			argv[nr++] = xstrndup(cur, n);
		}
	}
	free(cur);
	ALLOC_GROW(argv, nr + 1, alloc);
	argv[nr] = NULL;
	return argv;
}

void argv_free(char **argv)
{
	if (!argv)
		return;
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

size_t argv_len(char *const *argv)
{
	size_t n = 0;

	while (argv && argv[n])
		n++;
	return n;
}

int run_cmd(char *const argv[], char **out, bool capture)
{
	int pfd[2] = { -1, -1 };
	int status;
	pid_t pid;

	if (capture && pipe2(pfd, O_CLOEXEC) < 0)
		return error_errno("cannot create pipe for '%s'", argv[0]);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		if (capture) {
			close(pfd[0]);
			close(pfd[1]);
		}
		return error_errno("cannot fork for '%s'", argv[0]);
	}
	if (pid == 0) {
		if (capture) {
			dup2(pfd[1], 1);
			dup2(pfd[1], 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (capture) {
		size_t n = 0, alloc = 0;
		char *buf = NULL;

		close(pfd[1]);
		for (;;) {
			ssize_t r;

			ALLOC_GROW(buf, n + 4097, alloc);
			r = read(pfd[0], buf + n, alloc - n - 1);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			n += (size_t)r;
		}
		close(pfd[0]);
		buf[n] = '\0';
		if (out)
			*out = buf;
		else
			free(buf);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return error_errno("cannot wait for '%s'", argv[0]);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

bool is_root(void)
{
	return geteuid() == 0;
}

int proc_starttime(long pid, unsigned long long *start, bool *zombie)
{
	char path[64], *s, *p;
	int field;

	if (pid <= 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	s = read_file(path, NULL);
	if (!s)
		return -1;
	/* comm may hold spaces and parens: fields restart after the last ')' */
	p = strrchr(s, ')');
	if (!p || p[1] != ' ') {
		free(s);
		return -1;
	}
	p += 2;
	if (zombie)
		*zombie = *p == 'Z' || *p == 'X';
	for (field = 3; field < 22 && p; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p || sscanf(p, "%llu", start) != 1) {
		free(s);
		return -1;
	}
	free(s);
	return 0;
}

bool proc_is_same(long pid, int64_t since)
{
	unsigned long long start, btime = 0;
	char *stat, *p;
	bool zombie = false;
	long hz = sysconf(_SC_CLK_TCK);

	if (proc_starttime(pid, &start, &zombie) < 0 || zombie)
		return false;
	stat = read_file("/proc/stat", NULL);
	p = stat ? strstr(stat, "\nbtime ") : NULL;
	if (!p || sscanf(p + 7, "%llu", &btime) != 1 || hz <= 0) {
		free(stat);
		return true; /* cannot tell: it may be the one */
	}
	free(stat);
	/* Started after `since` (a second of slack): pid reuse. */
	return (int64_t)(btime + start / (unsigned long long)hz) <= since + 1;
}

DIR *opendir_at(int dfd)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;
	int e;

	if (fd < 0)
		return NULL;
	d = fdopendir(fd);
	if (!d) {
		e = errno;
		close(fd);
		errno = e;
	}
	return d;
}
