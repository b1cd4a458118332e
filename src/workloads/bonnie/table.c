/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * table.c - bonnie++'s multi-row tables, rendered from CSV rows the way
 * the tools that read them do: bon_csv2txt 2.00a for 1.98 rows, and the
 * bonnie++ 1.03 column layout for 1.03 rows.  Rendering from the rows
 * (not from the figures) is what keeps the table and `bon_csv2txt` in
 * step: both read the same text.  Pure, unit-tested.
 */
#include "workloads/bonnie/bonnie.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* A row split at commas; trailing empty fields dropped (as Perl does). */
struct fields {
	char *buf;
	char **f;
	size_t nr;
};

static void fields_split(struct fields *fs, const char *row)
{
	size_t alloc = 0;
	char *p;

	memset(fs, 0, sizeof(*fs));
	fs->buf = xstrdup(row);
	p = fs->buf;
	for (;;) {
		char *c = strchr(p, ',');

		ALLOC_GROW(fs->f, fs->nr + 1, alloc);
		fs->f[fs->nr++] = p;
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	while (fs->nr && !*fs->f[fs->nr - 1])
		fs->nr--;
}

static const char *fget(const struct fields *fs, size_t i)
{
	return i < fs->nr ? fs->f[i] : "";
}

static void fields_release(struct fields *fs)
{
	free(fs->buf);
	free(fs->f);
}

/*
 * The 19-column label: the name cut to leave room for " SIZE", as
 * bon_csv2txt 2.00a does, or the size alone when it is that long.
 */
static void label_200(char *buf, size_t len, const char *name,
		      const char *size)
{
	size_t sl = strlen(size);

	if (sl < 18)
		snprintf(buf, len, "%-*.*s %s", (int)(18 - sl),
			 (int)(18 - sl), name, size);
	else
		snprintf(buf, len, "%s", size);
}

/* bonnie++ 1.03: the name padded or cut to 19 - len(size), then size. */
static void label_103(char *buf, size_t len, const char *name,
		      const char *size)
{
	size_t sl = strlen(size);

	if (sl < 19)
		snprintf(buf, len, "%-*.*s%s", (int)(19 - sl),
			 (int)(19 - sl), name, size);
	else
		snprintf(buf, len, "%s", size);
}

/*
 * bon_csv2txt's K/sec cell: "1128k", "51.2m", "468m", "1.5g".  A field
 * that is not a number ("+++++") counts as 0, as Perl's numeric
 * conversion makes it, so bon_csv2txt shows such a cell as "0k".
 */
void bon_conv_speed(char *buf, size_t len, const char *field)
{
	double v, m;

	if (!*field) {
		snprintf(buf, len, "%s", "");
		return;
	}
	v = strtod(field, NULL);
	m = v / 1024;
	if (v < 10000)
		snprintf(buf, len, "%4dk", (int)v);
	else if (m < 1000 && m < 100)
		snprintf(buf, len, "%4.1fm", m);
	else if (m < 1000)
		snprintf(buf, len, "%4dm", (int)(m + 0.5));
	else
		snprintf(buf, len, "%4.1fg", m / 1024);
}

static void put_cells(FILE *out, const char *const *v, bool speed)
{
	char t[64];

	for (int i = 0; i < 12; i++) {
		if (speed && !(i & 1) && i < 10) {
			bon_conv_speed(t, sizeof(t), v[i]);
			fprintf(out, " %5s", t);
		} else {
			fprintf(out, i & 1 ? " %3s" : " %5s", v[i]);
		}
	}
	fputc('\n', out);
}

static void put_latency(FILE *out, const struct fields *fs, size_t from,
			size_t nr)
{
	bool any = false;

	for (size_t i = 0; i < nr; i++)
		if (*fget(fs, from + i))
			any = true;
	if (!any)
		return;
	fprintf(out, "Latency          ");
	for (size_t i = 0; i < 6; i++)
		fprintf(out, " %9s", i < nr ? fget(fs, from + i) : "");
	fputc('\n', out);
}

/* A 1.98 row's I/O and file parts, as bon_csv2txt 2.00a regroups them. */
struct part200 {
	char size[128];
	const char *v[12];
	size_t lat_from, lat_nr;   /* latency fields of the source row */
	bool present;
};

static void io_part(const struct fields *fs, struct part200 *p)
{
	size_t l;
	bool any;

	snprintf(p->size, sizeof(p->size), "%s:%s:%s:%s", fget(fs, 5),
		 fget(fs, 6), fget(fs, 7), fget(fs, 8));
	l = strlen(p->size);
	while (l && p->size[l - 1] == ':')
		p->size[--l] = '\0';
	any = l > 0;
	for (int i = 0; i < 12; i++) {
		p->v[i] = fget(fs, 9 + (size_t)i);
		if (*p->v[i])
			any = true;
	}
	p->present = any;
	/* bon_csv2txt carries the latencies only past field 39 */
	p->lat_from = 38;
	p->lat_nr = fs->nr > 40 ? 6 : 0;
}

static void file_part(const struct fields *fs, struct part200 *p)
{
	static const char *const sep[] = { "", ":", ":", "/", ":" };
	size_t l = 0;
	bool any;

	p->size[0] = '\0';
	for (size_t i = 0; i < 5; i++) {
		const char *f = fget(fs, 21 + i);

		if ((i && !*f) || l >= sizeof(p->size))
			continue;
		l += (size_t)snprintf(p->size + l, sizeof(p->size) - l,
				      "%s%s", sep[i], f);
	}
	any = p->size[0] != '\0';
	for (int i = 0; i < 12; i++) {
		p->v[i] = fget(fs, 26 + (size_t)i);
		if (*p->v[i])
			any = true;
	}
	p->present = any;
	p->lat_from = 44;
	p->lat_nr = fs->nr > 44 ? fs->nr - 44 : 0;
	if (p->lat_nr > 6)
		p->lat_nr = 6;
}

/* One line per 1.98 row that has this part. */
static void put_part_rows(FILE *out, const struct fields *fs, size_t nr,
			  void (*part)(const struct fields *,
				       struct part200 *),
			  bool io)
{
	struct part200 p;
	char label[160];

	for (size_t i = 0; i < nr; i++) {
		if (!fs[i].nr)
			continue;
		part(&fs[i], &p);
		if (!p.present)
			continue;
		label_200(label, sizeof(label), fget(&fs[i], 2), p.size);
		fprintf(out, "%19s", label);
		put_cells(out, p.v, io);
		put_latency(out, &fs[i], p.lat_from, p.lat_nr);
	}
}

void bon_csv2txt(FILE *out, const char *const *rows, size_t nr)
{
	struct fields *fs = xcalloc(nr + 1, sizeof(*fs));
	struct part200 p;
	bool io = false, files = false;

	for (size_t i = 0; i < nr; i++) {
		fields_split(&fs[i], rows[i]);
		if (strcmp(fget(&fs[i], 0), "1.98")) {
			fields_release(&fs[i]);
			memset(&fs[i], 0, sizeof(fs[i]));
			continue;
		}
		io_part(&fs[i], &p);
		io |= p.present;
		file_part(&fs[i], &p);
		files |= p.present;
	}
	if (io) {
		fprintf(out, "Version %9s   ------Sequential Output------ "
			"--Sequential Input- --Random-\n", "2.00a");
		fprintf(out, "                    -Per Chr- --Block-- "
			"-Rewrite- -Per Chr- --Block-- --Seeks--\n");
		fprintf(out, "Name:Size etc        /sec %%CP  /sec %%CP  "
			"/sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP\n");
		put_part_rows(out, fs, nr, io_part, true);
	}
	if (files) {
		fprintf(out, "%20s------Sequential Create------ "
			"--------Random Create--------\n", "");
		fprintf(out, "                    -Create-- --Read--- "
			"-Delete-- -Create-- --Read--- -Delete--\n");
		fprintf(out, "      files:max:min  /sec %%CP  /sec %%CP  "
			"/sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP\n");
		put_part_rows(out, fs, nr, file_part, false);
	}
	for (size_t i = 0; i < nr; i++)
		fields_release(&fs[i]);
	free(fs);
}

/*
 * bonnie++ 1.03's CSV row: name, size, the six I/O rates with %CP (K/sec,
 * seeks/sec with one decimal), the file count ("16", "16:4096:1024/8"),
 * the six file-test rates with %CP; no version field, no latencies.
 */
char *bon_csv_row_103(const struct bon_row *r)
{
	char *s = NULL, t[64], u[64];
	size_t nr = 0, alloc = 0;

#define ADD(str) do { size_t l_ = strlen(str); \
		ALLOC_GROW(s, nr + l_ + 1, alloc); \
		memcpy(s + nr, str, l_ + 1); nr += l_; } while (0)
	ADD(r->machine);
	ADD(",");
	if (r->size) {
		bon_fmt_size(t, sizeof(t), r->size);
		ADD(t);
	}
	for (int i = 0; i < BON_NR_IO; i++) {
		const struct bon_cell *c = &r->cell[i];

		if (i == BON_SEEKS && c->present && !c->too_fast)
			snprintf(t, sizeof(t), "%.1f", c->rate);
		else
			bon_fmt_rate(t, sizeof(t), c, (enum bon_test)i);
		bon_fmt_cpu(u, sizeof(u), c);
		ADD(",");
		ADD(t);
		ADD(",");
		ADD(u);
	}
	ADD(",");
	if (r->have_files) {
		const struct bon_files *f = &r->files;
		size_t l;

		snprintf(t, sizeof(t), "%lld", f->n);
		if (f->max || f->min) {
			l = strlen(t);
			snprintf(t + l, sizeof(t) - l, ":%llu:%llu",
				 (unsigned long long)f->max,
				 (unsigned long long)f->min);
		}
		if (f->dirs > 1) {
			l = strlen(t);
			snprintf(t + l, sizeof(t) - l, "/%lld", f->dirs);
		}
		ADD(t);
	}
	for (int i = BON_NR_IO; i < BON_NR; i++) {
		bon_fmt_rate(t, sizeof(t), &r->cell[i], (enum bon_test)i);
		bon_fmt_cpu(u, sizeof(u), &r->cell[i]);
		ADD(",");
		ADD(t);
		ADD(",");
		ADD(u);
	}
#undef ADD
	return s;
}

