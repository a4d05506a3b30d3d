// SPDX-License-Identifier: GPL-2.0-or-later
/* libsmartcols and json-c loaded on first use, so that the udev hook pays for neither. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "lazy.h"

#define SO_SCOLS "libsmartcols.so.1"
#define SO_JSON "libjson-c.so.5"

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

static bool load_json(struct cli_libjson *l)
{
	void *h = dlopen(SO_JSON, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return false;
	SYM(h, *l, json_object_new_object);
	SYM(h, *l, json_object_new_array);
	SYM(h, *l, json_object_new_string);
	SYM(h, *l, json_object_new_int);
	SYM(h, *l, json_object_new_int64);
	SYM(h, *l, json_object_new_double_s);
	SYM(h, *l, json_object_new_boolean);
	SYM(h, *l, json_object_object_add);
	SYM(h, *l, json_object_array_add);
	SYM(h, *l, json_object_put);
	SYM(h, *l, json_object_to_json_string_ext);
	SYM(h, *l, json_tokener_new);
	SYM(h, *l, json_tokener_free);
	SYM(h, *l, json_tokener_parse_ex);
	SYM(h, *l, json_tokener_get_error);
	SYM(h, *l, json_tokener_error_desc);
	SYM(h, *l, json_object_object_get_ex);
	SYM(h, *l, json_object_get_type);
	SYM(h, *l, json_object_get_double);
	SYM(h, *l, json_object_get_int64);
	SYM(h, *l, json_object_get_string);
	SYM(h, *l, json_object_array_length);
	SYM(h, *l, json_object_array_get_idx);
	SYM(h, *l, json_object_new_double);
	SYM(h, *l, json_object_get_boolean);
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
MUST(cli_libjson, cli_json, load_json, SO_JSON)
