/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * interrupt.c - the flag behind phase_stop_requested() and the handler
 * that sets it.
 */
#include "util/interrupt.h"

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t requested;

static void on_signal(int sig)
{
	static const char msg[] =
		"\nfslab: interrupted; finishing the current operation and "
		"tearing down (again to abort, then run 'fslab cleanup')\n";

	if (requested) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	requested = 1;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		requested = 1;
}

void interrupt_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A closed output pipe is a stop request (output_gone), not death. */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/*
 * The reader of our output went away (`fslab run ... 2>&1 | head`).  With
 * SIGPIPE ignored, a write to stdout or stderr fails instead of killing
 * the run; once one has failed and the pipe shows POLLERR (no reader),
 * that is a stop request like Ctrl-C, so the target is torn down.
 */
static bool output_gone(void)
{
	static volatile sig_atomic_t checked;
	struct pollfd p[2] = { { 1, 0, 0 }, { 2, 0, 0 } };

	if (checked || (!ferror_unlocked(stdout) && !ferror_unlocked(stderr)))
		return false;
	checked = 1;
	return poll(p, 2, 0) > 0 && ((p[0].revents | p[1].revents) & POLLERR);
}

bool interrupt_requested(void)
{
	if (!requested && output_gone())
		requested = 1;
	return requested != 0;
}
