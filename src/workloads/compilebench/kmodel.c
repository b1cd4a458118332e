/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kmodel.c - the built-in kernel-like data sets used when compilebench
 * runs without --sources: fslab cannot ship compilebench's data files, so
 * it generates four sets with the same shape from a fixed seed.
 *
 * Design (details and the targets in doc/compilebench.md):
 *
 *  clean    17 top-level directories with the file counts of Linux
 *           2.6.20, 1,263 directories in all, every directory holding a
 *           file; sizes drawn from a quantile table of the real tree
 *           (32 equal-probability buckets, the last split in 16 more), so
 *           the median and the shape match; the total is then fitted
 *           exactly by scaling only the files of the top bucket.
 *  patched  drops 266 files, resizes 5,526 (biased to larger files, as a
 *           patch touches big .c files), adds 610 new ones; the changed
 *           and new sizes are fitted to the real patch-set total.
 *  compiled adds the build outputs: a few 20-65 MB link results, config
 *           headers, foo.o + .foo.o.cmd per compiled .c file and
 *           built-in.o + .built-in.o.cmd per directory, to the exact
 *           file count; the small outputs are fitted to the total.
 *  patched  the same outputs with 15 gone, 767 unchanged (which the
 *  compiled derivation drops), the rest resized, plus outputs of new .c
 *           files; fitted to the real derived total.
 *
 * Only integer arithmetic on pyrand draws is used, so the sets are the
 * same on every machine.
 */
#include "model/treemodel.h"

#include <stdlib.h>
#include <string.h>

#include "util/pyrand.h"
#include "util/util.h"

#define KM_SEED 20070204 /* 2.6.20's release date */

#define KM_FILES 21280
#define KM_BYTES 233176153ULL
#define KM_DIRS 1263
#define KM_MAX_DIR_DEPTH 5

#define KM_DROPPED 266
#define KM_RESIZED 5526
#define KM_NEW 610
#define KM_PS_BYTES 114997799ULL

#define KM_UCS_FILES 3263
#define KM_UCS_BYTES 713696760ULL
#define KM_CONFIG_HEADERS 420

#define KM_PCS_FILES 2573
#define KM_PCS_BYTES 725190942ULL
#define KM_PC_DROPPED 15
#define KM_PC_SAME 767
#define KM_PC_NEW_PAIRS 46

/* Size quantiles of 2.6.20 at every 1/32, then 1/16ths of the top 1/32. */
static const uint64_t q32[33] = {
	6, 114, 215, 366, 516, 680, 882, 1078, 1303, 1563, 1839, 2149,
	2459, 2832, 3214, 3604, 4055, 4569, 5192, 5866, 6643, 7532, 8595,
	9778, 11141, 12926, 15155, 18077, 21702, 27223, 36360, 56193,
	873603,
};
static const uint64_t qtop[17] = {
	56193, 58585, 60331, 63186, 66098, 68592, 72799, 76817, 80536,
	86008, 91198, 98129, 105730, 121906, 149684, 211312, 873603,
};

struct top_dir {
	const char *name;
	int files;
	int subdirs; /* share of the random subdirectories, in 1/1000 */
};

/* The file counts of 2.6.20's top-level directories. */
static const struct top_dir tops[] = {
	{ "include", 6007, 150 },    { "arch", 5581, 280 },
	{ "drivers", 5300, 330 },    { "fs", 1305, 80 },
	{ "Documentation", 920, 50 }, { "net", 909, 55 },
	{ "sound", 724, 45 },        { "scripts", 119, 4 },
	{ "kernel", 108, 2 },        { "lib", 97, 2 },
	{ "security", 67, 2 },       { "mm", 51, 0 },
	{ "crypto", 45, 0 },         { "block", 13, 0 },
	{ "init", 11, 0 },           { "ipc", 10, 0 },
	{ "usr", 5, 0 },
};

static const char *const root_files[] = {
	"COPYING", "CREDITS", ".gitignore", "Kbuild", "MAINTAINERS",
	"Makefile", "README", "REPORTING-BUGS",
};

