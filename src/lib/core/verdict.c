// SPDX-License-Identifier: GPL-2.0-or-later
/* The conditions table and the one resolver of a requested setting (verdict.h). */
#define _GNU_SOURCE
#include "verdict.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/macro.h"
#include "minact.h"
#include "../util/text.h"

const char *wq_severity_name(enum wq_severity s)
{
	static const char *const n[] = {"info", "warning", "error"};

	return n[s];
}

/*
 * The contract of wqctl.profile(5), CONDITIONS (the docs tier prints the
 * page's table from here and compares). Severity info: the host lacks it
 * and nothing is wrong (exit 0 everywhere); warning: the rest applies, the
 * setting is not in force and someone should look (apply 1, check and
 * verify 3); error: the set is refused and nothing is written (exit 2
 * everywhere: a profile whose value no kernel takes does not even load).
 */
const struct wq_cond_desc wq_conds[WQ_COND_NR] = {
    [WQ_COND_OK] = {"ok", WQ_SEV_INFO, "ok", "writes it (or finds it set)", {0, 0, 0}, "valid and applicable here"},
    [WQ_COND_KERNELS] = {"profile-kernels",
			 WQ_SEV_INFO,
			 "unsupported",
			 "leaves it out",
			 {0, 0, 0},
			 "the profile's kernels = range leaves this kernel out"},
    [WQ_COND_WHEN] = {"when-false",
		      WQ_SEV_INFO,
		      "not listed",
		      "leaves the section out",
		      {0, 0, 0},
		      "the section's when = condition is false here"},
    [WQ_COND_KERNEL] = {"unsupported",
			WQ_SEV_INFO,
			"unsupported",
			"leaves it out",
			{0, 0, 0},
			"valid on some kernel, not this one: an attribute, knob or value (a scope, a max_active) "
			"of another era"},
    [WQ_COND_PERCPU] =
	{"percpu",
	 WQ_SEV_INFO,
	 "unsupported",
	 "leaves it out",
	 {0, 0, 0},
	 "a per-CPU workqueue given an attribute only unbound ones have (wqctl set refuses it where named)"},
    [WQ_COND_OUTSIDE] = {"outside-sysfs",
			 WQ_SEV_INFO,
			 "outside",
			 "leaves it out, names the owner's knob",
			 {0, 0, 0},
			 "the section names workqueues the kernel never puts in sysfs (dm-zoned, btrfs)"},
    [WQ_COND_WAITING] = {"waiting",
			 WQ_SEV_INFO,
			 "waiting",
			 "leaves it for the udev rule",
			 {0, 0, 0},
			 "the section is for a device's workqueues and none is present (verify --strict: 3)"},
    [WQ_COND_MACHINE] = {"machine-lacks",
			 WQ_SEV_WARNING,
			 "unsupported",
			 "skips it, applies the rest",
			 {3, 1, 3},
			 "a NUMA node or CPU this machine lacks, or CPUs that are all offline"},
    [WQ_COND_LOCAL] = {"local-no-owner",
		       WQ_SEV_WARNING,
		       "skipped",
		       "skips it, applies the rest",
		       {3, 1, 3},
		       "'local' cannot be placed: no owner device, no NUMA node, an owner across nodes, or its "
		       "node offline"},
    [WQ_COND_ABSENT] = {"absent",
			WQ_SEV_WARNING,
			"absent",
			"skips it, applies the rest",
			{3, 1, 3},
			"the section's pattern matches no workqueue"},
    [WQ_COND_INVALID] = {"invalid-value",
			 WQ_SEV_ERROR,
			 "invalid",
			 "refuses the set, writes nothing",
			 {2, 2, 2},
			 "invalid on every kernel, or for this workqueue (out of range)"},
    [WQ_COND_FORCE] = {"needs-force",
		       WQ_SEV_ERROR,
		       "invalid",
		       "refuses the set, writes nothing",
		       {2, 2, 2},
		       "a max_active below the hidden min_active (6.9+), asked without --force (profiles are "
		       "forced)"},
    [WQ_COND_UNREADABLE] = {"unreadable",
			    WQ_SEV_ERROR,
			    "invalid",
			    "refuses the set, writes nothing",
			    {2, 2, 2},
			    "the current value cannot be read, or holds a control character"},
    [WQ_COND_DRIFT] =
	{"drift", WQ_SEV_WARNING, "drift", "writes it", {0, 0, 3}, "the live value differs from the profile's"},
    [WQ_COND_FOREIGN] = {"foreign",
			 WQ_SEV_WARNING,
			 "drift",
			 "writes it",
			 {0, 0, 3},
			 "wqctl wrote the profile's value and another writer changed it since"},
};

bool wq_cond_is_setting(enum wq_cond c)
{
	return c != WQ_COND_DRIFT && c != WQ_COND_FOREIGN;
}

