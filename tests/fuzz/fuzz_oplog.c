/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_oplog.c - libFuzzer target for aging operation logs
 * (src/age/oplog.c): every line through oplog_parse_line(), then the
 * whole log through oplog_final_set() (read from memory with fmemopen,
 * written to /dev/null), the path `fslab age --replay` and the fresh
 * baseline take.
 *
 * A parsed op must format back to a line that parses to the same op; a
 * rejected line must have a reason; a rejected log must name "fuzz:".
 */
#include "fuzz.h"

#include "age/oplog.h"
#include "util/util.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

static void one_line(const char *line)
{
	struct age_op op, op2;
	char err[512] = "", buf[1024];
	int rc = oplog_parse_line(line, &op, err, sizeof(err));

	if (rc < 0) {
		FUZZ_CHECK(err[0]);
		return;
	}
	if (rc == 0)
		return;
	FUZZ_CHECK(op.kind < AOP_NR_KINDS);
	oplog_format(&op, buf, sizeof(buf));
	FUZZ_CHECK(oplog_parse_line(buf, &op2, err, sizeof(err)) == 1);
	FUZZ_CHECK(op2.kind == op.kind && op2.a == op.a && op2.b == op.b);
	FUZZ_CHECK(!strcmp(op.path, op2.path));
	FUZZ_CHECK(op.kind != AOP_RENAME || !strcmp(op.path2, op2.path2));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), *line, *save = NULL;
	FILE *f;

	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		one_line(line);
	free(s);
	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	FUZZ_CHECK(f);
	if (oplog_final_set(f, "fuzz", devnull) < 0)
		FUZZ_CHECK(fuzz_names(last_error(), "fuzz"));
	fclose(f);
	return 0;
}