static const char *const arches[] = {
	"alpha", "arm", "arm26", "avr32", "cris", "frv", "h8300", "i386",
	"ia64", "m32r", "m68k", "m68knommu", "mips", "parisc", "powerpc",
	"ppc", "s390", "sh", "sh64", "sparc", "sparc64", "um", "v850",
	"x86_64", "xtensa",
};

static const char *const fixed_dirs[] = {
	"include/linux", "include/net", "include/scsi", "include/sound",
	"include/media", "include/asm-generic", "include/video",
	"include/linux/netfilter", "include/linux/usb", "include/net/sctp",
	"drivers/net", "drivers/scsi", "drivers/usb", "drivers/char",
	"drivers/block", "drivers/ata", "drivers/pci", "drivers/acpi",
	"drivers/video", "drivers/media", "drivers/input", "drivers/i2c",
	"drivers/md", "drivers/ide", "drivers/serial", "drivers/mtd",
	"drivers/isdn", "drivers/hwmon", "drivers/infiniband",
	"drivers/net/wireless", "drivers/usb/core", "drivers/usb/host",
	"drivers/scsi/aic7xxx", "drivers/char/drm", "drivers/media/video",
	"fs/ext2", "fs/ext3", "fs/ext4", "fs/xfs", "fs/jfs", "fs/reiserfs",
	"fs/nfs", "fs/nfsd", "fs/cifs", "fs/fat", "fs/proc", "fs/sysfs",
	"fs/udf", "fs/ocfs2", "fs/jbd", "fs/xfs/linux-2.6",
	"net/ipv4", "net/ipv6", "net/core", "net/sched", "net/bluetooth",
	"net/netfilter", "net/sunrpc", "net/ipv4/netfilter",
	"sound/core", "sound/pci", "sound/isa", "sound/usb", "sound/oss",
	"sound/drivers", "sound/pci/hda",
	"Documentation/networking", "Documentation/filesystems",
	"Documentation/scsi", "Documentation/usb",
	"scripts/kconfig", "scripts/basic", "scripts/mod",
	"kernel/power", "kernel/irq", "lib/zlib_inflate",
	"security/selinux", "security/keys",
};

static const char *const tokens[] = {
	"main", "core", "dev", "driver", "init", "irq", "dma", "setup",
	"time", "timer", "signal", "ptrace", "process", "traps", "entry",
	"head", "smp", "pci", "io", "mem", "sysfs", "proc", "ioctl", "file",
	"inode", "dir", "namei", "super", "buffer", "page", "alloc", "cache",
	"slab", "swap", "sched", "fork", "exit", "sys", "module", "param",
	"config", "regs", "debug", "util", "table", "map", "hash", "queue",
	"list", "lock", "sem", "tty", "serial", "uart", "eth", "phy", "mii",
	"usb", "hub", "hcd", "scsi", "disk", "cdrom", "tape", "fb", "vga",
	"lcd", "audio", "mixer", "pcm", "codec", "midi", "ac97", "netlink",
	"route", "sock", "tcp", "udp", "ip", "arp", "icmp", "filter", "aes",
	"sha1", "md5", "cpu", "mce", "apic", "nmi", "acpi", "bios", "efi",
	"power", "suspend", "clock", "gpio", "led", "wdt", "rtc", "i2c",
	"spi", "xattr", "acl", "quota", "journal", "export", "ops", "misc",
	"ctrl", "hw", "reg", "bus", "bridge", "port", "link", "card",
	"board", "mac", "fw", "host", "media", "video", "input", "mtd",
	"ata", "ide", "isdn", "atm", "edac", "mmc", "pcmcia", "parport",
	"sbus", "zorro", "xen", "oprofile", "math", "emu", "plat", "mach",
};

struct km {
	struct pyrand r;
	struct treemodel dirs;   /* directory paths, creation order */
	int *dir_top;            /* index into tops[] per directory */
	size_t dir_alloc;
};

