/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * histblob.c - LEB128 bucket blobs of latency histograms (histblob.h).
 */
#include "store/histblob.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/lathist.h"
#include "util/strbuf.h"
#include "util/util.h"

static void put_varint(struct strbuf *sb, uint64_t v)
{
	do {
		unsigned char c = v & 0x7f;

		v >>= 7;
		strbuf_addch(sb, (char)(c | (v ? 0x80 : 0)));
	} while (v);
}

/* 1 and the value, 0 at the end of the buffer, -1 when malformed. */
static int get_varint(const unsigned char **pos, const unsigned char *end,
		      uint64_t *v)
{
	const unsigned char *p = *pos;
	uint64_t r = 0;

	if (p == end)
		return 0;
	for (unsigned shift = 0;; shift += 7) {
		if (p == end || shift > 63)
			return -1;  /* truncated, or longer than 64 bits */
		if (shift == 63 && (*p & 0x7e))
			return -1;
		r |= (uint64_t)(*p & 0x7f) << shift;
		if (!(*p++ & 0x80))
			break;
	}
	/* one spelling per value: no trailing zero groups */
	if (p - *pos > 1 && p[-1] == 0)
		return -1;
	*pos = p;
	*v = r;
	return 1;
}

static int refuse(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

static void encode_into(struct strbuf *sb, const struct hist_rec *h)
{
	uint64_t prev = 0;
	bool first = true;

	strbuf_addch(sb, HISTBLOB_FORMAT);
	for (uint32_t i = 0; i < h->nr; i++) {
		uint64_t idx = (uint64_t)h->first + i;

		if (!h->b[i])
			continue;
		put_varint(sb, first ? idx : idx - prev);
		put_varint(sb, h->b[i]);
		prev = idx;
		first = false;
	}
}

unsigned char *histblob_encode(const struct hist_rec *h, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;

	encode_into(&sb, h);
	return (unsigned char *)strbuf_detach(&sb, len);
}

int histblob_decode(struct hist_rec *h, const unsigned char *blob,
		    size_t len, char *why, size_t whylen)
{
	const unsigned char *p = blob, *end = blob + len;
	uint64_t idx = 0, total = 0, delta, count, lo = 0, hi = 0;
	uint64_t *full = NULL;
	bool first = true;
	int rc;

	free(h->b);
	h->b = NULL;
	h->first = h->nr = 0;
	if (h->nr_buckets != LATHIST_NR)
		return refuse(why, whylen, "a histogram of %u buckets, but "
			      "this fslab's bucket scheme has %u: it was "
			      "written with a different bucket scheme",
			      h->nr_buckets, (unsigned)LATHIST_NR);
	if (!len || !blob || blob[0] != HISTBLOB_FORMAT)
		return refuse(why, whylen, "a histogram blob of unknown "
			      "format %d", len && blob ? blob[0] : -1);
	p++;
	full = xcalloc(LATHIST_NR, sizeof(*full));
	while ((rc = get_varint(&p, end, &delta)) > 0) {
		if (get_varint(&p, end, &count) <= 0)
			goto bad;
		if (!first && !delta)
			goto bad;
		if (delta >= LATHIST_NR || idx + delta >= LATHIST_NR) {
			free(full);
			return refuse(why, whylen, "a histogram bucket beyond "
				      "the scheme's %u", (unsigned)LATHIST_NR);
		}
		idx = first ? delta : idx + delta;
		if (!count || total + count < total)
			goto bad;
		total += count;
		full[idx] = count;
		if (first)
			lo = idx;
		hi = idx + 1;
		first = false;
	}
	if (rc < 0)
		goto bad;
	if (total != h->count) {
		free(full);
		return refuse(why, whylen, "a histogram's buckets hold %llu "
			      "samples, its count says %llu",
			      (unsigned long long)total,
			      (unsigned long long)h->count);
	}
	h->first = (uint32_t)lo;
	h->nr = (uint32_t)(hi - lo);
	if (h->nr) {
		h->b = xmalloc(h->nr * sizeof(*h->b));
		memcpy(h->b, full + lo, h->nr * sizeof(*h->b));
	}
	free(full);
	return 0;
bad:
	free(full);
	return refuse(why, whylen, "a corrupt or truncated histogram blob");
}

unsigned char *seriesblob_encode(const uint32_t *v, size_t nr, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addch(&sb, HISTBLOB_FORMAT);
	for (size_t i = 0; i < nr; i++)
		put_varint(&sb, v[i]);
	return (unsigned char *)strbuf_detach(&sb, len);
}

int seriesblob_decode(const unsigned char *blob, size_t len, size_t nr,
		      uint64_t total, uint32_t **out, char *why,
		      size_t whylen)
{
	const unsigned char *p = blob, *end = blob + len;
	uint32_t *v;
	uint64_t c, sum = 0;
	size_t i = 0;
	int rc;

	*out = NULL;
	if (!len || !blob || blob[0] != HISTBLOB_FORMAT)
		return refuse(why, whylen, "a series blob of unknown format %d",
			      len && blob ? blob[0] : -1);
	if (nr > len)   /* every count takes a byte at least */
		return refuse(why, whylen, "a truncated series blob");
	p++;
	v = xcalloc(nr ? nr : 1, sizeof(*v));
	while ((rc = get_varint(&p, end, &c)) > 0) {
		if (i == nr || c > UINT32_MAX)
			break;
		sum += c;
		v[i++] = (uint32_t)c;
	}
	if (rc != 0 || i != nr || sum > total) {
		free(v);
		return refuse(why, whylen, "a corrupt series blob");
	}
	*out = v;
	return 0;
}

static void put_str(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s ? s : "");

	put_varint(sb, n);
	strbuf_add(sb, s ? s : "", n);
}

