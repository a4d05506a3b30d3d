// SPDX-License-Identifier: GPL-2.0-or-later
/* How a plan is printed: OBJECT OLD -> NEW lines, the dry-run table, the values revert writes back. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/core/apply.h"
#include "../lib/core/explain.h"
#include "../lib/core/kver.h"
#include "../lib/util/macro.h"
#include "../lib/core/wq.h"
#include "plan_out.h"

enum { COL_OBJECT, COL_PATH, COL_OLD, COL_NEW, COL_EFFECTIVE, COL_ACTION };

static const struct colinfo cols[] = {
    [COL_OBJECT] = {"OBJECT", 0.2, 0, SCOLS_JSON_STRING, "workqueue/attribute or global knob"},
    [COL_PATH] = {"PATH", 0.3, 0, SCOLS_JSON_STRING, "file that would be written"},
    [COL_OLD] = {"OLD", 0.1, 0, SCOLS_JSON_STRING, "current value"},
    [COL_NEW] = {"NEW", 0.1, 0, SCOLS_JSON_STRING, "value to write"},
    [COL_EFFECTIVE] = {"EFFECTIVE", 0.1, 0, SCOLS_JSON_STRING, "what the kernel will use"},
    [COL_ACTION] = {"ACTION", 0.1, 0, SCOLS_JSON_STRING, "write or unchanged"},
};

int plan_list_columns(struct cli *cli)
{
	return out_list_columns(cli, cols, ARRAY_SIZE(cols));
}

char *plan_effective(struct cli *cli, const struct wq_change *c)
{
	if (c->type == WQ_V_CPUMASK && strstr(c->path, "/workqueue/") && strcmp(c->object, "cpumask")) {
		_cleanup_cpuset_ struct wq_cpuset *w = wq_cpuset_new();
		_cleanup_cpuset_ struct wq_cpuset *e = wq_cpuset_new();

		if (w && e && wq_cpuset_parse_hex(w, c->new) == 0 && wq_effective_cpus(cli->ctx, w, e) == 0)
			return wq_cpuset_format_list(e);
	}
	if (c->type == WQ_V_SCOPE && !strcmp(c->new, "default")) {
		char def[32], *s = NULL;

		wq_default_scope(cli->ctx, def, sizeof(def));
		if (asprintf(&s, "default (%s)", def) < 0)
			return NULL;
		return s;
	}
	return wq_value_display(c->type, c->new);
}

int plan_print(struct cli *cli, const struct wq_plan *plan)
{
	struct out o;
	int rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), "PATH,OLD,NEW,EFFECTIVE", NULL, "plan");

	if (rc)
		return rc;
	for (size_t i = 0; i < plan->n; i++) {
		const struct wq_change *c = &plan->c[i];
		struct libscols_line *ln = out_line(&o);
		_cleanup_free_ char *old = c->old ? wq_value_display(c->type, c->old) : NULL;
		_cleanup_free_ char *nw = wq_value_display(c->type, c->new);
		_cleanup_free_ char *eff = plan_effective(cli, c);

		out_set(&o, ln, COL_OBJECT, c->object);
		out_setf(&o, ln, COL_PATH, "%s/%s", cli->sysroot ? cli->sysroot : "", c->path);
		out_set(&o, ln, COL_OLD, old);
		out_set(&o, ln, COL_NEW, nw);
		out_set(&o, ln, COL_EFFECTIVE, eff);
		out_set(&o, ln, COL_ACTION, wq_change_is_noop(c) ? "unchanged" : "write");
	}
	rc = out_print(&o);
	out_free(&o);
	return rc;
}

void plan_report_changes(const struct wq_plan *plan)
{
	size_t written = 0;

	for (size_t i = 0; i < plan->n; i++) {
		const struct wq_change *c = &plan->c[i];
		_cleanup_free_ char *o = NULL;
		_cleanup_free_ char *n = NULL;

		if (c->state != WQ_CH_WRITTEN)
			continue;
		o = wq_value_display(c->type, c->old);
		n = wq_value_display(c->type, c->now ? c->now : c->new);
		printf("%s: %s -> %s\n", c->object, o ? o : c->old, n ? n : c->new);
		written++;
	}
	if (!written)
		puts("nothing to change");
}

int plan_transact(struct cli *cli, struct wq_plan *plan, int wait_ms, int taken)
{
	return wq_plan_commit(cli->ctx, plan, wait_ms, taken) < 0 ? EXIT_FAIL : EXIT_OK;
}

/* "OBJECT: NOW -> ORIGINAL" for each value written back, as apply prints its changes */
static void restored(void *arg, const char *object, enum wq_vtype type, const char *from, const char *to,
		     int min_active)
{
	struct cli *cli = arg;
	_cleanup_free_ char *f = wq_value_display(type, from);
	_cleanup_free_ char *t = wq_value_display(type, to);

	if (!cli->quiet)
		printf("%s: %s -> %s\n", object, f ? f : from, t ? t : to);
	if (min_active > 0 && atoi(to) > min_active)
		cli_warn(cli,
			 "%s: min_active stays %d, as the earlier write below it left it, until the workqueue is "
			 "recreated",
			 object, min_active);
}

int cli_revert(struct cli *cli)
{
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	return wq_revert(cli->ctx, restored, cli) < 0 ? EXIT_FAIL : EXIT_OK;
}
