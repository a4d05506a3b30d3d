// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON output helpers over json-c (loaded on first use by lib/util/dl.c). */
#include "json.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "cli.h"

/*
 * json-c indents by 2, libsmartcols (every table's -J) by 3: each line's
 * indent is widened to 3 per level, so that every -J of wqctl reads alike.
 * Strings hold no raw newline (json-c escapes it), so lines are lines.
 */
static int put_indented3(const char *s)
{
	while (*s) {
		size_t lead = strspn(s, " "), len = strcspn(s, "\n");

		if (printf("%*s%.*s\n", (int)(lead / 2 * 3 + lead % 2), "", (int)(len - lead), s + lead) < 0)
			return -1;
		s += len + (s[len] == '\n');
	}
	return 0;
}

int json_print(json_object *doc)
{
	const char *s = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
								JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = s && put_indented3(s) == 0 ? EXIT_OK : EXIT_FAIL;

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