unsigned char *histblob_pack(const struct hist_rec *h, size_t n,
			     size_t *len)
{
	struct strbuf sb = STRBUF_INIT, blob = STRBUF_INIT;

	put_varint(&sb, n);
	for (size_t i = 0; i < n; i++) {
		put_str(&sb, h[i].op);
		put_str(&sb, h[i].unit);
		put_varint(&sb, h[i].count);
		put_varint(&sb, h[i].sum);
		put_varint(&sb, h[i].min);
		put_varint(&sb, h[i].max);
		put_varint(&sb, h[i].nr_buckets);
		strbuf_reset(&blob);
		encode_into(&blob, &h[i]);
		put_varint(&sb, blob.len);
		strbuf_add(&sb, blob.buf, blob.len);
	}
	strbuf_release(&blob);
	return (unsigned char *)strbuf_detach(&sb, len);
}

static char *get_str(const unsigned char **p, const unsigned char *end)
{
	uint64_t n;
	char *s;

	if (get_varint(p, end, &n) <= 0 || n > (uint64_t)(end - *p))
		return NULL;
	s = xstrndup((const char *)*p, (size_t)n);
	if (strlen(s) != n) {
		free(s);
		return NULL;
	}
	*p += n;
	return s;
}

int histblob_unpack(struct phase_rec *p, const unsigned char *buf,
		    size_t len, char *why, size_t whylen)
{
	const unsigned char *q = buf, *end = buf + len;
	uint64_t n, v[6];

	if (get_varint(&q, end, &n) <= 0)
		return refuse(why, whylen, "an empty histogram pack");
	for (uint64_t i = 0; i < n; i++) {
		struct hist_rec h = { 0 };

		h.op = get_str(&q, end);
		h.unit = h.op ? get_str(&q, end) : NULL;
		for (size_t k = 0; h.unit && k < ARRAY_SIZE(v); k++)
			if (get_varint(&q, end, &v[k]) <= 0)
				goto bad;
		if (!h.unit || v[4] > UINT32_MAX || v[5] > (uint64_t)(end - q))
			goto bad;
		h.count = v[0];
		h.sum = v[1];
		h.min = v[2];
		h.max = v[3];
		h.nr_buckets = (uint32_t)v[4];
		if (histblob_decode(&h, q, (size_t)v[5], why, whylen)) {
			hist_rec_release(&h);
			return -1;
		}
		q += v[5];
		phase_rec_copy_hist(p, &h);
		hist_rec_release(&h);
		continue;
bad:
		hist_rec_release(&h);
		return refuse(why, whylen, "a corrupt histogram pack");
	}
	if (q != end)
		return refuse(why, whylen, "a corrupt histogram pack");
	return 0;
}
