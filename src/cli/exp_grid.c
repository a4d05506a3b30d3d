// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * experiment's grid from its options: each --set (a workqueue attribute, or
 * a btrfs mount's thread_pool) and --profile list as one axis of choices,
 * every value given its verdict for every workqueue it reaches before
 * anything runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/core/apply.h"
#include "../lib/core/mountopt.h"
#include "../lib/core/owner.h"
#include "../lib/core/verdict.h"
#include "../lib/core/wq.h"
#include "../lib/util/macro.h"
#include "exp_grid.h"
#include "profiles.h"

/* Append a copy of s to *v, NULL-terminated, of *n strings. 0 or -ENOMEM. */
int exp_strv_push(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, sizeof(char *) * (*n + 2));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = strdup(s);
	if (!nv[*n])
		return -ENOMEM;
	nv[++*n] = NULL;
	return 0;
}

/* Split "8,16,768" (or "0-1|all" for cpumask, whose lists hold commas) into values. */
/* The values of one --set, in v; their number, or max + 1 when there are more (nothing is dropped). */
static size_t split_values(char *list, int attr, char **v, size_t max)
{
	const char *sep = attr == WQ_A_CPUMASK || strchr(list, '|') ? "|" : ",";
	size_t n = 0;
	char *save = NULL;

	for (char *t = strtok_r(list, sep, &save); t; t = strtok_r(NULL, sep, &save)) {
		if (n == max)
			return max + 1;
		v[n++] = t;
	}
	return n;
}

/*
 * --set 'MOUNTPOINT thread_pool=V1,V2,...': btrfs's own knob for its
 * workqueues, which are not in sysfs, as one axis (live system only: a
 * mount is reconfigured, nothing in a tree can be).
 */
static int axis_from_mount(struct cli *cli, struct wq_exp *e, const char *spec, char *dir, const char *opt, char *list)
{
	_cleanup_free_ char *cur = NULL;
	char *vals[WQ_EXP_MAX_CELLS], path[4200], obj[4200];
	struct wq_exp_axis *ax;
	size_t nv;
	int r;

	/* "/mnt/data/" is /mnt/data, as the kernel lists it */
	for (size_t l = strlen(dir); l > 1 && dir[l - 1] == '/'; l--)
		dir[l - 1] = '\0';
	if (strcmp(opt, "thread_pool")) {
		cli_err(cli, "experiment: --set '%s': a mount point takes thread_pool= (btrfs's), not %s=", spec, opt);
		return EXIT_USAGE;
	}
	r = wq_mountopt_path(dir, opt, path, sizeof(path));
	if (r < 0) {
		cli_err(cli, "experiment: --set '%s': %s: %s", spec, dir,
			r == -EINVAL ? "not a mount point as the kernel names it (absolute, no '.', '..', '//', "
				       "spaces or control characters)"
				     : wq_strerror(-r));
		return EXIT_USAGE;
	}
	nv = split_values(list, WQ_A_MAX_ACTIVE, vals, ARRAY_SIZE(vals));
	if (nv == 0 || nv > ARRAY_SIZE(vals)) {
		if (nv)
			cli_err(cli, "experiment: --set '%s': more than %d values (the grid holds at most %d settings)",
				spec, WQ_EXP_MAX_CELLS, WQ_EXP_MAX_CELLS);
		else
			cli_err(cli, "experiment: --set '%s': no values after thread_pool=", spec);
		return EXIT_USAGE;
	}
	r = wq_mountopt_read(cli->ctx, path, &cur);
	if (r < 0) {
		cli_err(cli, "experiment: --set '%s': %s: %s", spec, dir,
			r == -ENOENT	    ? "no btrfs is mounted there"
			: r == -EMEDIUMTYPE ? "not a btrfs (thread_pool= is btrfs's mount option)"
					    : wq_strerror(-r));
		return r == -ENOENT ? EXIT_NONE_EXIST : r == -EMEDIUMTYPE ? EXIT_USAGE : EXIT_FAIL;
	}
	ax = wq_exp_axis_new(e, nv);
	if (!ax)
		return EXIT_FAIL;
	snprintf(obj, sizeof(obj), "%s %s", dir, opt);
	for (size_t v = 0; v < nv; v++) {
		_cleanup_free_ char *newv = NULL;
		char why[200];

		if (wq_mountopt_check(cli->ctx, opt, vals[v], &newv, why, sizeof(why)) < 0) {
			cli_err(cli, "%s: invalid value '%s': %s", obj, vals[v], why);
			return EXIT_USAGE;
		}
		if (asprintf(&ax->c[v].label, "%s %s=%s", dir, opt, vals[v]) < 0) {
			ax->c[v].label = NULL;
			return EXIT_FAIL;
		}
		if (wq_exp_choice_add(e, &ax->c[v], obj, path, WQ_V_INT, cur, NULL, newv, vals[v]) < 0)
			return EXIT_FAIL;
	}
	if (cli->sysroot) {
		cli_err(cli,
			"experiment: --set '%s': thread_pool changes by reconfiguring the mount, which only the "
			"live system can",
			spec);
		return EXIT_USAGE;
	}
	/* btrfs's workqueues are what the axis varies: count their work unless --watch says what to */
	if (!e->nwatch && e->monitor && exp_strv_push(&e->watch, &e->nwatch, "btrfs-*") < 0)
		return EXIT_FAIL;
	return EXIT_OK;
}

