/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json-c through the table dl.c loads on first use: include this after
 * <json-c/json.h> and every json_* call below goes through wq_libjson().
 * The udev hook path never touches JSON, so it never loads the library.
 */
#ifndef WQ_JSONC_H
#define WQ_JSONC_H

#include <json-c/json.h>

#include "dl.h"

#define json_object_new_object(...) wq_libjson()->json_object_new_object(__VA_ARGS__)
#define json_object_new_array(...) wq_libjson()->json_object_new_array(__VA_ARGS__)
#define json_object_new_string(...) wq_libjson()->json_object_new_string(__VA_ARGS__)
#define json_object_new_int(...) wq_libjson()->json_object_new_int(__VA_ARGS__)
#define json_object_new_int64(...) wq_libjson()->json_object_new_int64(__VA_ARGS__)
#define json_object_new_double_s(...) wq_libjson()->json_object_new_double_s(__VA_ARGS__)
#define json_object_new_boolean(...) wq_libjson()->json_object_new_boolean(__VA_ARGS__)
#define json_object_object_add(...) wq_libjson()->json_object_object_add(__VA_ARGS__)
#define json_object_array_add(...) wq_libjson()->json_object_array_add(__VA_ARGS__)
#define json_object_put(...) wq_libjson()->json_object_put(__VA_ARGS__)
#define json_object_to_json_string_ext(...) wq_libjson()->json_object_to_json_string_ext(__VA_ARGS__)
#define json_tokener_new(...) wq_libjson()->json_tokener_new(__VA_ARGS__)
#define json_tokener_free(...) wq_libjson()->json_tokener_free(__VA_ARGS__)
#define json_tokener_parse_ex(...) wq_libjson()->json_tokener_parse_ex(__VA_ARGS__)
#define json_tokener_get_error(...) wq_libjson()->json_tokener_get_error(__VA_ARGS__)
#define json_tokener_error_desc(...) wq_libjson()->json_tokener_error_desc(__VA_ARGS__)
#define json_object_object_get_ex(...) wq_libjson()->json_object_object_get_ex(__VA_ARGS__)
#define json_object_get_type(...) wq_libjson()->json_object_get_type(__VA_ARGS__)
#define json_object_get_double(...) wq_libjson()->json_object_get_double(__VA_ARGS__)
#define json_object_get_int64(...) wq_libjson()->json_object_get_int64(__VA_ARGS__)
#define json_object_get_string(...) wq_libjson()->json_object_get_string(__VA_ARGS__)
#define json_object_array_length(...) wq_libjson()->json_object_array_length(__VA_ARGS__)
#define json_object_array_get_idx(...) wq_libjson()->json_object_array_get_idx(__VA_ARGS__)
#define json_object_new_double(...) wq_libjson()->json_object_new_double(__VA_ARGS__)
#define json_object_get_boolean(...) wq_libjson()->json_object_get_boolean(__VA_ARGS__)
#define json_object_get_string_len(...) wq_libjson()->json_object_get_string_len(__VA_ARGS__)
#define json_tokener_get_parse_end(...) wq_libjson()->json_tokener_get_parse_end(__VA_ARGS__)

#endif
