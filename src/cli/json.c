// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON output helpers over json-c (loaded on first use through lazy.c). */
#include "json.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

int json_print(json_object *doc)
{
	const char *s = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
								JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = s && puts(s) >= 0 ? EXIT_OK : EXIT_FAIL;

	json_object_put(doc);
	return rc;
}

json_object *json_cpus(const struct wq_cpuset *s)
{
	char *l = wq_cpuset_format_list(s);
	json_object *o = json_object_new_string(l ? l : "");

	free(l);
	return o;
}
