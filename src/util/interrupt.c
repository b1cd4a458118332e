/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * interrupt.c - the flag behind phase_stop_requested() and the handler
 * that sets it.
 */
#include "util/interrupt.h"

#include <signal.h>
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
}

bool interrupt_requested(void)
{
	return requested != 0;
}
