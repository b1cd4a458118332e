/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkfs.c - format a device with mkfs.<fstype>.  Each tool has its own
 * spelling of "don't ask, I know there may be data" and "be quiet", and
 * its own way to print its version; this file keeps that knowledge in
 * one table, with the Debian package to suggest when a tool is missing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fs/mkfs.h"
#include "util/shquote.h"
#include "util/spawn.h"
#include "util/util.h"

struct mkfs_tool {
	const char *fstype;
	const char *package;
	const char *flags[3];  /* force + quiet, NULL-terminated */
	const char *version;   /* argument that prints the version */
};

static const struct mkfs_tool tools[] = {
	{ "ext2", "e2fsprogs", { "-F", "-q", NULL }, "-V" },
	{ "ext3", "e2fsprogs", { "-F", "-q", NULL }, "-V" },
	{ "ext4", "e2fsprogs", { "-F", "-q", NULL }, "-V" },
	{ "xfs", "xfsprogs", { "-f", "-q", NULL }, "-V" },
	{ "btrfs", "btrfs-progs", { "-f", "-q", NULL }, "--version" },
	{ "f2fs", "f2fs-tools", { NULL }, "-V" },
	{ "jfs", "jfsutils", { NULL }, "-V" },
	{ "nilfs2", "nilfs-tools", { NULL }, "-V" },
	{ "reiserfs", "reiserfsprogs", { NULL }, "-V" },
	{ "vfat", "dosfstools", { NULL }, "--help" },
	{ "exfat", "exfatprogs", { NULL }, "-V" },
	{ "bcachefs", "bcachefs-tools", { NULL }, "version" },
	{ "udf", "udftools", { NULL }, "--version" },
};

static const struct mkfs_tool *find_tool(const char *fstype)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tools); i++)
		if (!strcmp(tools[i].fstype, fstype))
			return &tools[i];
	return NULL;
}

/* The Debian package that ships mkfs.<fstype>, or NULL if unknown. */
static const char *mkfs_package(const char *fstype)
{
	const struct mkfs_tool *t = find_tool(fstype);

	return t ? t->package : NULL;
}

/*
 * Is prog in PATH?  That is where run_cmd() will look for it.  When it
 * is not, *elsewhere gets the sbin directory that has it anyway (a
 * non-login root shell may lack /usr/sbin in PATH), for the hint.
 */
static bool in_path(const char *prog, const char **elsewhere)
{
	static const char *const sbin[] = { "/usr/sbin", "/sbin" };
	bool found = spawn_in_path(prog);

	*elsewhere = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(sbin) && !found && !*elsewhere;
	     i++) {
		char *p = path_join(sbin[i], prog);

		if (access(p, X_OK) == 0)
			*elsewhere = sbin[i];
		free(p);
	}
	return found;
}

