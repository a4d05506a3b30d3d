// SPDX-License-Identifier: GPL-2.0-or-later
/* check: findings about workqueue settings and the global knobs on this kernel and topology. */
#define _GNU_SOURCE
#include "check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolate.h"
#include "../util/macro.h"
#include "mountopt.h"
#include "ownerknob.h"

static void emit(wq_finding_fn fn, void *data, enum wq_severity sev, const char *code, const char *target,
		 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void emit(wq_finding_fn fn, void *data, enum wq_severity sev, const char *code, const char *target,
		 const char *fmt, ...)
{
	struct wq_finding f = {.severity = sev, .code = code};
	va_list ap;

	snprintf(f.target, sizeof(f.target), "%s", target);
	va_start(ap, fmt);
	vsnprintf(f.message, sizeof(f.message), fmt, ap);
	va_end(ap);
	fn(data, &f);
}

static char *list(const struct wq_cpuset *s)
{
	char *l = wq_cpuset_format_list(s);

	return l ? l : strdup("?");
}

enum { M_NO_ONLINE = 1, M_OFFLINE = 2, M_ISOLATED = 4, M_IGNORED = 8, M_CHECKED = 16 };

/* The last mask checked, the root mask then and its findings, held (most workqueues share one mask). */
struct checked {
	struct wq_cpuset *mask, *root;
	unsigned int flags;
};

static void checked_release(void *data)
{
	struct checked *ck = data;

	if (ck) {
		wq_cpuset_free(ck->mask);
		wq_cpuset_free(ck->root);
	}
	free(ck);
}

static const struct wq_ctx_cache checked_key = {checked_release, false};

/*
 * Which of check_mask()'s findings a mask has, tests without copies: w as
 * written (offline CPUs it asks for), e the CPUs the kernel uses for it
 * (w within the root mask, or the root mask: wq_effective_cpus), which
 * decide whether it has an online CPU and whether it reaches isolated ones.
 */
static unsigned int mask_flags(const struct wq_topo *t, const struct wq_cpuset *w, const struct wq_cpuset *e)
{
	unsigned int f = M_CHECKED;

	if (!wq_cpuset_intersects(e, t->online))
		return f | M_NO_ONLINE;
	/* A mask of every possible CPU is the default, not a request for offline ones. */
	if (!wq_cpuset_subset(w, t->online) && !wq_cpuset_subset(t->possible, w))
		f |= M_OFFLINE;
	if (wq_cpuset_intersects(e, t->isolated) || wq_cpuset_intersects(e, t->nohz_full))
		f |= M_ISOLATED;
	return f;
}

/* ", the cpumask W within the root unbound cpumask," where e is not w: what the kernel uses, said so */
static void eff_words(char *buf, size_t size, const struct wq_cpuset *w, const struct wq_cpuset *e)
{
	_cleanup_free_ char *wl = NULL;

	buf[0] = '\0';
	if (w == e || wq_cpuset_equal(w, e))
		return;
	wl = list(w);
	snprintf(buf, size, " (effective: the cpumask %s within the root unbound cpumask)", wl);
}

/* CPU findings for a mask w and its effective e: no online CPU, offline CPUs, isolated CPUs. flags: mask_flags(), or 0 to work them out. */
static void check_mask(struct wq_topo *t, const char *target, const struct wq_cpuset *w, const struct wq_cpuset *e,
		       unsigned int flags, wq_finding_fn fn, void *data, bool *no_online)
{
	char eff[160];

	if (!flags)
		flags = mask_flags(t, w, e);
	*no_online = flags & M_NO_ONLINE;
	if (*no_online) {
		_cleanup_free_ char *l = list(e);
		_cleanup_free_ char *o = list(t->online);

		eff_words(eff, sizeof(eff), w, e);
		emit(fn, data, WQ_SEV_ERROR, "cpumask-no-online-cpu", target,
		     "cpumask %s%s has no online CPU (online: %s)", l, eff, o);
		return;
	}
	if (flags & M_OFFLINE) {
		_cleanup_cpuset_ struct wq_cpuset *x = wq_cpuset_dup(w);
		_cleanup_free_ char *l = NULL;

		if (x) {
			wq_cpuset_andnot(x, t->online);
			l = list(x);
		}
		emit(fn, data, WQ_SEV_INFO, "cpumask-offline", target,
		     "cpumask includes offline CPUs %s: unused until they come online", l ? l : "?");
	}
	if (flags & M_ISOLATED) {
		_cleanup_cpuset_ struct wq_cpuset *x = wq_cpuset_dup(t->isolated);
		_cleanup_free_ char *l = NULL, *el = list(e);

		if (x) {
			wq_cpuset_or(x, t->nohz_full);
			wq_cpuset_and(x, e);
			l = list(x);
		}
		eff_words(eff, sizeof(eff), w, e);
		emit(fn, data, WQ_SEV_WARNING, "cpumask-isolated", target,
		     "cpumask %s%s includes isolated or nohz_full CPUs %s: unbound work will disturb them", el, eff,
		     l ? l : "?");
	}
}

struct btrfs_check {
	wq_finding_fn fn;
	void *data;
	unsigned int cpus;
};

static void check_one_btrfs(const struct wq_btrfs_mount *m, void *data)
{
	const struct btrfs_check *b = data;

	if (m->thread_pool <= 0)
		return;
	/* thread_pool=1, the fewest it takes: nothing to suggest here but a newer kernel */
	if (m->thread_pool == 1) {
		emit(b->fn, b->data, WQ_SEV_INFO, "btrfs-max-active-per-cpu", m->dir,
		     "btrfs (%s): thread_pool 1%s is max_active of its workqueues, which 6.6-6.8 apply per CPU: up "
		     "to %u work items in flight each, the fewest this kernel allows; 6.9 and later make it one "
		     "system-wide limit",
		     m->dev, m->given ? "" : " (the default)", b->cpus);
		return;
	}
	emit(b->fn, b->data, WQ_SEV_WARNING, "btrfs-max-active-per-cpu", m->dir,
	     "btrfs (%s): thread_pool %d%s is max_active of its workqueues, which 6.6-6.8 apply per CPU: up "
	     "to %d x %u = %ld work items in flight each; upgrade to 6.9 or later (one system-wide limit), "
	     "or 'mount -o remount,thread_pool=1 %s' (%u in flight each; thread_pool=1 among its options "
	     "in /etc/fstab keeps it after a reboot)",
	     m->dev, m->thread_pool, m->given ? "" : " (the default)", m->thread_pool, b->cpus,
	     (long)m->thread_pool * b->cpus, m->dir, b->cpus);
}

/*
 * Owners whose workqueues are outside sysfs but whose own knob multiplies on
 * 6.6-6.8: btrfs's thread_pool is max_active of its workqueues, per CPU there.
 */
static void check_btrfs(struct wq_ctx *ctx, wq_finding_fn fn, void *data)
{
	struct btrfs_check b = {.fn = fn, .data = data};
	struct wq_topo *t;
	const char *why;

	if (wq_ctx_era(ctx, &why) != WQ_ERA_B || !(t = wq_ctx_topo(ctx)))
		return;
	b.cpus = wq_cpuset_count(t->online);
	wq_btrfs_mounts(ctx, check_one_btrfs, &b);
}

/* --kernel names another kernel than the one whose default m is (and whose default differs). */
static bool what_if_default(struct wq_ctx *ctx, int m)
{
	const int host = wq_kver_dfl_active(&ctx->host_kver);

	return ctx->kver_source && !strcmp(ctx->kver_source, "--kernel") && ctx->host_kver.known && host && m == host &&
	       host != wq_kver_dfl_active(&ctx->kver);
}

/* A cpumask file below the workqueue directory (cpumask_isolated, ...): 0, or -errno when absent or unreadable. */
static int read_wq_mask(struct wq_ctx *ctx, const char *name, struct wq_cpuset *out)
{
	_cleanup_free_ char *raw = NULL;
	char rel[96];
	int r;

	snprintf(rel, sizeof(rel), WQ_P_WQ "/%s", name);
	if ((r = wq_root_read(ctx->root, rel, &raw)) < 0)
		return r;
	return wq_cpuset_parse_hex(out, raw);
}

/*
 * The root unbound cpumask against the CPUs kept from unbound work: on 7.0+
 * the nohz_full= CPUs the kernel itself leaves in it, and (6.8+) the CPUs of
 * cpuset isolated partitions, which cpumask_isolated lists beside the
 * isolcpus= ones (those from the 6.16 fix on, or 7.0 on).
 */
static void check_root_isolation(struct wq_ctx *ctx, struct wq_topo *t, const struct wq_boot_isolation *b,
				 wq_finding_fn fn, void *data)
{
	_cleanup_cpuset_ struct wq_cpuset *boot = wq_cpuset_new();
	_cleanup_cpuset_ struct wq_cpuset *x = wq_cpuset_new();
	const struct wq_cpuset *g;
	int r;

	/* the root mask as the context holds it (read once for every check), not a copy */
	if (!boot || !x || wq_root_cpumask_get(ctx, &g) < 0 || wq_boot_root_mask(&ctx->kver, t, b, boot) < 0)
		return;
	/* nohz_full CPUs in the root mask that the kernel's own boot rule put there */
	if (!wq_kver_nohz_restricts_root(&ctx->kver) && ctx->kver.known && wq_cpuset_copy(x, t->nohz_full) == 0) {
		wq_cpuset_andnot(x, t->isolated);
		wq_cpuset_and(x, boot);
		wq_cpuset_and(x, g);
		if (!wq_cpuset_is_empty(x)) {
			_cleanup_free_ char *l = list(x);

			emit(
			    fn, data, WQ_SEV_WARNING, "nohz-full-unbound", "cpumask",
			    "since 7.0 nohz_full= alone no longer keeps unbound work off CPUs %s: the kernel left them "
			    "in the root cpumask; add isolcpus=domain,%s to the kernel command line, or run 'wqctl "
			    "knob cpumask=housekeeping' (the cpu-partitioning profile does)",
			    l, l);
		}
	}
	/* CPUs of isolated cpuset partitions: cpumask_isolated less the isolcpus= ones */
	r = read_wq_mask(ctx, "cpumask_isolated", x);
	if (r == 0 && !wq_cpuset_subset(x, t->possible)) {
		/* the kernel lists possible CPUs only: a file that says otherwise is not the kernel's */
		_cleanup_free_ char *l = list(x);
		_cleanup_free_ char *p = list(t->possible);

		emit(fn, data, WQ_SEV_ERROR, "bad-file", "cpumask_isolated",
		     "cpumask_isolated lists CPUs that are not possible (%s; possible: %s): not judged", l, p);
	} else if (r == 0) {
		wq_cpuset_andnot(x, t->isolated);
		if (!wq_cpuset_is_empty(x)) {
			_cleanup_free_ char *l = list(x);

			emit(fn, data, WQ_SEV_INFO, "cpuset-isolated", "cpumask_isolated",
			     "CPUs %s are in isolated cpuset partitions: the kernel removed them from the root "
			     "cpumask when the partitions were made",
			     l);
			wq_cpuset_and(x, g);
			if (!wq_cpuset_is_empty(x)) {
				_cleanup_free_ char *i = list(x);

				emit(fn, data, WQ_SEV_WARNING, "cpumask-in-partition", "cpumask",
				     "the root cpumask includes CPUs %s of isolated cpuset partitions: a write to "
				     "cpumask is taken as it is, and the kernel leaves those CPUs out again only when "
				     "a partition changes",
				     i);
			}
		}
	}
}

/*
 * The isolation the boot parameters ask for against what the kernel
 * reports (cpu/isolated, cpu/nohz_full), and so against what
 * 'housekeeping' means to wqctl (online CPUs less both).
 */
static void check_boot_isolation(struct wq_ctx *ctx, struct wq_topo *t, wq_finding_fn fn, void *data)
{
	struct wq_boot_isolation b;
	_cleanup_cpuset_ struct wq_cpuset *hk = wq_cpuset_new();
	_cleanup_cpuset_ struct wq_cpuset *want = NULL;
	char why[300];

	if (wq_boot_isolation_read(ctx, &b, why, sizeof(why)) < 0) {
		if (b.domain && strstr(why, "CPU list"))
			emit(fn, data, WQ_SEV_WARNING, "isolation-cmdline", "cmdline", "%s: the kernel ignores it",
			     why);
		wq_boot_isolation_clear(&b);
		return;
	}
	if (!hk || !(want = wq_cpuset_dup(t->online)))
		goto out;
	if (b.has_isolcpus && !wq_cpuset_equal(b.domain, t->isolated)) {
		_cleanup_free_ char *a = list(b.isolcpus);
		_cleanup_free_ char *d = list(b.domain);
		_cleanup_free_ char *i = list(t->isolated);

		emit(fn, data, WQ_SEV_WARNING, "isolation-mismatch", "isolated",
		     "isolcpus=%s%s%s isolates %s from the scheduler domains, but the kernel reports isolated CPUs "
		     "'%s'",
		     b.flags, b.flags[0] ? "," : "", a, wq_cpuset_is_empty(b.domain) ? "none" : d,
		     wq_cpuset_is_empty(t->isolated) ? "" : i);
	}
	if (b.has_nohz_full && !wq_cpuset_equal(b.nohz_full, t->nohz_full)) {
		_cleanup_free_ char *w = list(b.nohz_full);
		_cleanup_free_ char *k = list(t->nohz_full);

		emit(fn, data, WQ_SEV_WARNING, "isolation-mismatch", "nohz_full",
		     "nohz_full=%s is on the command line, but the kernel runs '%s' tickless (a kernel without "
		     "CONFIG_NO_HZ_FULL ignores it)",
		     w, wq_cpuset_is_empty(t->nohz_full) ? "" : k);
	}
	/* housekeeping as the boot parameters imply it, against wqctl's */
	wq_cpuset_andnot(want, b.domain);
	wq_cpuset_andnot(want, b.nohz_full);
	if (wq_topo_housekeeping(t, hk) == 0 && !wq_cpuset_equal(hk, want) && !wq_cpuset_is_empty(want)) {
		_cleanup_free_ char *h = list(hk);
		_cleanup_free_ char *w = list(want);

		emit(fn, data, WQ_SEV_WARNING, "housekeeping-mismatch", "housekeeping",
		     "'housekeeping' is %s here (online CPUs less the kernel's isolated and nohz_full ones), but "
		     "the boot parameters imply %s: cpumask=housekeeping follows the kernel's view",
		     h, w);
	}
	check_root_isolation(ctx, t, &b, fn, data);
out:
	wq_boot_isolation_clear(&b);
}

int wq_check_globals(struct wq_ctx *ctx, const struct wq_cpuset *root_override, wq_finding_fn fn, void *data)
{
	struct wq_topo *t = wq_ctx_topo(ctx);
	_cleanup_cpuset_ struct wq_cpuset *g = wq_cpuset_new();
	bool none;
	int r;

	if (!t || !g)
		return -EIO;
	if (root_override)
		r = wq_cpuset_copy(g, root_override);
	else
		r = wq_root_cpumask(ctx, g);
	if (r < 0)
		return r;
	check_mask(t, "cpumask", g, g, 0, fn, data, &none);
	if (!root_override) {
		const char *why;
		const int dfl = wq_kver_dfl_active(&ctx->kver);

		check_btrfs(ctx, fn, data);
		check_boot_isolation(ctx, t, fn, data);
		/*
		 * The kernel's own rule, said once: each workqueue left at the
		 * default would otherwise repeat it (and fail --strict out of the
		 * box on every 6.6-6.8 host); values set away from it are named
		 * per workqueue.
		 */
		if (wq_ctx_era(ctx, &why) == WQ_ERA_B && dfl > 0)
			emit(fn, data, WQ_SEV_INFO, "max-active-per-cpu", "kernel",
			     "max_active applies per CPU on 6.6-6.8: an unbound workqueue at this kernel's default %d "
			     "may run %d items on each CPU of its mask (up to %ld on the %u online); only values set "
			     "away from %d are named",
			     dfl, dfl, (long)dfl * wq_cpuset_count(t->online), wq_cpuset_count(t->online), dfl);
	}
	return 0;
}

/*
 * Does scope s group the online CPUs as the cpu scope does (each CPU alone)
 * or as the one pod of every CPU does? Counted off s's own pods, which hold
 * each CPU at most once: the cpu and system pods need not be built (8,192
 * one-CPU pods on the largest machines), nor s's CPU-to-pod table (16 KB
 * there). Only online CPUs count: offline CPUs' pods are not known from
 * sysfs.
 */
static bool pods_same_uncached(const struct wq_topo *t, int s, int o)
{
	const struct wq_pods *p = &t->pods[s];
	unsigned int online = wq_cpuset_count(t->online), in_pods = 0;

	if (o != WQ_SCOPE_CPU && o != WQ_SCOPE_SYSTEM) {
		/*
		 * A finer scope's pods split the coarser one's (cache_shard
		 * splits cache): the same on the online CPUs when as many of
		 * each hold one.
		 */
		unsigned int fine = 0, coarse = 0;

		for (int i = 0; i < p->nr; i++)
			fine += wq_cpuset_intersects(p->pod[i].cpus, t->online);
		for (int i = 0; i < t->pods[o].nr; i++)
			coarse += wq_cpuset_intersects(t->pods[o].pod[i].cpus, t->online);
		return fine == coarse;
	}
	for (int i = 0; i < p->nr; i++) {
		unsigned int n = wq_cpuset_count_and(p->pod[i].cpus, t->online);

		if (o == WQ_SCOPE_CPU && n > 1)
			return false; /* two online CPUs share a pod */
		if (o == WQ_SCOPE_SYSTEM && n && n != online)
			return false; /* the online CPUs are in two pods, or some in none */
		in_pods += n;
	}
	return in_pods == online; /* a CPU in no pod of s has its own pod in cpu and system */
}

/* Are scope s's pods the same as scope o's on the online CPUs? Once per topology: it is asked for every workqueue. */
static bool pods_same(struct wq_topo *t, int s, int o)
{
	if (!t->scope_same[s])
		t->scope_same[s] = pods_same_uncached(t, s, o) ? 1 : 2;
	return t->scope_same[s] == 1;
}

int wq_check_wq(struct wq_ctx *ctx, const struct wq_info *wq, const struct wq_whatif *wi, wq_finding_fn fn, void *data)
{
	struct wq_topo *t = wq_ctx_topo(ctx);
	const char *name = wq->name;
	int m = wi && wi->max_active > 0 ? wi->max_active : wq->max_active;
	const char *why;
	enum wq_era era;
	struct wq_explain ex;
	int lim, r;

	if (!t)
		return -EIO;
	era = wq_ctx_era(ctx, &why);
	lim = wq_max_active_limit(ctx, wq->unbound);
	/*
	 * A what-if (--kernel) reads values the running kernel set: a max_active
	 * at its default (WQ_DFL_ACTIVE) is one the named kernel would have set
	 * to its own default, so what it says of it is no finding of this setup
	 */
	if (lim && m > lim && what_if_default(ctx, m))
		emit(fn, data, WQ_SEV_INFO, "what-if-default", name,
		     "max_active %d is the default of the kernel these values come from (%s); %s would have "
		     "created it with its own, %d (above its limit %d here only because of that)",
		     m, ctx->host_kver.release, ctx->kver.release, wq_kver_dfl_active(&ctx->kver), lim);
	else if (lim && m > lim)
		emit(fn, data, WQ_SEV_ERROR, "max-active-out-of-range", name,
		     "max_active %d is above %d, the most this kernel (%s) accepts: it clamps to %d", m, lim,
		     ctx->kver.release, lim);
	if (m < 1)
		emit(fn, data, WQ_SEV_ERROR, "max-active-out-of-range", name, "max_active %d is below 1", m);

	if (!wq->unbound) {
		if (wi && (wi->cpus || wi->scope))
			emit(fn, data, WQ_SEV_ERROR, "percpu-not-steerable", name,
			     "per-cpu workqueue: it has no cpumask or affinity scope to set");
		else
			emit(fn, data, WQ_SEV_INFO, "percpu-not-steerable", name,
			     "per-cpu workqueue: work runs on the CPU that queues it; only max_active can be tuned");
		return 0;
	}

	/* Masks: requested vs online, isolation and the root mask. */
	{
		const struct wq_cpuset *w = wi && wi->cpus ? wi->cpus : wq->cpumask;
		const struct wq_cpuset *g;
		_cleanup_cpuset_ struct wq_cpuset *e = NULL; /* the CPUs the kernel uses, when a finding needs them */
		bool none = false;

		if (w && wq_root_cpumask_get(ctx, &g) == 0) {
			struct checked *ck = wq_ctx_cache_get(ctx, &checked_key);
			unsigned int f = ck && ck->mask == w && ck->root == g ? ck->flags : 0;

			/*
			 * Most workqueues share one mask (wq_info_read): its findings are
			 * worked out once, held with the mask and the root mask they were
			 * for, so that neither address can come back as another set.
			 */
			if (!f) {
				e = wq_cpuset_new();
				if (!e || wq_effective_cpus(ctx, w, e) < 0)
					return -ENOMEM;
			}
			if (!f) {
				f = mask_flags(t, w, e) | (wq_cpuset_intersects(w, g) ? 0 : M_IGNORED);
				if (w->refs && (ck || ((ck = calloc(1, sizeof(*ck))) &&
						       wq_ctx_cache_set(ctx, &checked_key, ck) == 0))) {
					wq_cpuset_free(ck->mask);
					wq_cpuset_free(ck->root);
					/* read only for all their holders: one more changes only the count */
					ck->mask = wq_cpuset_ref((struct wq_cpuset *)w);
					ck->root = wq_cpuset_ref((struct wq_cpuset *)g);
					ck->flags = f;
				}
			}
			if (!e && (f & (M_NO_ONLINE | M_ISOLATED))) {
				e = wq_cpuset_new();
				if (!e || wq_effective_cpus(ctx, w, e) < 0)
					return -ENOMEM;
			}
			check_mask(t, name, w, e ? e : w, f, fn, data, &none);
			if (!none && (f & M_IGNORED)) {
				_cleanup_free_ char *wl = list(w);
				_cleanup_free_ char *gl = list(g);

				emit(fn, data, WQ_SEV_WARNING, "cpumask-ignored", name,
				     "cpumask %s misses the root unbound cpumask %s: the kernel silently uses %s", wl,
				     gl, gl);
			}
		}
	}

	/* A scope that cannot change anything on this topology. */
	{
		const char *scope = wi && wi->scope ? wi->scope : wq->scope;
		int s = scope ? wq_scope_from_name(scope) : -1;

		/* smt, cache and numa, each against cpu or system: only s's own pods are built */
		if ((s == WQ_SCOPE_SMT || s == WQ_SCOPE_CACHE || s == WQ_SCOPE_NUMA) && wq_ctx_topo_pods(ctx, s)) {
			const char *same = NULL;

			if (s == WQ_SCOPE_SMT && pods_same(t, WQ_SCOPE_SMT, WQ_SCOPE_CPU))
				same = "there is no SMT: every smt pod is one CPU, as with cpu";
			else if (s == WQ_SCOPE_NUMA && pods_same(t, WQ_SCOPE_NUMA, WQ_SCOPE_SYSTEM))
				same = "there is one NUMA node: numa is the same as system";
			else if (s == WQ_SCOPE_CACHE && pods_same(t, WQ_SCOPE_CACHE, WQ_SCOPE_SYSTEM))
				same = "all CPUs share one last-level cache: cache is the same as system";
			if (same)
				emit(fn, data, WQ_SEV_INFO, "scope-no-effect", name, "affinity_scope %s: %s", scope,
				     same);
		}
		/* cache_shard against cache (its pods build cache's too) */
		if (s == WQ_SCOPE_CACHE_SHARD && wq_ctx_topo_pods(ctx, s) &&
		    pods_same(t, WQ_SCOPE_CACHE_SHARD, WQ_SCOPE_CACHE))
			emit(fn, data, WQ_SEV_INFO, "scope-no-effect", name,
			     "affinity_scope %s: with cache_shard_size %u each last-level cache is a single shard: "
			     "cache_shard is the same as cache",
			     scope, wq_topo_cache_shard_size(t));
	}

	r = wq_explain_figures(ctx, wq, wi, &ex);
	if (r < 0) {
		wq_explain_clear(&ex);
		return r;
	}
	if (ex.ordered) {
		emit(fn, data, WQ_SEV_WARNING, "ordering-lost", name,
		     "created unbound with max_active 1 on a kernel up to 6.8: implicitly ordered; writing "
		     "max_active removes the ordering");
	} else if (ex.max_inflight > 0) {
		/* a what-if's default value: the named kernel's own default would multiply instead */
		const bool wif = what_if_default(ctx, m);
		char tail[256] = "";

		if (wif)
			snprintf(tail, sizeof(tail), " (a what-if: %d is %s's default; %s would have set its own, %d)",
				 m, ctx->host_kver.release, ctx->kver.release, wq_kver_dfl_active(&ctx->kver));
		/* at the kernel's own default: said once, by the kernel finding (wq_check_globals) */
		if (era == WQ_ERA_B && ex.max_inflight > m && (wif || m != wq_kver_dfl_active(&ctx->kver)))
			emit(fn, data, wif ? WQ_SEV_INFO : WQ_SEV_WARNING, "max-active-per-cpu", name,
			     "max_active %d applies per CPU on 6.6-6.8: up to %ld work items in flight%s", m,
			     ex.max_inflight, tail);
		if (era == WQ_ERA_A && ex.max_inflight > m)
			emit(fn, data, wif ? WQ_SEV_INFO : WQ_SEV_WARNING, "max-active-per-node", name,
			     "max_active %d applies per NUMA node pool up to 6.5: up to %ld work items in flight%s", m,
			     ex.max_inflight, tail);
		if (era == WQ_ERA_C && ex.max_inflight > m)
			emit(fn, data, WQ_SEV_INFO, "min-active-floor", name,
			     "per-node split with min_active %d allows %ld in flight, more than max_active %d",
			     ex.min_active, ex.max_inflight, m);
	}
	if (era == WQ_ERA_C && ex.min_lowered) {
		emit(fn, data, WQ_SEV_WARNING, "min-active-lowered", name,
		     "min_active is %d since wqctl wrote max_active %d: the per-node floor is %d, not 8, until the "
		     "workqueue is recreated",
		     ex.min_active, ex.min_active, ex.min_active);
	} else if (era == WQ_ERA_C && m < 8) {
		if (wi && wi->max_active > 0 && wi->max_active < wq->max_active)
			emit(fn, data, WQ_SEV_WARNING, "min-active-lowered", name,
			     "writing max_active %d lowers the hidden min_active to %d for good (kernel >= 6.9)", m, m);
		else
			emit(fn, data, WQ_SEV_INFO, "min-active-lowered", name,
			     "max_active %d is below 8: min_active is at most %d and stays so (kernel >= 6.9)", m, m);
	}
	wq_explain_clear(&ex);
	return 0;
}