static uint64_t draw(struct km *k, uint64_t n)
{
	return n ? pyrand_below(&k->r, n) : 0;
}

static const char *token(struct km *k)
{
	return tokens[draw(k, ARRAY_SIZE(tokens))];
}

/* "irq", "pci_dma", "uart2": kernel-ish names. */
static void make_name(struct km *k, char *buf, size_t len)
{
	uint64_t shape = draw(k, 10);

	const char *a = token(k), *b;

	/* one draw per statement: argument order is unspecified in C */
	if (shape < 4) {
		snprintf(buf, len, "%s", a);
	} else if (shape < 9) {
		b = token(k);
		snprintf(buf, len, "%s%c%s", a, shape < 8 ? '_' : '-', b);
	} else {
		snprintf(buf, len, "%s%u", a, (unsigned)draw(k, 10));
	}
}

static uint64_t clean_size(struct km *k)
{
	uint64_t b = draw(k, 32);
	const uint64_t *q = q32;

	if (b == 31) {
		q = qtop;
		b = draw(k, 16);
	}
	return q[b] + draw(k, q[b + 1] - q[b]);
}

static int depth_of(const char *path)
{
	int d = 1;

	for (; *path; path++)
		d += *path == '/';
	return d;
}

static void add_dir(struct km *k, const char *path, int top)
{
	size_t i = k->dirs.nr;

	if (!treemodel_set(&k->dirs, path, 0))
		return;
	ALLOC_GROW(k->dir_top, i + 1, k->dir_alloc);
	k->dir_top[i] = top;
}

static int top_index(const char *path)
{
	size_t l = strcspn(path, "/");

	for (size_t i = 0; i < ARRAY_SIZE(tops); i++)
		if (strlen(tops[i].name) == l &&
		    !strncmp(tops[i].name, path, l))
			return (int)i;
	BUG("no top directory for '%s'", path);
}

/* Pick a top by its subdirectory share, then walk down a random way. */
static void add_random_dir(struct km *k)
{
	char path[512], name[64];
	size_t cand[2048];
	uint64_t w = draw(k, 1000);
	int top = 0;

	for (size_t i = 0; i < ARRAY_SIZE(tops); i++) {
		if (w < (uint64_t)tops[i].subdirs) {
			top = (int)i;
			break;
		}
		w -= (uint64_t)tops[i].subdirs;
	}
	snprintf(path, sizeof(path), "%s", tops[top].name);
	for (;;) {
		size_t n = 0, pl = strlen(path);

		if (depth_of(path) >= KM_MAX_DIR_DEPTH || draw(k, 100) < 45)
			break;
		for (size_t i = 0; i < k->dirs.nr && n < ARRAY_SIZE(cand);
		     i++) {
			const char *d = k->dirs.e[i].path;

			if (!strncmp(d, path, pl) && d[pl] == '/' &&
			    !strchr(d + pl + 1, '/'))
				cand[n++] = i;
		}
		if (!n)
			break;
		snprintf(path, sizeof(path), "%s",
			 k->dirs.e[cand[draw(k, n)]].path);
	}
	do {
		make_name(k, name, sizeof(name));
	} while (strlen(path) + strlen(name) + 2 > sizeof(path));
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%s",
		 name);
	add_dir(k, path, top);
}

static void build_dirs(struct km *k)
{
	char path[128];

	for (size_t i = 0; i < ARRAY_SIZE(tops); i++)
		add_dir(k, tops[i].name, (int)i);
	for (size_t i = 0; i < ARRAY_SIZE(arches); i++) {
		static const char *const sub[] = { "kernel", "mm", "lib",
						   "boot" };

		snprintf(path, sizeof(path), "arch/%s", arches[i]);
		add_dir(k, path, top_index(path));
		for (size_t j = 0; j < ARRAY_SIZE(sub); j++) {
			snprintf(path, sizeof(path), "arch/%s/%s", arches[i],
				 sub[j]);
			add_dir(k, path, top_index(path));
		}
		snprintf(path, sizeof(path), "include/asm-%s", arches[i]);
		add_dir(k, path, top_index(path));
	}
	for (size_t i = 0; i < ARRAY_SIZE(fixed_dirs); i++)
		add_dir(k, fixed_dirs[i], top_index(fixed_dirs[i]));
	while (k->dirs.nr < KM_DIRS)
		add_random_dir(k);
}

