/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Nested JSON documents (explain, topology) through json-c: libsmartcols
 * only emits {"name":[rows]}, which cannot hold their nested objects.
 */
#ifndef WQCTL_JSON_H
#define WQCTL_JSON_H

#include <json-c/json.h>

#include "lazy.h"

#include "../lib/core/cpuset.h"

/* Print and release a document; EXIT_OK or EXIT_FAIL. */
int json_print(json_object *doc);
/* A CPU set as a CPU-list string value. */
json_object *json_cpus(const struct wq_cpuset *s);

#endif
