/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * version.h - FSLAB_VERSION, a string literal the Makefile generates from
 * `git describe` or the VERSION file (scripts/version.sh).  Only files
 * that print or store the version include it, so a new commit rebuilds
 * only them.
 */
#ifndef FSLAB_UTIL_VERSION_H
#define FSLAB_UTIL_VERSION_H

#include "fslab-version.h"

#endif