static const char *pick_ext(struct km *k, const char *top)
{
	uint64_t x = draw(k, 100);

	if (!strcmp(top, "include"))
		return x < 97 ? ".h" : "";
	if (!strcmp(top, "Documentation"))
		return x < 60 ? ".txt" : "";
	if (!strcmp(top, "scripts"))
		return x < 40 ? ".c" : x < 70 ? ".sh" : ".pl";
	if (!strcmp(top, "arch") && x < 6)
		return ".S";
	return x < 68 ? ".c" : x < 94 ? ".h" : ".txt";
}

/* Add a file with a fresh name to dir (the first one is a Makefile). */
static void add_file(struct km *k, struct treemodel *m, size_t dir,
		     bool first)
{
	const char *dpath = k->dirs.e[dir].path;
	const char *top = tops[k->dir_top[dir]].name;
	char name[96], path[600];

	if (first && strcmp(top, "include") && strcmp(top, "Documentation")) {
		snprintf(path, sizeof(path), "%s/Makefile", dpath);
		if (treemodel_set(m, path, clean_size(k)))
			return;
	}
	for (int tries = 0;; tries++) {
		make_name(k, name, sizeof(name) - 8);
		if (tries > 8)
			snprintf(name + strlen(name), 8, "%u",
				 (unsigned)tries % 1000);
		snprintf(path, sizeof(path), "%s/%s%s", dpath, name,
			 pick_ext(k, top));
		/* a file must not shadow a directory of the same name */
		if (!treemodel_get(m, path) && !treemodel_get(&k->dirs, path))
			break;
	}
	treemodel_set(m, path, clean_size(k));
}

/*
 * Make the sizes *v[0..n) sum to target: scale them proportionally and
 * hand out the rounding remainder, then move single bytes so no size
 * equals its forbid[] value (the old size of a "changed" file).
 */
static void fit_total(uint64_t **v, size_t n, uint64_t target,
		      const uint64_t *forbid)
{
	uint64_t sum = 0, got = 0;
	size_t i, j = 0;

	if (!n)
		return;
	for (i = 0; i < n; i++)
		sum += *v[i];
	for (i = 0; i < n; i++) {
		*v[i] = sum ? (uint64_t)((unsigned __int128)*v[i] * target /
					 sum) : target / n;
		got += *v[i];
	}
	for (i = 0; got < target; i = (i + 1) % n, got++)
		(*v[i])++;
	if (!forbid)
		return;
	for (i = 0; i < n; i++) {
		if (*v[i] != forbid[i])
			continue;
		/* take the byte from a file that stays valid */
		for (;; j = (j + 1) % n)
			if (j != i && *v[j] > 1 && *v[j] - 1 != forbid[j] &&
			    *v[j] - 1 != 0)
				break;
		(*v[j])--;
		(*v[i])++;
	}
}

static uint64_t *size_ptr(struct treemodel *m, const char *path)
{
	return (uint64_t *)&treemodel_get(m, path)->size;
}

