/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libsmartcols is loaded when output is first produced, so the udev hook
 * path (which prints nothing) does not pay for linking it. The macros below
 * send every call through the loaded table (json-c's: lib/jsonc.h); include
 * this after the library's own header.
 */
#ifndef WQCTL_LAZY_H
#define WQCTL_LAZY_H

#include <json-c/json.h>
#include <libsmartcols.h>

#include "../lib/jsonc.h"

#define WQ_LFN(f) __typeof__(&f) f

struct cli_libscols {
	WQ_LFN(scols_new_table);
	WQ_LFN(scols_unref_table);
	WQ_LFN(scols_table_set_name);
	WQ_LFN(scols_table_new_line);
	WQ_LFN(scols_table_new_column);
	WQ_LFN(scols_table_enable_raw);
	WQ_LFN(scols_table_enable_noencoding);
	WQ_LFN(scols_table_enable_noheadings);
	WQ_LFN(scols_table_enable_json);
	WQ_LFN(scols_table_enable_export);
	WQ_LFN(scols_print_table);
	WQ_LFN(scols_line_set_data);
	WQ_LFN(scols_column_set_json_type);
};

/* The loaded library; exits with a message when it cannot be loaded. */
const struct cli_libscols *cli_scols(void);

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
