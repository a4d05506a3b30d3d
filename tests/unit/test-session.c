// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * apply's sessions (src/lib/core/session.c) on a fixture root: which mode locks
 * before reading, that a udev event whose values already hold takes no lock
 * and writes no journal, what a change journals, and what a remove event
 * keeps and drops. Expected files and values follow from the profile and
 * the tree by hand: mktree.sh gives writeback nice 0 and max_active 1024.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/core/profile.h"
#include "lib/core/root.h"
#include "lib/core/session.h"
#include "tap.h"

static char top[] = "/tmp/test-session.XXXXXX";
static char tree[300], pdir[300];

static bool there(const char *rel)
{
	char p[600];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", tree, rel);
	return lstat(p, &st) == 0;
}

/* The text of a file below the tree ("" when there is none). */
static const char *text(const char *rel)
{
	static char buf[4096];
	char p[600];
	size_t n = 0;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", tree, rel);
	buf[0] = '\0';
	if ((f = fopen(p, "r"))) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static void put(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(s, f) < 0 || fclose(f) != 0)
		exit(2);
}

/* A fresh tree (6.18, one node of two CPUs) with nothing of wqctl's in it, and a fresh context. */
static struct wq_ctx *fresh(void)
{
	char cmd[900];
	struct wq_ctx *ctx;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && '%s/mktree.sh' synth:1:2:1:1 6.18 '%s' >/dev/null", tree,
		 WQ_FIXTURES, tree);
	if (system(cmd) != 0 || wq_ctx_new(tree, "6.18.0", &ctx) < 0)
		exit(2);
	return ctx;
}

/* One session of mode on wq with the profile p: its steps' results in r[3] (begin, resolve, commit; 99: not run). */
static void session(struct wq_ctx *ctx, enum wq_apply_mode mode, const char *wq, bool dry, int *lock_after_resolve,
		    int r[3])
{
	const char *dirs[] = {pdir};
	char *names[] = {"p"};
	struct wq_apply a = {.mode = mode, .wq = wq, .dry = dry};
	struct wq_pset set;

	r[0] = wq_apply_begin(ctx, &a);
	r[1] = r[2] = 99;
	*lock_after_resolve = -2;
	if (r[0] == WQ_APPLY_GO) {
		if (wq_pset_load(ctx, dirs, 1, names, 1, &set) < 0)
			exit(2);
		r[1] = wq_apply_resolve(ctx, &a, &set);
		*lock_after_resolve = a.lock;
		if (r[1] == 0 && !dry)
			r[2] = wq_apply_commit(ctx, &a);
		wq_pset_free(&set);
	}
	wq_apply_free(&a);
}