static void gen_clean(struct km *k, struct treemodel *u)
{
	size_t *first = xcalloc(ARRAY_SIZE(tops), sizeof(*first));
	size_t *count = xcalloc(ARRAY_SIZE(tops), sizeof(*count));
	size_t *dirs_of = xmalloc(k->dirs.nr * sizeof(*dirs_of));
	uint64_t **big = xmalloc(KM_FILES * sizeof(*big));
	size_t nbig = 0, pos = 0;
	uint64_t small = 0;

	for (size_t i = 0; i < ARRAY_SIZE(root_files); i++)
		treemodel_set(u, root_files[i], clean_size(k));
	/* group the directories by top, keeping creation order */
	for (size_t t = 0; t < ARRAY_SIZE(tops); t++) {
		first[t] = pos;
		for (size_t d = 0; d < k->dirs.nr; d++)
			if (k->dir_top[d] == (int)t)
				dirs_of[pos++] = d;
		count[t] = pos - first[t];
	}
	for (size_t t = 0; t < ARRAY_SIZE(tops); t++) {
		int left = tops[t].files;

		for (size_t i = 0; i < count[t] && left > 0; i++, left--)
			add_file(k, u, dirs_of[first[t] + i], true);
		for (; left > 0; left--)
			add_file(k, u, dirs_of[first[t] + draw(k, count[t])],
				 false);
	}
	for (size_t i = 0; i < u->nr; i++) {
		if (u->e[i].size >= q32[31])
			big[nbig++] = &u->e[i].size;
		else
			small += u->e[i].size;
	}
	fit_total(big, nbig, KM_BYTES - small, NULL);
	u->bytes = KM_BYTES;
	free(first);
	free(count);
	free(dirs_of);
	free(big);
}

static bool is_c_file(const char *path)
{
	size_t l = strlen(path);

	return l > 2 && !strcmp(path + l - 2, ".c");
}

static void gen_patched(struct km *k, const struct treemodel *u,
			struct treemodel *p)
{
	size_t n = u->nr, nres = 0, nnew = 0;
	char *state = xcalloc(n, 1); /* 1 dropped, 2 resized */
	uint64_t **v = xmalloc((KM_RESIZED + KM_NEW) * sizeof(*v));
	uint64_t *forbid = xmalloc((KM_RESIZED + KM_NEW) * sizeof(*forbid));
	char path[700], name[96];

	for (size_t done = 0; done < KM_DROPPED;) {
		size_t i = (size_t)draw(k, n);

		if (!state[i] && strchr(u->e[i].path, '/')) {
			state[i] = 1;
			done++;
		}
	}
	/* a patch mostly touches the bigger files */
	while (nres < KM_RESIZED) {
		size_t i = (size_t)draw(k, n);

		uint64_t sz = u->e[i].size;

		if (state[i] || (sz < 4055 && draw(k, 8)) ||
		    (sz < 8595 && draw(k, 2)))
			continue;
		state[i] = 2;
		nres++;
	}
	nres = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t sz = u->e[i].size, d;

		if (state[i] == 1)
			continue;
		if (state[i] == 2) {
			d = 1 + draw(k, sz / 8 + 16);
			sz = draw(k, 3) || d >= sz ? sz + d : sz - d;
		}
		treemodel_set(p, u->e[i].path, sz);
	}
	for (size_t i = 0; i < n; i++) {
		if (state[i] != 2)
			continue;
		forbid[nres] = u->e[i].size;
		v[nres++] = size_ptr(p, u->e[i].path);
	}
	while (nnew < KM_NEW) {
		size_t d = (size_t)draw(k, k->dirs.nr);
		const char *top = tops[k->dir_top[d]].name;

		make_name(k, name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s%s", k->dirs.e[d].path,
			 name, pick_ext(k, top));
		if (treemodel_get(u, path) || treemodel_get(p, path) ||
		    treemodel_get(&k->dirs, path))
			continue;
		treemodel_set(p, path, clean_size(k));
		forbid[nres + nnew] = UINT64_MAX;
		v[nres + nnew++] = size_ptr(p, path);
	}
	fit_total(v, nres + nnew, KM_PS_BYTES, forbid);
	p->bytes = 0;
	for (size_t i = 0; i < p->nr; i++)
		p->bytes += p->e[i].size;
	free(state);
	free(v);
	free(forbid);
}

struct big_out {
	const char *path;
	uint64_t size;
};

/* Link results; a patched build grows each by a little. */
static const struct big_out bigs[] = {
	{ ".tmp_vmlinux1", 62853120 }, { ".tmp_vmlinux2", 63459328 },
	{ "vmlinux", 63459328 },       { "vmlinux.o", 58720256 },
	{ "drivers/built-in.o", 46137344 }, { "fs/built-in.o", 37748736 },
	{ "net/built-in.o", 22020096 },
};

