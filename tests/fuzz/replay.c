/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.c - a main() for the fuzz targets without libFuzzer: feeds every
 * file named on the command line (a directory: every regular file in it,
 * sorted) to LLVMFuzzerTestOneInput once.  `make fuzz-replay` links it
 * with gcc so the normal test suite (t9500) replays the seed corpora and
 * every past crash, with no clang needed.  Exit 0 when all ran; a crash
 * or failed check aborts, naming the input first on stdout.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		fprintf(stdout, "replay: cannot open '%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	printf("replay: %s (%zu bytes)\n", path, len);
	fflush(stdout);
	/* Like libFuzzer: an exact-size heap copy so overreads are caught. */
	{
		uint8_t *copy = malloc(len ? len : 1);

		if (!copy)
			abort();
		memcpy(copy, buf, len);
		LLVMFuzzerTestOneInput(copy, len);
		free(copy);
	}
	free(buf);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, size_t *nr)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;
	int ret = 0;

	if (!d) {
		printf("replay: cannot open '%s': %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names || asprintf(&names[n], "%s/%s", dir, de->d_name) < 0)
			abort();
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp);
	for (i = 0; i < n; i++) {
		struct stat st;

		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
			if (run_file(names[i]) < 0)
				ret = -1;
			else
				(*nr)++;
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	size_t nr = 0;
	int ret = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			if (run_dir(argv[i], &nr) < 0)
				ret = 1;
		} else if (run_file(argv[i]) < 0) {
			ret = 1;
		} else {
			nr++;
		}
	}
	printf("replay: %zu input%s, %s\n", nr, nr == 1 ? "" : "s",
		ret ? "some unreadable" : "all ran");
	return ret;
}
