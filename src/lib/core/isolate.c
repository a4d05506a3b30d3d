// SPDX-License-Identifier: GPL-2.0-or-later
/* CPU isolation: boot parameters, the boot root mask, worker kinds. */
#define _GNU_SOURCE
#include "isolate.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/macro.h"
#include "root.h"

/* The value of the last NAME= word of a command line, or NULL (malloc'ed). */
static char *last_param(const char *cmdline, const char *name)
{
	size_t nl = strlen(name);
	const char *p = cmdline, *val = NULL;
	size_t vl = 0;

	while (*p) {
		const char *w;

		while (*p && isspace((unsigned char)*p))
			p++;
		w = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if ((size_t)(p - w) > nl && !strncmp(w, name, nl) && w[nl] == '=') {
			val = w + nl + 1;
			vl = (size_t)(p - val);
		}
	}
	return val ? strndup(val, vl) : NULL;
}

int wq_boot_isolation_parse(const char *cmdline, struct wq_boot_isolation *b, char *why, size_t whysz)
{
	_cleanup_free_ char *iso = last_param(cmdline, "isolcpus");
	_cleanup_free_ char *nohz = last_param(cmdline, "nohz_full");
	_cleanup_free_ char *ucpus = last_param(cmdline, "workqueue.unbound_cpus");
	int r;

	memset(b, 0, sizeof(*b));
	b->domain = wq_cpuset_new();
	b->isolcpus = wq_cpuset_new();
	b->nohz_full = wq_cpuset_new();
	b->unbound_cpus = wq_cpuset_new();
	if (!b->domain || !b->isolcpus || !b->nohz_full || !b->unbound_cpus)
		return -ENOMEM;
	/* workqueue_unbound_cpus_setup(): a list cpulist_parse() refuses is dropped with a warning */
	if (ucpus && wq_cpuset_parse_list(b->unbound_cpus, ucpus) == 0 && !wq_cpuset_is_empty(b->unbound_cpus))
		b->has_unbound_cpus = true;
	if (iso) {
		/* isolcpus=[nohz,][domain,][managed_irq,]LIST (kernel/sched/isolation.c housekeeping_isolcpus_setup) */
		char *list = iso;
		bool domain = true, flagged = false;

		for (;;) {
			size_t l = strspn(list, "abcdefghijklmnopqrstuvwxyz_");

			if (l == 0 || list[l] != ',')
				break;
			if (!flagged)
				domain = false;
			flagged = true;
			if (l == 6 && !strncmp(list, "domain", 6))
				domain = true;
			snprintf(b->flags + strlen(b->flags), sizeof(b->flags) - strlen(b->flags), "%s%.*s",
				 b->flags[0] ? "," : "", (int)l, list);
			list += l + 1;
		}
		r = wq_cpuset_parse_list(b->isolcpus, list);
		if (r < 0) {
			snprintf(why, whysz, "isolcpus=%s: '%s' is not a CPU list", iso, list);
			return -EINVAL;
		}
		b->has_isolcpus = true;
		if (domain && (r = wq_cpuset_copy(b->domain, b->isolcpus)) < 0)
			return r;
	}
	if (nohz) {
		r = wq_cpuset_parse_list(b->nohz_full, nohz);
		if (r < 0) {
			snprintf(why, whysz, "nohz_full=%s: not a CPU list", nohz);
			return -EINVAL;
		}
		b->has_nohz_full = true;
	}
	return 0;
}

int wq_boot_isolation_read(struct wq_ctx *ctx, struct wq_boot_isolation *b, char *why, size_t whysz)
{
	_cleanup_free_ char *cmdline = NULL;
	int r = wq_root_read(ctx->root, WQ_P_CMDLINE, &cmdline);

	if (r < 0) {
		memset(b, 0, sizeof(*b));
		snprintf(why, whysz, "/" WQ_P_CMDLINE ": %s", wq_strerror(-r));
		return r;
	}
	return wq_boot_isolation_parse(cmdline, b, why, whysz);
}

bool wq_task_is_user(struct wq_ctx *ctx, int pid)
{
	char rel[64], buf[8];
	int r;

	if (pid <= 0)
		return false;
	snprintf(rel, sizeof(rel), "proc/%d/cmdline", pid);
	/* its arguments end in NULs, and may not fit: a command line all the same */
	r = wq_root_read_buf(ctx->root, rel, buf, sizeof(buf));
	return r > 0 || r == -WQ_ENUL || r == -EOVERFLOW;
}

void wq_boot_isolation_clear(struct wq_boot_isolation *b)
{
	wq_cpuset_free(b->domain);
	wq_cpuset_free(b->isolcpus);
	wq_cpuset_free(b->nohz_full);
	wq_cpuset_free(b->unbound_cpus);
	memset(b, 0, sizeof(*b));
}

/* restrict_unbound_cpumask(): AND with mask, or (6.7+) keep out when that leaves no CPU. */
static void restrict_root(struct wq_cpuset *out, const struct wq_cpuset *mask, bool skip_empty)
{
	if (skip_empty && !wq_cpuset_intersects(out, mask))
		return;
	wq_cpuset_and(out, mask);
}

int wq_boot_root_mask(const struct wq_kver *kv, const struct wq_topo *t, const struct wq_boot_isolation *b,
		      struct wq_cpuset *out)
{
	_cleanup_cpuset_ struct wq_cpuset *hk = wq_cpuset_dup(t->possible);
	bool skip_empty = !kv->known || wq_kver_cmp(kv, 6, 7, 0) >= 0;
	int r;

	if (!hk || (r = wq_cpuset_copy(out, t->possible)) < 0)
		return -ENOMEM;
	/* HK_TYPE_WQ: nohz_full= on a kernel that honours it (a tickless set reported) */
	if (wq_kver_nohz_restricts_root(kv) && b->has_nohz_full && !wq_cpuset_is_empty(t->nohz_full)) {
		wq_cpuset_andnot(hk, b->nohz_full);
		restrict_root(out, hk, skip_empty);
	}
	/* HK_TYPE_DOMAIN: what cpu/isolated reports */
	if ((r = wq_cpuset_copy(hk, t->possible)) < 0)
		return r;
	wq_cpuset_andnot(hk, t->isolated);
	restrict_root(out, hk, skip_empty);
	if (b->has_unbound_cpus && (!kv->known || wq_kver_cmp(kv, 6, 6, 0) >= 0))
		restrict_root(out, b->unbound_cpus, skip_empty);
	return 0;
}

enum wq_worker_kind wq_worker_kind(const char *comm, int *cpu)
{
	const char *p;
	char *end;
	long c;

	*cpu = -1;
	if (strncmp(comm, "kworker/", 8))
		return WQ_WORKER_OTHER;
	p = comm + 8;
	if (*p == 'u')
		return isdigit((unsigned char)p[1]) ? WQ_WORKER_UNBOUND : WQ_WORKER_OTHER;
	/* kworker/CPU:ID, H for a high-priority pool, a "-WQ" suffix naming the last workqueue */
	errno = 0;
	c = strtol(p, &end, 10);
	if (errno || end == p || *end != ':' || c < 0 || c > 65535)
		return WQ_WORKER_OTHER;
	*cpu = (int)c;
	return WQ_WORKER_PERCPU;
}