/* One workqueue's choices of an axis: each value's verdict for it, added to ax (a per-cpu one a glob reaches is skipped). */
static int axis_target(struct cli *cli, struct wq_exp *e, struct wq_exp_axis *ax, const char *wq, const char *name,
		       int attr, char **vals, size_t nv)
{
	const struct wq_attr_desc *d = &wq_attr_descs[attr];
	struct wq_owner_info owner;
	struct wq_info wi;
	char obj[160], path[256];
	int rc = EXIT_OK, r = wq_info_read(cli->ctx, name, &wi);

	if (r < 0) {
		cli_err(cli, "%s: cannot read: %s", name, wq_strerror(-r));
		wq_info_clear(&wi);
		return EXIT_FAIL;
	}
	snprintf(obj, sizeof(obj), "%s/%s", wi.name, d->name);
	wq_owner_resolve(cli->ctx, name, &owner);
	wq_attr_path(path, sizeof(path), wi.name, d->name);
	for (size_t v = 0; v < nv && rc == EXIT_OK; v++) {
		struct wq_req_verdict vd;

		if (wq_request_attr(
			cli->ctx,
			&(struct wq_request){.wi = &wi,
					     .attr = (enum wq_attr)attr,
					     .value = vals[v],
					     .owner_node = owner.node,
					     .owner_why = owner.o.kind == WQ_OWNER_NONE ? NULL : owner.node_why,
					     .flags = e->force ? WQ_REQ_FORCE : 0},
			&vd) < 0) {
			rc = EXIT_FAIL;
			break;
		}
		/* a glob that reaches per-cpu workqueues: those lack the unbound attributes (as set) */
		if (vd.cond == WQ_COND_PERCPU && cli_is_glob(wq)) {
			if (v == 0)
				cli_warn(cli, "%s: skipped: %s", obj, vd.why);
			break;
		}
		if (vd.cond != WQ_COND_OK) {
			cli_say_refusal(cli, obj, vals[v], &vd);
			rc = vd.cond == WQ_COND_UNREADABLE ? EXIT_FAIL : EXIT_USAGE;
		} else if (wq_exp_choice_add(e, &ax->c[v], obj, path, d->type, wi.raw[attr], wi.name, vd.write,
					     vals[v]) < 0) {
			rc = EXIT_FAIL;
		}
		wq_req_verdict_clear(&vd);
	}
	wq_owner_info_clear(&owner);
	wq_info_clear(&wi);
	return rc;
}

