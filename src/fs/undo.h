/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * undo.h - the undo handlers of what fs/ creates (image, loop,
 * mountpoint, mount, wldir), registered with the journal (state.h) by
 * `fslab cleanup`.
 */
#ifndef FSLAB_UNDO_H
#define FSLAB_UNDO_H

void fs_register_undo(void);

#endif
