/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * svgglyph.c - glyph sharing across inline SVG charts (see svgglyph.h).
 * Works on cairo's output text: <symbol overflow="visible" id="ID">
 * BODY</symbol> definitions and xlink:href="#ID" references.  Anything
 * else passes through unchanged.
 */
#include "output/svgglyph.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct glyph {
	char *body;
	unsigned id;
};

static struct glyph *glyphs;
static size_t nr_glyphs, alloc_glyphs;

struct alias {
	char *local;
	unsigned id;
};

void svg_glyphs_reset(void)
{
	for (size_t i = 0; i < nr_glyphs; i++)
		free(glyphs[i].body);
	free(glyphs);
	glyphs = NULL;
	nr_glyphs = alloc_glyphs = 0;
}

/* The shared id of body, adding it (and its definition to defs). */
static unsigned glyph_id(const char *body, size_t len, FILE *defs)
{
	for (size_t i = 0; i < nr_glyphs; i++)
		if (strlen(glyphs[i].body) == len &&
		    !memcmp(glyphs[i].body, body, len))
			return glyphs[i].id;
	ALLOC_GROW(glyphs, nr_glyphs + 1, alloc_glyphs);
	glyphs[nr_glyphs].body = xstrndup(body, len);
	glyphs[nr_glyphs].id = (unsigned)nr_glyphs;
	fprintf(defs, "<symbol overflow=\"visible\" id=\"fslab-g%zu\">%.*s"
		"</symbol>\n", nr_glyphs, (int)len, body);
	return (unsigned)nr_glyphs++;
}

void svg_glyphs_put(FILE *out, const char *svg)
{
	static const char sym[] = "<symbol overflow=\"visible\" id=\"";
	static const char href[] = "xlink:href=\"#";
	struct alias *al = NULL;
	size_t nr_al = 0, alloc_al = 0;
	char *defs = NULL, *body = NULL;
	size_t defs_len = 0, body_len = 0;
	FILE *d = open_memstream(&defs, &defs_len);
	FILE *b = open_memstream(&body, &body_len);
	const char *p = svg;

	if (!d || !b) {
		if (d)
			fclose(d);
		if (b)
			fclose(b);
		free(defs);
		free(body);
		fputs(svg, out);
		return;
	}
	while (*p) {
		const char *end, *q;

		if (!strncmp(p, sym, sizeof(sym) - 1)) {
			const char *id = p + sizeof(sym) - 1;
			const char *idend = strchr(id, '"');
			const char *open = idend ? strchr(idend, '>') : NULL;

			end = open ? strstr(open, "</symbol>") : NULL;
			if (end) {
				ALLOC_GROW(al, nr_al + 1, alloc_al);
				al[nr_al].local = xstrndup(id, (size_t)(idend -
									id));
				al[nr_al++].id = glyph_id(open + 1, (size_t)(
					end - open - 1), d);
				p = end + strlen("</symbol>");
				if (*p == '\n')
					p++;
				continue;
			}
		}
		if (!strncmp(p, href, sizeof(href) - 1)) {
			const char *id = p + sizeof(href) - 1;
			bool done = false;

			end = strchr(id, '"');
			for (size_t i = 0; end && i < nr_al && !done; i++)
				if (strlen(al[i].local) == (size_t)(end - id) &&
				    !memcmp(al[i].local, id,
					    (size_t)(end - id))) {
					fprintf(b, "%sfslab-g%u\"", href,
						al[i].id);
					p = end + 1;
					done = true;
				}
			if (done)
				continue;
		}
		q = p + 1;
		while (*q && *q != '<' && *q != 'x')
			q++;
		fwrite(p, 1, (size_t)(q - p), b);
		p = q;
	}
	fclose(d);
	fclose(b);
	if (defs_len)
		fprintf(out, "<svg width=\"0\" height=\"0\" style=\"position:"
			"absolute\" aria-hidden=\"true\"><defs>\n%s</defs>"
			"</svg>\n", defs);
	fputs(body, out);
	for (size_t i = 0; i < nr_al; i++)
		free(al[i].local);
	free(al);
	free(defs);
	free(body);
}
