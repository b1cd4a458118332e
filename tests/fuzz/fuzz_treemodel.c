/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_treemodel.c - libFuzzer target for the tree-model data format
 * (treemodel_parse, src/model/treemodel.c): compilebench's data files
 * (`path size` lines) and fslab's extended tree models (`dir/` and
 * `link -> target` lines, doc/tree.md).
 *
 * A rejected input must name "fuzz:LINE:".  An accepted one is written
 * back with treemodel_write() and parsed again: the same entries, types,
 * sizes and targets must come back, so a saved model always reloads.
 * The helpers every loader runs (dir count, path sort) run too.
 */
#include "fuzz.h"

#include "model/treemodel.h"
#include "util/util.h"

FUZZ_INIT_DEFAULT()

static void roundtrip(const struct treemodel *m)
{
	struct treemodel m2;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	FUZZ_CHECK(f);
	FUZZ_CHECK(treemodel_write(m, f) == 0);
	FUZZ_CHECK(fclose(f) == 0);
	treemodel_init(&m2);
	if (treemodel_parse(&m2, buf, len, "again") < 0) {
		fprintf(fuzz_err, "rewritten model rejected: %s\n",
			last_error());
		FUZZ_CHECK(!"treemodel_write output parses");
	}
	FUZZ_CHECK(m2.nr == m->nr);
	for (i = 0; i < m->nr; i++) {
		const struct tm_entry *a = &m->e[i], *b = &m2.e[i];

		FUZZ_CHECK(!strcmp(a->path, b->path));
		FUZZ_CHECK(a->type == b->type && a->size == b->size);
		FUZZ_CHECK(!a->target == !b->target);
		FUZZ_CHECK(!a->target || !strcmp(a->target, b->target));
	}
	treemodel_release(&m2);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct treemodel m;

	treemodel_init(&m);
	if (treemodel_parse(&m, (const char *)data, size, "fuzz") < 0) {
		FUZZ_CHECK(fuzz_names(last_error(), "fuzz"));
	} else {
		roundtrip(&m);
		(void)treemodel_dir_count(&m);
		treemodel_sort(&m, treemodel_pathcmp);
		for (size_t i = 0; i < m.nr; i++)
			FUZZ_CHECK(treemodel_get(&m, m.e[i].path) == &m.e[i]);
	}
	treemodel_release(&m);
	return 0;
}
