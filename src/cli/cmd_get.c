// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl get: a workqueue's attributes as ATTR = VALUE lines. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/util/macro.h"
#include "../lib/core/wq.h"
#include "cli.h"
#include "json.h"

enum { COL_ATTR, COL_VALUE };

static const struct colinfo cols[] = {
    [COL_ATTR] = {"ATTR", 0, 0, SCOLS_JSON_STRING, "attribute name"},
    [COL_VALUE] = {"VALUE", 0, 0, SCOLS_JSON_STRING, "value (cpumask as a CPU list unless --hex)"},
};

static int attr_missing_reason(struct cli *cli, const struct wq_info *wi, int a)
{
	char why[256];
	char *dummy = NULL;

	/* wq_attr_parse explains why an attribute is absent; the value is irrelevant. */
	wq_attr_parse(cli->ctx, wi, (enum wq_attr)a, -1, "0", &dummy, why, sizeof(why));
	free(dummy);
	cli_err(cli, "%s/%s: %s", wi->name, wq_attr_descs[a].name, why);
	return EXIT_USAGE;
}

/*
 * get -J: one object keyed by attribute, values typed as the kernel means
 * them: numbers, booleans, the CPU list (or the mask with --hex), and the
 * scope split into its name and whether it follows the default.
 */
static int json_get(struct cli *cli, const struct wq_info *wi, const int *attrs, int nattrs, bool hex)
{
	json_object *doc = json_object_new_object();
	int rc = EXIT_OK;

	json_object_object_add(doc, "workqueue", json_object_new_string(wi->name));
	for (int i = 0; i < nattrs; i++) {
		const struct wq_attr_desc *d = &wq_attr_descs[attrs[i]];
		const char *raw = wi->raw[attrs[i]];
		_cleanup_free_ char *v = NULL;
		json_object *val = NULL;

		if (!raw || (wi->bad & (1U << attrs[i]))) {
			cli_err(cli, "%s/%s: %s", wi->name, d->name,
				raw ? "malformed value" : wq_strerror(-wi->err[attrs[i]]));
			rc = EXIT_FAIL;
			json_object_object_add(doc, d->name, NULL);
			continue;
		}
		switch (attrs[i]) {
		case WQ_A_MAX_ACTIVE: val = json_object_new_int(wi->max_active); break;
		case WQ_A_NICE: val = json_object_new_int(wi->nice); break;
		case WQ_A_AFFINITY_STRICT: val = json_object_new_boolean(wi->strict > 0); break;
		case WQ_A_NUMA: val = json_object_new_boolean(wi->numa > 0); break;
		case WQ_A_AFFINITY_SCOPE:
			/* "default (cache)": the scope in force, and that it is the module default */
			json_object_object_add(doc, d->name,
					       json_object_new_string(wi->scope_eff[0] ? wi->scope_eff : wi->scope));
			json_object_object_add(doc, "affinity_scope_default",
					       json_object_new_boolean(!strcmp(wi->scope, "default")));
			continue;
		default:
			v = hex ? strdup(raw) : wq_value_display(d->type, raw);
			val = json_object_new_string(v ? v : raw);
		}
		json_object_object_add(doc, d->name, val);
	}
	if (json_print(doc) != EXIT_OK)
		rc = EXIT_FAIL;
	return rc;
}

/* The attributes named after the workqueue into attrs. EXIT_OK or EXIT_USAGE. */
static int parse_attrs(struct cli *cli, const char *name, int argc, char **argv, int *attrs, int *nattrs)
{
	for (int i = optind; i < argc; i++) {
		int a = wq_attr_from_name(argv[i]);

		if (a < 0) {
			const char *near = cli_nearest_attr(argv[i]);

			if (near)
				cli_err(cli, "%s/%s: unknown attribute; did you mean '%s'?", name, argv[i], near);
			else
				cli_err(
				    cli,
				    "%s/%s: unknown attribute (max_active cpumask affinity_scope affinity_strict nice "
				    "numa)",
				    name, argv[i]);
			return EXIT_USAGE;
		}
		if (*nattrs < WQ_A_NR)
			attrs[(*nattrs)++] = a;
	}
	return EXIT_OK;
}