int wq_cond_exit_worse(int a, int b)
{
	static const int rank[] = {[0] = 0, [3] = 1, [1] = 2, [2] = 3};

	if (a < 0 || a > 3)
		return a;
	if (b < 0 || b > 3)
		return b;
	return rank[b] > rank[a] ? b : a;
}

void wq_req_verdict_clear(struct wq_req_verdict *v)
{
	free(v->write);
	v->write = NULL;
}

static void set(struct wq_req_verdict *v, enum wq_cond c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set(struct wq_req_verdict *v, enum wq_cond c, const char *fmt, ...)
{
	va_list ap;

	v->cond = c;
	if (!fmt)
		return;
	va_start(ap, fmt);
	vsnprintf(v->why, sizeof(v->why), fmt, ap);
	va_end(ap);
}

/* The value as read can be compared, journaled and restored. */
static void check_current(struct wq_req_verdict *v, const char *current, int err)
{
	if (!current)
		set(v, WQ_COND_UNREADABLE, "cannot read the current value: %s", wq_strerror(err ? -err : EIO));
	else if (wq_value_has_ctrl(current))
		set(v, WQ_COND_UNREADABLE, "the current value holds a control character");
}

int wq_request_attr(struct wq_ctx *ctx, const struct wq_request *rq, struct wq_req_verdict *v)
{
	const struct wq_info *wi = rq->wi;
	const struct wq_attr_desc *d = &wq_attr_descs[rq->attr];
	const bool local = strstr(rq->value, "local") != NULL;
	char anywhy[sizeof(v->why)];
	int r;

	memset(v, 0, sizeof(*v));
	if (!(wi->has & (1U << rq->attr)) && d->unbound_only && !wi->unbound) {
		set(v, WQ_COND_PERCPU, "per-cpu workqueues have no %s", d->name);
		return 0;
	}
	r = wq_attr_parse(ctx, wi, rq->attr, rq->owner_node, rq->value, &v->write, v->why, sizeof(v->why));
	if (r == -ENOMEM)
		return r;
	if (r == -ENOTSUP || (r < 0 && !(wi->has & (1U << rq->attr)))) {
		v->cond = WQ_COND_KERNEL;
	} else if (r < 0 && local && (rq->owner_node < 0 || r == -ENODEV)) {
		/* placed by the owner: no owner, no node, or a node whose CPUs are all offline */
		if (rq->owner_node < 0 && rq->owner_why)
			set(v, WQ_COND_LOCAL, "'local' needs the owner's NUMA node: %s", rq->owner_why);
		else
			v->cond = WQ_COND_LOCAL; /* no owner device: wq_attr_parse said so */
	} else if (r == -ENODEV) {
		v->cond = WQ_COND_MACHINE;
	} else if (r < 0) {
		/* out of this kernel's domain but in another's: that setting only; else no kernel takes it */
		v->cond = wq_attr_check_any(ctx, rq->attr, rq->value, anywhy, sizeof(anywhy)) == 0 ? WQ_COND_KERNEL
												   : WQ_COND_INVALID;
	} else {
		check_current(v, wi->raw[rq->attr], wi->err[rq->attr]);
	}
	if (v->cond == WQ_COND_OK && rq->attr == WQ_A_MAX_ACTIVE &&
	    !wq_value_equal(d->type, wi->raw[rq->attr], v->write) &&
	    wq_minact_check_write(ctx, wi, rq->attr, v->write, rq->flags & WQ_REQ_FORCE, v->why, sizeof(v->why)) < 0)
		v->cond = WQ_COND_FORCE;
	if (v->cond != WQ_COND_OK)
		wq_req_verdict_clear(v);
	return 0;
}

int wq_request_knob(struct wq_ctx *ctx, const struct wq_knob *k, const char *value, struct wq_req_verdict *v)
{
	char anywhy[sizeof(v->why)];
	int r;

	memset(v, 0, sizeof(*v));
	if (!k->present && !k->boot_only) {
		set(v, WQ_COND_KERNEL, "this kernel has no %s", k->name);
		return 0;
	}
	r = wq_knob_parse(ctx, k, value, &v->write, v->why, sizeof(v->why));
	if (r == -ENOMEM)
		return r;
	if (r == -ENODEV)
		v->cond = WQ_COND_MACHINE;
	else if (r == -EINVAL || r == -ERANGE)
		v->cond = k->desc && wq_value_check_any(ctx, k->desc->type, k->desc->lo, k->desc->hi, false, value,
							anywhy, sizeof(anywhy)) == 0
			      ? WQ_COND_KERNEL
			      : WQ_COND_INVALID;
	else if (r < 0)
		v->cond = WQ_COND_INVALID; /* boot-only or read-only: why says which */
	else
		check_current(v, k->value, k->err);
	if (v->cond != WQ_COND_OK)
		wq_req_verdict_clear(v);
	return 0;
}