static uint64_t obj_size(struct km *k)
{
	return clean_size(k) * 30;
}

static uint64_t cmd_size(struct km *k)
{
	return clean_size(k) * 3 + 200;
}

/* foo.c -> dir/foo.o and dir/.foo.o.cmd */
static void obj_names(const char *src, char *o, char *cmd, size_t len)
{
	const char *slash = strrchr(src, '/');
	int dl = slash ? (int)(slash - src + 1) : 0;
	int bl = (int)strlen(src + dl) - 2;

	snprintf(o, len, "%.*s%.*s.o", dl, src, bl, src + dl);
	snprintf(cmd, len, "%.*s.%.*s.o.cmd", dl, src, bl, src + dl);
}

/* Append an output; the caller fits sizes later. */
static bool add_out(struct treemodel *c, const struct treemodel *src,
		    const char *path, uint64_t size)
{
	if (treemodel_get(src, path) || treemodel_get(c, path))
		return false;
	treemodel_set(c, path, size);
	return true;
}

static void gen_ucompiled(struct km *k, const struct treemodel *u,
			  struct treemodel *uc)
{
	struct treemodel out, seen;
	size_t want = KM_UCS_FILES - ARRAY_SIZE(bigs), nv = 0;
	uint64_t **v, bigsum = 0;
	char o[700], cmd[720], bi[700];

	treemodel_init(&out);
	treemodel_init(&seen);
	for (size_t i = 0; i < ARRAY_SIZE(bigs); i++) {
		add_out(&out, u, bigs[i].path, bigs[i].size);
		bigsum += bigs[i].size;
	}
	while (out.nr < ARRAY_SIZE(bigs) + KM_CONFIG_HEADERS) {
		const char *a = token(k), *b = token(k);

		snprintf(o, sizeof(o), "include/config/%s", a);
		if (treemodel_get(u, "include/config") || treemodel_get(u, o))
			continue;
		snprintf(o, sizeof(o), "include/config/%s/%s.h", a, b);
		add_out(&out, u, o, 1 + draw(k, 120));
	}
	while (out.nr - ARRAY_SIZE(bigs) < want) {
		size_t i = (size_t)draw(k, u->nr), left;
		const char *src = u->e[i].path, *slash = strrchr(src, '/');

		left = want - (out.nr - ARRAY_SIZE(bigs));
		if (!is_c_file(src) || !slash || treemodel_get(&seen, src))
			continue;
		if (left == 1) {
			snprintf(o, sizeof(o), "%.*s/modules.order",
				 (int)(slash - src), src);
			add_out(&out, u, o, 40 + draw(k, 400));
			continue;
		}
		snprintf(bi, sizeof(bi), "%.*s/built-in.o", (int)(slash - src),
			 src);
		if (!treemodel_get(&out, bi) && left >= 4) {
			add_out(&out, u, bi, obj_size(k) * 3);
			snprintf(bi, sizeof(bi), "%.*s/.built-in.o.cmd",
				 (int)(slash - src), src);
			add_out(&out, u, bi, cmd_size(k));
		}
		treemodel_set(&seen, src, 0);
		obj_names(src, o, cmd, sizeof(o));
		add_out(&out, u, o, obj_size(k));
		add_out(&out, u, cmd, cmd_size(k));
	}
	v = xmalloc(out.nr * sizeof(*v));
	for (size_t i = ARRAY_SIZE(bigs); i < out.nr; i++)
		v[nv++] = &out.e[i].size;
	fit_total(v, nv, KM_UCS_BYTES - bigsum, NULL);
	treemodel_copy(uc, u);
	treemodel_copy(uc, &out);
	free(v);
	treemodel_release(&out);
	treemodel_release(&seen);
}