int main(void)
{
	struct wq_ctx *ctx;
	int lock, r[3];
	char p[600];

	if (!mkdtemp(top))
		return 2;
	snprintf(tree, sizeof(tree), "%s/t", top);
	snprintf(pdir, sizeof(pdir), "%s/p", top);
	mkdir(pdir, 0755);

	/* --- the values already hold: a udev event takes no lock, writes no journal --- */
	snprintf(p, sizeof(p), "%s/p.conf", pdir);
	put(p, "[workqueue writeback]\nnice = 0\n");
	ctx = fresh();
	session(ctx, WQ_APPLY_UDEV_ADD, "writeback", false, &lock, r);
	ok(r[0] == WQ_APPLY_GO && r[1] == 0 && r[2] == 0,
	   "udev add, nothing to change: begin, resolve, commit succeed");
	ok(lock == -1, "udev add: no lock while reading");
	ok(!there("run/wqctl/lock") && !there("run/wqctl/journal"),
	   "udev add with nothing to change: no lock file, no journal");
	wq_ctx_free(ctx);

	/* --- a person's apply of whole profiles reads under the lock --- */
	ctx = fresh();
	session(ctx, WQ_APPLY_ALL, NULL, false, &lock, r);
	ok(r[1] == 0 && lock >= 0, "apply: the lock taken before reading (fd %d)", lock);
	ok(there("run/wqctl/lock") && !there("run/wqctl/journal"),
	   "apply with nothing to change: the lock file, no journal");
	wq_ctx_free(ctx);

	ctx = fresh();
	session(ctx, WQ_APPLY_ALL, NULL, true, &lock, r);
	ok(r[1] == 0 && lock == -1 && !there("run/wqctl"), "apply --dry-run: no lock, nothing of wqctl's made");
	wq_ctx_free(ctx);

	/* --- a udev event that changes a value: the original journaled --- */
	put(p, "[workqueue writeback]\nnice = 5\n");
	ctx = fresh();
	session(ctx, WQ_APPLY_UDEV_ADD, "writeback", false, &lock, r);
	ok(r[2] == 0 && lock == -1, "udev add with a change: committed, no lock while reading");
	is_str(text("sys/devices/virtual/workqueue/writeback/nice"), "5\n", "writeback/nice written");
	is_str(text("run/wqctl/journal"), "sys/devices/virtual/workqueue/writeback/nice\t0\t0\t5\n",
	       "the journal: the path, type 0 (integer), the original 0, the value written 5");

	/* --- remove events --- */
	{
		struct wq_apply a = {.mode = WQ_APPLY_UDEV_REMOVE, .wq = "writeback"};

		ok(wq_apply_begin(ctx, &a) == WQ_APPLY_KEPT, "remove while the workqueue is there: kept");
		wq_apply_free(&a);
		ok(strstr(text("run/wqctl/journal"), "writeback/nice") != NULL, "its journal entry kept");
	}
	{
		struct wq_apply a = {.mode = WQ_APPLY_UDEV_REMOVE, .wq = "writeback"};
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/devices/virtual/workqueue/writeback'", tree);
		if (system(cmd) != 0)
			return 2;
		ok(wq_apply_begin(ctx, &a) == WQ_APPLY_DONE && a.dropped == 1,
		   "remove after the workqueue went: done, 1 entry dropped (%d)", a.dropped);
		wq_apply_free(&a);
		ok(!there("run/wqctl/journal"), "the journal, empty now, removed");
	}
	wq_ctx_free(ctx);
	{
		struct wq_apply a = {.mode = WQ_APPLY_UDEV_REMOVE, .wq = "gone"};

		ctx = fresh();
		ok(wq_apply_begin(ctx, &a) == WQ_APPLY_DONE && a.dropped == 0,
		   "remove of a workqueue never journaled: done");
		ok(!there("run/wqctl/lock"), "  and no lock taken for it");
		wq_apply_free(&a);
		wq_ctx_free(ctx);
	}

	/* --- what a request concerns --- */
	ctx = fresh();
	session(ctx, WQ_APPLY_WQ, "nosuch", false, &lock, r);
	ok(r[0] == WQ_APPLY_NO_WQ, "--workqueue naming no workqueue: NO_WQ");
	session(ctx, WQ_APPLY_UDEV_ADD, "nosuch", false, &lock, r);
	ok(r[0] == WQ_APPLY_DONE, "udev add of a workqueue gone again: done, exit 0");
	{
		struct wq_apply a = {
		    .mode = WQ_APPLY_UDEV_OWNER, .devpath = "/devices/virtual/block/loop9", .subsystem = "block"};

		ok(wq_apply_begin(ctx, &a) == WQ_APPLY_DONE && a.ntargets == 0,
		   "a block device without a dev attribute: not ours, done");
		wq_apply_free(&a);
	}
	{
		struct wq_apply a = {
		    .mode = WQ_APPLY_UDEV_OWNER, .devpath = "/devices/platform/host7x", .subsystem = "scsi_host"};

		ok(wq_apply_begin(ctx, &a) == -EINVAL, "a scsi_host event whose DEVPATH names no host: -EINVAL");
		wq_apply_free(&a);
	}
	{
		struct wq_apply a = {.mode = WQ_APPLY_UDEV_OWNER, .subsystem = "block"};
		struct wq_apply b = {.mode = WQ_APPLY_UDEV_ADD};
		struct wq_apply c = {.mode = WQ_APPLY_UDEV_REMOVE, .wq = "../etc"};

		ok(wq_apply_begin(ctx, &a) == -EINVAL, "an owner event without DEVPATH: -EINVAL, no crash");
		ok(wq_apply_begin(ctx, &b) == -EINVAL, "a udev add without a workqueue: -EINVAL");
		ok(wq_apply_begin(ctx, &c) == -EINVAL && !there("run/wqctl"),
		   "a remove naming '../etc': -EINVAL, nothing of wqctl's made");
		wq_apply_free(&a);
		wq_apply_free(&b);
		wq_apply_free(&c);
	}
	wq_ctx_free(ctx);

	snprintf(p, sizeof(p), "rm -rf '%s'", top);
	if (system(p) != 0)
		return 2;
	return tap_done();
}
