/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz.h - helpers shared by the libFuzzer targets in tests/fuzz/.
 *
 * Every target is one fuzz_<parser>.c defining LLVMFuzzerTestOneInput();
 * the same file links either with libFuzzer (clang, `make fuzz`) or with
 * replay.c (gcc, `make fuzz-replay`, which feeds it a corpus).  Parsers
 * report with error() on stderr, so fuzz_init() silences that once, and
 * FUZZ_CHECK() turns a broken promise of a parser (e.g. "a rejected input
 * gets a message naming file:line") into an abort the fuzzer records.
 */
#ifndef FSLAB_FUZZ_H
#define FSLAB_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort (a crash for libFuzzer) with the reason on the real stderr. */
#define FUZZ_CHECK(cond)                                                   \
	do {                                                               \
		if (!(cond))                                               \
			fuzz_fail(__FILE__, __LINE__, #cond);              \
	} while (0)

/* A rejected input's promised reason: not empty, and one line unless the
 * input had a newline of its own (it may be quoted).  Logged on the
 * silenced stderr, for FUZZ_VERBOSE=1.  A macro, so that a failure names
 * the target's line. */
#define FUZZ_CHECK_REASON(input, err)                                      \
	do {                                                               \
		FUZZ_CHECK((err)[0]);                                      \
		fprintf(stderr, "rejected: %s\n", (err));                  \
		FUZZ_CHECK(strchr((input), '\n') || !strchr((err), '\n')); \
	} while (0)

/* The whole LLVMFuzzerInitialize() of a target whose parser needs no
 * set-up beyond fuzz_init(); at file scope, without a semicolon. */
#define FUZZ_INIT_DEFAULT()                                                \
	int LLVMFuzzerInitialize(int *argc, char ***argv)                  \
	{                                                                  \
		(void)argc;                                                \
		(void)argv;                                                \
		fuzz_init();                                               \
		return 0;                                                  \
	}

/* The real stderr, for failed checks; NULL until fuzz_init(). */
static FILE *fuzz_err;

static inline void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(fuzz_err ? fuzz_err : stderr, "%s:%d: check failed: %s\n",
		file, line, what);
	abort();
}

/* Silence the parsers' messages (error() writes to the stdio stream
 * stderr) by pointing stderr at /dev/null.  File descriptor 2 stays as
 * it is, so sanitizer reports and libFuzzer's own output (it keeps its
 * own FILE) still show.  FUZZ_VERBOSE=1 keeps the messages. */
static inline void fuzz_init(void)
{
	const char *v = getenv("FUZZ_VERBOSE");
	FILE *null;

	fuzz_err = stderr;
	if (v && *v == '1')
		return;
	null = fopen("/dev/null", "w");
	if (null)
		stderr = null;
}

/* A NUL-terminated copy of the input (an embedded NUL ends it early, as
 * it would for a string read from a file by read_file()). */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* True when the message starts with "origin:" (the file:line form). */
static inline int fuzz_names(const char *msg, const char *origin)
{
	size_t n = strlen(origin);

	return !strncmp(msg, origin, n) && msg[n] == ':';
}

#endif