int exp_axis_from_set(struct cli *cli, struct wq_exp *e, const char *spec)
{
	_cleanup_free_ char *copy = strdup(spec);
	char *save = NULL, *wq, *assign, *eq, *extra, *vals[WQ_EXP_MAX_CELLS], **names = NULL;
	size_t nv, n = 0;
	int attr, rc = EXIT_OK, r;
	struct wq_exp_axis *ax;

	if (!copy)
		return EXIT_FAIL;
	wq = strtok_r(copy, " \t", &save);
	assign = strtok_r(NULL, " \t", &save);
	extra = strtok_r(NULL, " \t", &save);
	if (!wq || !assign || extra || !(eq = strchr(assign, '='))) {
		cli_err(cli, "experiment: --set '%s': expected 'WORKQUEUE ATTR=V1,V2,...'", spec);
		return EXIT_USAGE;
	}
	*eq = '\0';
	/* a mount point: btrfs's thread_pool */
	if (wq[0] == '/')
		return axis_from_mount(cli, e, spec, wq, assign, eq + 1);
	attr = wq_attr_from_name(assign);
	if (attr < 0) {
		const char *near = cli_nearest_attr(assign);

		cli_err(cli, "experiment: --set '%s': %s: unknown attribute%s%s%s", spec, assign,
			near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
		return EXIT_USAGE;
	}
	nv = split_values(eq + 1, attr, vals, ARRAY_SIZE(vals));
	if (nv == 0) {
		cli_err(cli, "experiment: --set '%s': no values after %s=", spec, assign);
		return EXIT_USAGE;
	}
	if (nv > ARRAY_SIZE(vals)) {
		cli_err(cli, "experiment: --set '%s': more than %d values (the grid holds at most %d settings)", spec,
			WQ_EXP_MAX_CELLS, WQ_EXP_MAX_CELLS);
		return EXIT_USAGE;
	}
	if (!cli_is_glob(wq) && !wq_name_is_valid(wq)) {
		cli_err(cli, "experiment: --set '%s': %s: not a valid workqueue name", spec, wq);
		return EXIT_USAGE;
	}
	r = cli_resolve_targets(cli, &wq, 1, &names, &n, true);
	if (r != EXIT_OK) {
		wq_names_free(names, n);
		return r == EXIT_FAIL ? EXIT_FAIL : EXIT_NONE_EXIST;
	}
	ax = wq_exp_axis_new(e, nv);
	for (size_t v = 0; ax && v < nv && rc == EXIT_OK; v++) {
		if (asprintf(&ax->c[v].label, "%s %s=%s", wq, assign, vals[v]) < 0) {
			ax->c[v].label = NULL;
			rc = EXIT_FAIL;
		}
	}
	if (!ax)
		rc = EXIT_FAIL;
	for (size_t t = 0; t < n && rc == EXIT_OK; t++)
		rc = axis_target(cli, e, ax, wq, names[t], attr, vals, nv);
	wq_names_free(names, n);
	return rc;
}

/* --profile a,b,none: one axis of whole profiles ("none": only what was there before). */
int exp_axis_from_profiles(struct cli *cli, struct wq_exp *e, const char *list)
{
	_cleanup_free_ char *copy = strdup(list);
	char *names[WQ_EXP_MAX_CELLS], *save = NULL;
	size_t n = 0;
	struct wq_exp_axis *ax;

	if (!copy)
		return EXIT_FAIL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (n == ARRAY_SIZE(names)) {
			cli_err(cli,
				"experiment: --profile: more than %d profiles (the grid holds at most %d settings)",
				WQ_EXP_MAX_CELLS, WQ_EXP_MAX_CELLS);
			return EXIT_USAGE;
		}
		names[n++] = t;
	}
	if (n == 0) {
		cli_err(cli, "experiment: --profile '%s': no profile names", list);
		return EXIT_USAGE;
	}
	ax = wq_exp_axis_new(e, n);
	if (!ax)
		return EXIT_FAIL;
	for (size_t i = 0; i < n; i++) {
		struct wq_settings st = {0};
		struct wq_pset set = {0};
		bool none = false;
		int rc;

		if (asprintf(&ax->c[i].label, "%s%s", strcmp(names[i], "none") ? "profile " : "", names[i]) < 0) {
			ax->c[i].label = NULL;
			return EXIT_FAIL;
		}
		if (!strcmp(names[i], "none"))
			continue;
		rc = cli_load_profiles(cli, &names[i], 1, &set, &none);
		if (rc)
			return rc;
		if (wq_settings_resolve(cli->ctx, &set, NULL, 0, true, &st) < 0) {
			cli_err(cli, "experiment: profile %s: cannot read the workqueues", names[i]);
			wq_pset_free(&set);
			return EXIT_FAIL;
		}
		if (cli_report_settings(cli, &st)) {
			cli_err(cli, "experiment: profile %s: invalid settings", names[i]);
			rc = EXIT_USAGE;
		}
		for (size_t s = 0; s < st.n && rc == EXIT_OK; s++) {
			const struct wq_setting *w = &st.v[s];

			if (w->cond != WQ_COND_OK)
				continue;
			if (wq_exp_choice_add(e, &ax->c[i], w->object, w->path, w->type, w->current, w->wq, w->write,
					      w->value) < 0)
				rc = EXIT_FAIL;
		}
		wq_settings_free(&st);
		wq_pset_free(&set);
		if (rc)
			return rc;
	}
	return EXIT_OK;
}
