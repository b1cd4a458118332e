/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * interrupt.h - Ctrl-C for long operations: the first SIGINT, SIGTERM or
 * SIGHUP only sets a flag (and says so on stderr) that loops poll to
 * finish their current operation and tear down normally; a second one
 * kills at once, and the state journal lets `fslab cleanup` finish.
 */
#ifndef FSLAB_UTIL_INTERRUPT_H
#define FSLAB_UTIL_INTERRUPT_H

#include <stdbool.h>

void interrupt_install(void);
/* True once the first signal arrived.  Async-signal-safe, thread-safe. */
bool interrupt_requested(void);

#endif
