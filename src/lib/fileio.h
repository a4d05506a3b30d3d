/* SPDX-License-Identifier: GPL-2.0-or-later */
/* State files outside sysfs (active set, journal, dumps): parent directories and atomic replacement. */
#ifndef WQ_FILEIO_H
#define WQ_FILEIO_H

#include <stdio.h>
#include <sys/types.h>

/* Create the missing parent directories of path (mode 0755). 0 or -errno. */
int wq_mkdir_parents(const char *path);
/*
 * Replace path atomically: fill() writes the content to a temporary file in
 * the same directory, which is flushed, fsync()ed, given mode and renamed
 * over path. 0 or -errno; the temporary file never stays behind.
 */
int wq_write_atomic(const char *path, mode_t mode, void (*fill)(FILE *f, const void *data), const void *data);

#endif