static void gen_pcompiled(struct km *k, const struct treemodel *u,
			  const struct treemodel *p,
			  const struct treemodel *uc, struct treemodel *pc)
{
	struct treemodel out;
	size_t nucs = 0, nfit = 0, *idx, nidx = 0, pairs = 0;
	const struct tm_entry **ucs;
	char *fate;
	uint64_t **v, *forbid, bigsum = 0;
	char o[700], cmd[720];

	treemodel_init(&out);
	ucs = xmalloc(uc->nr * sizeof(*ucs));
	for (size_t i = 0; i < uc->nr; i++)
		if (!treemodel_get(u, uc->e[i].path))
			ucs[nucs++] = &uc->e[i];
	/* 0 changed, 1 dropped, 2 same size; link results always change */
	fate = xcalloc(nucs, 1);
	idx = xmalloc(nucs * sizeof(*idx));
	for (size_t i = ARRAY_SIZE(bigs); i < nucs; i++)
		idx[nidx++] = i;
	pyrand_shuffle(&k->r, idx, nidx, sizeof(*idx));
	for (size_t i = 0; i < KM_PC_DROPPED + KM_PC_SAME; i++)
		fate[idx[i]] = i < KM_PC_DROPPED ? 1 : 2;
	v = xmalloc((nucs + 2 * KM_PC_NEW_PAIRS) * sizeof(*v));
	forbid = xmalloc((nucs + 2 * KM_PC_NEW_PAIRS) * sizeof(*forbid));
	for (size_t i = 0; i < nucs; i++) {
		uint64_t sz = ucs[i]->size;

		if (fate[i] == 1)
			continue;
		if (fate[i] == 0)
			sz += 1 + draw(k, sz / 32 + 8);
		if (i < ARRAY_SIZE(bigs))
			bigsum += sz;
		treemodel_set(&out, ucs[i]->path, sz);
	}
	for (size_t i = 0; i < out.nr; i++) {
		const struct tm_entry *old = treemodel_get(uc, out.e[i].path);

		if (i < ARRAY_SIZE(bigs) || old->size == out.e[i].size)
			continue;
		forbid[nfit] = old->size;
		v[nfit++] = &out.e[i].size;
	}
	/* the new .c files of the patch get built too */
	for (size_t i = 0; i < p->nr && pairs < KM_PC_NEW_PAIRS; i++) {
		const char *src = p->e[i].path;

		if (treemodel_get(u, src) || !is_c_file(src))
			continue;
		obj_names(src, o, cmd, sizeof(o));
		if (treemodel_get(p, o) || treemodel_get(p, cmd) ||
		    treemodel_get(uc, o) || treemodel_get(uc, cmd))
			continue;
		treemodel_set(&out, o, obj_size(k));
		treemodel_set(&out, cmd, cmd_size(k));
		pairs++;
	}
	if (pairs != KM_PC_NEW_PAIRS)
		BUG("kmodel: only %zu new objects", pairs);
	for (size_t i = out.nr - 2 * pairs; i < out.nr; i++) {
		forbid[nfit] = UINT64_MAX;
		v[nfit++] = &out.e[i].size;
	}
	fit_total(v, nfit, KM_PCS_BYTES - bigsum, forbid);
	treemodel_copy(pc, p);
	treemodel_copy(pc, &out);
	free(ucs);
	free(fate);
	free(idx);
	free(v);
	free(forbid);
	treemodel_release(&out);
}

void kmodel_generate(struct treemodel *unpatched, struct treemodel *patched,
		     struct treemodel *unpatched_compiled,
		     struct treemodel *patched_compiled)
{
	struct km k;

	memset(&k, 0, sizeof(k));
	pyrand_seed(&k.r, KM_SEED);
	treemodel_init(&k.dirs);
	build_dirs(&k);
	gen_clean(&k, unpatched);
	gen_patched(&k, unpatched, patched);
	gen_ucompiled(&k, unpatched, unpatched_compiled);
	gen_pcompiled(&k, unpatched, patched, unpatched_compiled,
		      patched_compiled);
	treemodel_release(&k.dirs);
	free(k.dir_top);
}