/* The values as "ATTR = VALUE" lines (plain) or a table (-P, -r, -J -o). */
static int print_values(struct cli *cli, const struct wq_info *wi, const int *attrs, int nattrs, bool hex)
{
	/* Plain output is sysctl-style "ATTR = VALUE" lines; -P -r (and -J -o) go through the table. */
	bool plain = !cli->json && !cli->pairs && !cli->raw && !cli->output;
	struct out o;
	int rc = EXIT_OK;

	if (!plain && (rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), "ATTR,VALUE", NULL, "attributes")))
		return rc;
	for (int i = 0; i < nattrs; i++) {
		const struct wq_attr_desc *d = &wq_attr_descs[attrs[i]];
		struct libscols_line *ln;
		const char *raw = wi->raw[attrs[i]];
		_cleanup_free_ char *v = NULL;

		if (!raw) {
			cli_err(cli, "%s/%s: cannot read: %s", wi->name, d->name, wq_strerror(-wi->err[attrs[i]]));
			rc = EXIT_FAIL;
			continue;
		}
		if (wi->bad & (1U << attrs[i])) {
			cli_err(cli, "%s/%s: malformed value '%.40s'", wi->name, d->name, raw);
			rc = EXIT_FAIL;
		}
		v = hex ? strdup(raw) : wq_value_display(d->type, raw);
		if (plain) {
			if (cli->noheadings)
				printf("%s\n", v ? v : "");
			else
				printf("%s = %s\n", d->name, v ? v : "");
			continue;
		}
		ln = out_line(&o);
		out_set(&o, ln, COL_ATTR, d->name);
		out_set(&o, ln, COL_VALUE, v);
	}
	if (!plain) {
		if (out_print(&o) != EXIT_OK)
			rc = EXIT_FAIL;
		out_free(&o);
	}
	return rc;
}

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {{"hex", no_argument, NULL, 'x'}, {NULL, 0, NULL, 0}};
	bool hex = false;
	int attrs[WQ_A_NR], nattrs = 0, c, rc = EXIT_OK;
	struct wq_info wi;
	const char *name;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'x') {
			hex = true;
			continue;
		}
		cli_err(cli, "get: %s: unknown option", argv[optind - 1]);
		return EXIT_USAGE;
	}
	if (cli->list_columns)
		return out_list_columns(cli, cols, ARRAY_SIZE(cols));
	if (optind >= argc) {
		cli_err(cli, "get: missing WORKQUEUE (see wqctl get --help)");
		return EXIT_USAGE;
	}
	name = argv[optind++];
	if ((rc = parse_attrs(cli, name, argc, argv, attrs, &nattrs)))
		return rc;
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	if (!wq_name_is_valid(name)) {
		cli_err(cli, "%s: not a valid workqueue name", name);
		return EXIT_USAGE;
	}
	if (wq_info_read(cli->ctx, name, &wi) < 0) {
		wq_info_clear(&wi);
		cli_no_such_wq(cli, name);
		return EXIT_NONE_EXIST;
	}
	if (!nattrs) {
		for (int a = 0; a < WQ_A_NR; a++)
			if (wi.has & (1U << a))
				attrs[nattrs++] = a;
	}
	for (int i = 0; i < nattrs && rc == EXIT_OK; i++)
		if (!(wi.has & (1U << attrs[i])))
			rc = attr_missing_reason(cli, &wi, attrs[i]);
	if (rc == EXIT_OK)
		rc = cli->json && !cli->output ? json_get(cli, &wi, attrs, nattrs, hex)
					       : print_values(cli, &wi, attrs, nattrs, hex);
	wq_info_clear(&wi);
	return rc;
}

const struct cmd cmd_get = {
    .name = "get",
    .run = run,
    .summary = "print attributes of one workqueue",
    .usage = "[--hex] WORKQUEUE [ATTR...]",
    .options = "  ATTR        max_active cpumask affinity_scope affinity_strict nice numa (all by default)\n"
	       "  -n          values only\n"
	       "  --hex       print cpumask as the kernel's hex mask\n",
};
