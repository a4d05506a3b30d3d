/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One verdict for a requested setting, whoever asks: the table of
 * conditions a setting can meet (code, severity, what apply does, verify's
 * status, each command's exit status), and the one resolver that turns
 * "WORKQUEUE ATTR=VALUE" or "KNOB=VALUE" into a condition and the text to
 * write. set, knob, experiment, apply, check --profile, verify and metrics
 * all take their verdicts from here (wqctl.profile(5), CONDITIONS).
 */
#ifndef WQ_VERDICT_H
#define WQ_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"
#include "knob.h"
#include "wq.h"

enum wq_severity { WQ_SEV_INFO, WQ_SEV_WARNING, WQ_SEV_ERROR };
const char *wq_severity_name(enum wq_severity s);

enum wq_cond {
	WQ_COND_OK, /* valid here and applicable */
	WQ_COND_KERNELS, /* the profile's 'kernels =' leaves this kernel out */
	WQ_COND_WHEN, /* the section's 'when' is false here */
	WQ_COND_KERNEL, /* valid on some kernel, not this one: an attribute, knob or value of another era */
	WQ_COND_PERCPU, /* a per-CPU workqueue reached by a glob for an attribute only unbound ones have */
	WQ_COND_OUTSIDE, /* the section names workqueues the kernel keeps out of sysfs; their owner has a knob */
	WQ_COND_WAITING, /* the section is for a device's workqueues, and none is present */
	WQ_COND_MACHINE, /* a NUMA node or CPU this machine lacks, or only offline CPUs */
	WQ_COND_LOCAL, /* 'local' cannot be placed: no owner device, no node, owner across nodes, node offline */
	WQ_COND_ABSENT, /* the section's pattern matches no workqueue */
	WQ_COND_INVALID, /* invalid on every kernel, or for this workqueue (out of range) */
	WQ_COND_FORCE, /* a max_active below the hidden min_active (6.9+), asked without force */
	WQ_COND_UNREADABLE, /* the current value cannot be read, or holds a control character */
	WQ_COND_DRIFT, /* verify: the live value differs from the profile's */
	WQ_COND_FOREIGN, /* verify: wqctl wrote it, and another writer changed it since */
	WQ_COND_NR
};

/* The commands whose exit status the table gives. */
enum wq_cmdkind { WQ_CMD_CHECK, WQ_CMD_APPLY, WQ_CMD_VERIFY, WQ_CMD_NR };

struct wq_cond_desc {
	const char *code; /* stable: check's CODE, verify's and metrics' condition */
	enum wq_severity severity; /* check --profile's */
	const char *status; /* verify's STATUS */
	const char *apply; /* what apply does with the setting */
	int exit[WQ_CMD_NR]; /* each command's exit status when this is the worst condition */
	const char *meaning;
};

extern const struct wq_cond_desc wq_conds[WQ_COND_NR];
/* Is c a condition of a profile's setting (not verify's comparison alone)? */
bool wq_cond_is_setting(enum wq_cond c);
/* The worse of two exit statuses of one command (2 over 1 over 3 over 0: refusal, partial, findings). */
int wq_cond_exit_worse(int a, int b);

/* How a command asks (set and knob are strict: anything but ok refuses the request). */
enum wq_req_flags {
	WQ_REQ_FORCE = 1 << 0, /* a max_active below the hidden min_active (6.9+) is written, with a warning */
};

struct wq_req_verdict {
	enum wq_cond cond;
	char *write; /* the kernel's form of the value (OK only) */
	char why[480];
};
void wq_req_verdict_clear(struct wq_req_verdict *v);

/*
 * One workqueue attribute. wi is the workqueue as read; owner_node its
 * owner's NUMA node for 'local' (-1: none, owner_why says why, NULL: no
 * owner device). 0 or -ENOMEM; the verdict in v.
 */
struct wq_request {
	const struct wq_info *wi;
	enum wq_attr attr;
	const char *value;
	int owner_node;
	const char *owner_why;
	unsigned int flags;
};
int wq_request_attr(struct wq_ctx *ctx, const struct wq_request *rq, struct wq_req_verdict *v);
/* One global knob, k as looked up (k->present false: this kernel has none). 0 or -ENOMEM. */
int wq_request_knob(struct wq_ctx *ctx, const struct wq_knob *k, const char *value, struct wq_req_verdict *v);

#endif
