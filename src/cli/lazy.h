/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libsmartcols and json-c are loaded when output is first produced, so the
 * udev hook path (which prints nothing) does not pay for linking them. The
 * macros below send every call through the loaded tables; include this
 * after the libraries' own headers.
 */
#ifndef WQCTL_LAZY_H
#define WQCTL_LAZY_H

#include <json-c/json.h>
#include <libsmartcols.h>

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

struct cli_libjson {
	WQ_LFN(json_object_new_object);
	WQ_LFN(json_object_new_array);
	WQ_LFN(json_object_new_string);
	WQ_LFN(json_object_new_int);
	WQ_LFN(json_object_new_int64);
	WQ_LFN(json_object_new_double_s);
	WQ_LFN(json_object_new_boolean);
	WQ_LFN(json_object_object_add);
	WQ_LFN(json_object_array_add);
	WQ_LFN(json_object_put);
	WQ_LFN(json_object_to_json_string_ext);
	/* reading (experiment: fio output, saved baselines) */
	WQ_LFN(json_tokener_new);
	WQ_LFN(json_tokener_free);
	WQ_LFN(json_tokener_parse_ex);
	WQ_LFN(json_tokener_get_error);
	WQ_LFN(json_tokener_error_desc);
	WQ_LFN(json_object_object_get_ex);
	WQ_LFN(json_object_get_type);
	WQ_LFN(json_object_get_double);
	WQ_LFN(json_object_get_int64);
	WQ_LFN(json_object_get_string);
	WQ_LFN(json_object_array_length);
	WQ_LFN(json_object_array_get_idx);
	WQ_LFN(json_object_new_double);
	WQ_LFN(json_object_get_boolean);
};

/* The loaded library; exits with a message when it cannot be loaded. */
const struct cli_libscols *cli_scols(void);
const struct cli_libjson *cli_json(void);

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

#define json_object_new_object(...) cli_json()->json_object_new_object(__VA_ARGS__)
#define json_object_new_array(...) cli_json()->json_object_new_array(__VA_ARGS__)
#define json_object_new_string(...) cli_json()->json_object_new_string(__VA_ARGS__)
#define json_object_new_int(...) cli_json()->json_object_new_int(__VA_ARGS__)
#define json_object_new_int64(...) cli_json()->json_object_new_int64(__VA_ARGS__)
#define json_object_new_double_s(...) cli_json()->json_object_new_double_s(__VA_ARGS__)
#define json_object_new_boolean(...) cli_json()->json_object_new_boolean(__VA_ARGS__)
#define json_object_object_add(...) cli_json()->json_object_object_add(__VA_ARGS__)
#define json_object_array_add(...) cli_json()->json_object_array_add(__VA_ARGS__)
#define json_object_put(...) cli_json()->json_object_put(__VA_ARGS__)
#define json_object_to_json_string_ext(...) cli_json()->json_object_to_json_string_ext(__VA_ARGS__)
#define json_tokener_new(...) cli_json()->json_tokener_new(__VA_ARGS__)
#define json_tokener_free(...) cli_json()->json_tokener_free(__VA_ARGS__)
#define json_tokener_parse_ex(...) cli_json()->json_tokener_parse_ex(__VA_ARGS__)
#define json_tokener_get_error(...) cli_json()->json_tokener_get_error(__VA_ARGS__)
#define json_tokener_error_desc(...) cli_json()->json_tokener_error_desc(__VA_ARGS__)
#define json_object_object_get_ex(...) cli_json()->json_object_object_get_ex(__VA_ARGS__)
#define json_object_get_type(...) cli_json()->json_object_get_type(__VA_ARGS__)
#define json_object_get_double(...) cli_json()->json_object_get_double(__VA_ARGS__)
#define json_object_get_int64(...) cli_json()->json_object_get_int64(__VA_ARGS__)
#define json_object_get_string(...) cli_json()->json_object_get_string(__VA_ARGS__)
#define json_object_array_length(...) cli_json()->json_object_array_length(__VA_ARGS__)
#define json_object_array_get_idx(...) cli_json()->json_object_array_get_idx(__VA_ARGS__)
#define json_object_new_double(...) cli_json()->json_object_new_double(__VA_ARGS__)
#define json_object_get_boolean(...) cli_json()->json_object_get_boolean(__VA_ARGS__)

#endif
