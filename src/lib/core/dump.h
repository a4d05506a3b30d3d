/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dump: everything wqctl reads, copied into a directory for --sysroot elsewhere. */
#ifndef WQ_DUMP_H
#define WQ_DUMP_H

#include "ctx.h"

/*
 * Copy what wqctl reads from ctx's root into dir (made if missing; its own
 * links resolve inside it). 0, or -errno when dir cannot be used or a file
 * could not be copied (each logged; the rest is copied). *files: how
 * many, -1 when dir could not be used.
 */
int wq_dump(struct wq_ctx *ctx, const char *dir, int *files);

#endif
