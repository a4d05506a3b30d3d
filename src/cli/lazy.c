// SPDX-License-Identifier: GPL-2.0-or-later
/* libsmartcols loaded on first use, so that the udev hook does not pay for it (json-c: lib/dl.c). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "lazy.h"

#define SO_SCOLS "libsmartcols.so.1"

#define SYM(h, lib, name)                                                                                              \
	do {                                                                                                           \
		*(void **)&(lib).name = dlsym((h), #name);                                                             \
		if (!(lib).name)                                                                                       \
			return false;                                                                                  \
	} while (0)

static bool load_scols(struct cli_libscols *l)
{
	void *h = dlopen(SO_SCOLS, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return false;
	SYM(h, *l, scols_new_table);
	SYM(h, *l, scols_unref_table);
	SYM(h, *l, scols_table_set_name);
	SYM(h, *l, scols_table_new_line);
	SYM(h, *l, scols_table_new_column);
	SYM(h, *l, scols_table_enable_raw);
	SYM(h, *l, scols_table_enable_noencoding);
	SYM(h, *l, scols_table_enable_noheadings);
	SYM(h, *l, scols_table_enable_json);
	SYM(h, *l, scols_table_enable_export);
	SYM(h, *l, scols_print_table);
	SYM(h, *l, scols_line_set_data);
	SYM(h, *l, scols_column_set_json_type);
	return true;
}

#define MUST(type, name, loader, so)                                                                                   \
	const struct type *name(void)                                                                                  \
	{                                                                                                              \
		static struct type lib;                                                                                \
		static bool loaded;                                                                                    \
		if (!loaded && !loader(&lib)) {                                                                        \
			fprintf(stderr, "wqctl: %s: cannot load: %s\n", so, dlerror());                                \
			exit(1);                                                                                       \
		}                                                                                                      \
		loaded = true;                                                                                         \
		return &lib;                                                                                           \
	}

MUST(cli_libscols, cli_scols, load_scols, SO_SCOLS)