void bon_table_103(FILE *out, const char *const *rows, size_t nr)
{
	struct fields *fs = xcalloc(nr + 1, sizeof(*fs));
	bool io = false, files = false;
	char label[160];

	for (size_t i = 0; i < nr; i++) {
		fields_split(&fs[i], rows[i]);
		for (size_t k = 1; k < 14; k++)
			io |= *fget(&fs[i], k) != '\0';
		for (size_t k = 14; k < 27; k++)
			files |= *fget(&fs[i], k) != '\0';
	}
	if (io) {
		fprintf(out, "Version  1.03       ------Sequential Output"
			"------ --Sequential Input- --Random-\n");
		fprintf(out, "                    -Per Chr- --Block-- "
			"-Rewrite- -Per Chr- --Block-- --Seeks--\n");
		fprintf(out, "Machine        Size K/sec %%CP K/sec %%CP K/sec "
			"%%CP K/sec %%CP K/sec %%CP  /sec %%CP\n");
		for (size_t i = 0; i < nr; i++) {
			const char *v[12];

			for (size_t k = 0; k < 12; k++)
				v[k] = fget(&fs[i], 2 + k);
			label_103(label, sizeof(label), fget(&fs[i], 0),
				  fget(&fs[i], 1));
			fprintf(out, "%19s", label);
			put_cells(out, v, false);
		}
	}
	if (files) {
		fprintf(out, "%20s------Sequential Create------ "
			"--------Random Create--------\n", "");
		fprintf(out, "                    -Create-- --Read--- "
			"-Delete-- -Create-- --Read--- -Delete--\n");
		fprintf(out, "files:max:min        /sec %%CP  /sec %%CP  /sec "
			"%%CP  /sec %%CP  /sec %%CP  /sec %%CP\n");
		for (size_t i = 0; i < nr; i++) {
			const char *v[12];

			if (!*fget(&fs[i], 14))
				continue;
			for (size_t k = 0; k < 12; k++)
				v[k] = fget(&fs[i], 15 + k);
			label_103(label, sizeof(label), fget(&fs[i], 0),
				  fget(&fs[i], 14));
			fprintf(out, "%19s", label);
			put_cells(out, v, false);
		}
	}
	for (size_t i = 0; i < nr; i++)
		fields_release(&fs[i]);
	free(fs);
}
