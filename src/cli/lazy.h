/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libsmartcols is loaded when output is first produced (by the library's
 * one loader, lib/util/dl.c), so the udev hook path, which prints
 * nothing, does not pay for linking it. The macros below send every call
 * through the loaded table (json-c's: lib/util/jsonc.h); include this
 * after the library's own header.
 */
#ifndef WQCTL_LAZY_H
#define WQCTL_LAZY_H

#include <json-c/json.h>
#include <libsmartcols.h>

#include "../lib/util/dl.h"
#include "../lib/util/jsonc.h"

/* The loaded library (lib/util/dl.c); a command that cannot load it stops with the reason (output.c). */
const struct wq_libscols *cli_scols(void);

#define scols_new_table(...) cli_scols()->scols_new_table(__VA_ARGS__)
#define scols_unref_table(...) cli_scols()->scols_unref_table(__VA_ARGS__)
#define scols_table_set_name(...) cli_scols()->scols_table_set_name(__VA_ARGS__)
#define scols_table_new_line(...) cli_scols()->scols_table_new_line(__VA_ARGS__)
#define scols_table_new_column(...) cli_scols()->scols_table_new_column(__VA_ARGS__)
#define scols_table_enable_raw(...) cli_scols()->scols_table_enable_raw(__VA_ARGS__)
#define scols_table_enable_noencoding(...) cli_scols()->scols_table_enable_noencoding(__VA_ARGS__)
#define scols_table_enable_noheadings(...) cli_scols()->scols_table_enable_noheadings(__VA_ARGS__)
#define scols_table_enable_json(...) cli_scols()->scols_table_enable_json(__VA_ARGS__)
#define scols_table_enable_export(...) cli_scols()->scols_table_enable_export(__VA_ARGS__)
#define scols_print_table(...) cli_scols()->scols_print_table(__VA_ARGS__)
#define scols_line_set_data(...) cli_scols()->scols_line_set_data(__VA_ARGS__)
#define scols_column_set_json_type(...) cli_scols()->scols_column_set_json_type(__VA_ARGS__)

#endif