static bool kernel_knows(const char *fstype)
{
	char *s = read_file("/proc/filesystems", NULL), *line, *save = NULL;
	bool found = false;

	if (!s)
		return true; /* cannot tell: let mount say it */
	for (line = strtok_r(s, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char *name = strrchr(line, '\t');

		name = name ? name + 1 : line;
		found = !strcmp(name, fstype);
	}
	free(s);
	return found;
}

int mkfs_check_why(const char *fstype, char *why, size_t len)
{
	char *prog = xasprintf("mkfs.%s", fstype);
	const char *pkg = mkfs_package(fstype), *elsewhere;

	if (!in_path(prog, &elsewhere)) {
		if (elsewhere)
			snprintf(why, len, "cannot make a %s filesystem: '%s' "
				 "is not in PATH (it is in %s: add that to "
				 "PATH, or apt-get install %s)", fstype, prog,
				 elsewhere, pkg ? pkg : "the package that has it");
		else if (pkg)
			snprintf(why, len, "cannot make a %s filesystem: '%s' "
				 "is not installed (apt-get install %s)",
				 fstype, prog, pkg);
		else if (!kernel_knows(fstype))
			/* Most likely a typo: say both halves are missing. */
			snprintf(why, len, "unknown filesystem type '%s': the "
				 "kernel does not know it (not in "
				 "/proc/filesystems) and there is no '%s'",
				 fstype, prog);
		else
			snprintf(why, len, "cannot make a %s filesystem: '%s' "
				 "is not installed", fstype, prog);
		free(prog);
		return -2;
	}
	free(prog);
	if (!kernel_knows(fstype)) {
		char *argv[] = { (char *)"modprobe", (char *)"-q",
				 (char *)fstype, NULL };

		if (run_cmd(argv, NULL, true) != 0 || !kernel_knows(fstype)) {
			snprintf(why, len, "the kernel does not support '%s': "
				 "it is not in /proc/filesystems and "
				 "'modprobe %s' failed", fstype, fstype);
			return -2;
		}
	}
	return 0;
}

int mkfs_check(const char *fstype)
{
	char why[512];

	if (mkfs_check_why(fstype, why, sizeof(why)) < 0)
		return error("%s", why), -2;
	return 0;
}

static char *first_line(const char *s)
{
	while (s && *s) {
		size_t n = strcspn(s, "\n");
		const char *p = s;

		while (p < s + n && (*p == ' ' || *p == '\t'))
			p++;
		if (p < s + n)
			return xstrndup(p, (size_t)(s + n - p));
		s += n;
		if (*s)
			s++;
	}
	return NULL;
}

static char *tool_version(const char *prog, const struct mkfs_tool *t)
{
	char *argv[] = { (char *)prog, (char *)(t ? t->version : "-V"),
			 NULL };
	char *out = NULL, *line;

	if (run_cmd(argv, &out, true) != 0) {
		free(out);
		return NULL;
	}
	line = first_line(out);
	free(out);
	return line;
}

/*
 * The first few non-blank lines of a tool's output: mkfs says what was
 * wrong first ("invalid option -m bogus=1") and then prints its usage,
 * whose tail tells nothing.  Returns the length to print.
 */
static size_t head_lines(const char *s, int lines)
{
	const char *p = s;

	while (*p && lines > 0) {
		const char *nl = strchr(p, '\n');

		if (!nl)
			return strlen(s);
		if (nl > p)
			lines--;
		p = nl + 1;
	}
	while (p > s && p[-1] == '\n')
		p--;
	return (size_t)(p - s);
}

char *mkfs_command(const char *fstype, const char *extra, const char *device)
{
	const struct mkfs_tool *t = find_tool(fstype);
	char *prog = xasprintf("mkfs.%s", fstype), *flags, *out, *dev;
	const char *words[4] = { prog };
	size_t n = 1;

	for (size_t i = 0; t && t->flags[i]; i++)
		words[n++] = t->flags[i];
	flags = sh_join(n, words);
	dev = sh_quote(device ? device : "DEVICE");
	/* extra is kept as the user wrote it: it is already shell text. */
	out = xasprintf("%s%s%s %s", flags, extra && *extra ? " " : "",
			extra && *extra ? extra : "", dev);
	free(dev);
	free(flags);
	free(prog);
	return out;
}

int mkfs_run(const char *fstype, const char *device, const char *extra,
	     char **version)
{
	const struct mkfs_tool *t = find_tool(fstype);
	char *prog = xasprintf("mkfs.%s", fstype);
	char **user = NULL, **argv = NULL, *out = NULL;
	size_t nr = 0, alloc = 0, i;
	char err[256];
	int rc, ret = 0;

	if (version)
		*version = NULL;
	if (extra) {
		user = argv_split(extra, err, sizeof(err));
		if (!user) {
			error("bad mkfs arguments '%s': %s", extra, err);
			free(prog);
			return -2;
		}
	}
	ALLOC_GROW(argv, nr + 1, alloc);
	argv[nr++] = prog;
	for (i = 0; t && t->flags[i]; i++) {
		ALLOC_GROW(argv, nr + 1, alloc);
		argv[nr++] = (char *)t->flags[i];
	}
	for (i = 0; user && user[i]; i++) {
		ALLOC_GROW(argv, nr + 1, alloc);
		argv[nr++] = user[i];
	}
	ALLOC_GROW(argv, nr + 2, alloc);
	argv[nr++] = (char *)device;
	argv[nr] = NULL;

	rc = run_cmd(argv, &out, true);
	if (rc == 127) {
		if (t)
			error("cannot run '%s': not installed (apt-get "
			      "install %s)", prog, t->package);
		else
			error("cannot run '%s': not installed", prog);
		ret = -2;
	} else if (rc != 0) {
		const char *msg = out ? out : "";
		size_t len;

		while (*msg == '\n')
			msg++;
		len = head_lines(msg, 4);
		error("'%s' failed on '%s' (exit %d)%s%.*s", prog, device, rc,
		      len ? ":\n" : "", (int)len, msg);
		ret = -1;
	} else if (version) {
		*version = tool_version(prog, t);
	}
	free(out);
	free(argv);
	argv_free(user);
	free(prog);
	return ret;
}
