// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wqctl apply: a profile set onto the running system, transactionally (also the udev and boot
 * entry points).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/macro.h"
#include "../lib/state.h"
#include "../lib/owner.h"
#include "../lib/wq.h"
#include "cli.h"
#include "json.h"
#include "plan_out.h"
#include "profiles.h"

#define UDEV_LOCK_WAIT_MS 3000
#define UDEV_MAX 4096

enum { UDEV_NONE, UDEV_WQ, UDEV_OWNER, UDEV_WQ_GONE };

/*
 * What a udev event names, from ACTION, DEVPATH and SUBSYSTEM: UDEV_WQ with
 * the workqueue in wq, UDEV_WQ_GONE for its removal, UDEV_OWNER for an
 * owner device (wq holds its subsystem), UDEV_NONE when the event is not
 * ours, -EINVAL for a malformed or hostile environment.
 */
static int udev_target(char *wq, size_t size, char *why, size_t whysz)
{
	const char *action = getenv("ACTION"), *devpath = getenv("DEVPATH"), *subsys = getenv("SUBSYSTEM");
	static const char prefix[] = "/devices/virtual/workqueue/";
	const char *name;
	bool gone;

	if (!action || !devpath || !subsys) {
		snprintf(why, whysz, "ACTION, DEVPATH and SUBSYSTEM must be set");
		return -EINVAL;
	}
	if (strlen(action) > 32 || strlen(subsys) > 64 || strlen(devpath) > UDEV_MAX) {
		snprintf(why, whysz, "overlong udev variable");
		return -EINVAL;
	}
	for (const char *p = devpath; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			snprintf(why, whysz, "DEVPATH has control characters");
			return -EINVAL;
		}
	}
	if (!wq_path_is_canonical(devpath)) {
		snprintf(why, whysz, "DEVPATH '%.80s' is not a canonical device path", devpath);
		return -EINVAL;
	}
	gone = !strcmp(action, "remove");
	if (strcmp(action, "add") && strcmp(action, "change") && !gone)
		return UDEV_NONE;
	/*
	 * An owner device: the caller maps it to its workqueues. A SCSI target
	 * appears when an iSCSI session has logged in, so its host's connection
	 * (and the NIC that carries it) is known only from then on.
	 */
	if (!gone && (!strcmp(subsys, "block") || !strcmp(subsys, "scsi_host") || !strcmp(subsys, "scsi"))) {
		if (strncmp(devpath, "/devices/", 9)) {
			snprintf(why, whysz, "DEVPATH '%.80s' is not below /devices", devpath);
			return -EINVAL;
		}
		snprintf(wq, size, "%.16s", subsys);
		return UDEV_OWNER;
	}
	if (strcmp(subsys, "workqueue"))
		return UDEV_NONE;
	if (strncmp(devpath, prefix, sizeof(prefix) - 1)) {
		snprintf(why, whysz, "DEVPATH '%.80s' is outside /devices/virtual/workqueue", devpath);
		return -EINVAL;
	}
	name = devpath + sizeof(prefix) - 1;
	if (!wq_name_is_valid(name) || strlen(name) >= size) {
		snprintf(why, whysz, "DEVPATH '%.80s' does not name a workqueue", devpath);
		return -EINVAL;
	}
	snprintf(wq, size, "%s", name);
	return gone ? UDEV_WQ_GONE : UDEV_WQ;
}

/*
 * The workqueues an owner-device event concerns: a block device's MAJ:MIN
 * (from DEVPATH/dev) or a SCSI host's hostN, matched against the owner each
 * workqueue name maps to. 0 with *out (may be empty), or -EINVAL.
 */
static int owned_workqueues(struct cli *cli, const char *subsys, char ***out, size_t *nout)
{
	const char *devpath = getenv("DEVPATH"), *base = strrchr(devpath, '/') + 1;
	struct wq_owner want = {.kind = !strcmp(subsys, "block") ? WQ_OWNER_BLOCK : WQ_OWNER_SCSI_HOST};
	char **names = NULL, **v;
	size_t n = 0, cnt = 0;

	*out = NULL;
	*nout = 0;
	if (want.kind == WQ_OWNER_BLOCK) {
		char path[4200], buf[32];
		unsigned int mm[2];

		snprintf(path, sizeof(path), "sys%s/dev", devpath);
		if (wq_root_read_buf(cli->ctx->root, path, buf, sizeof(buf)) < 0)
			return 0; /* no dev attribute: not a device of ours */
		if (wq_parse_ids(buf, ":", mm, 2) < 0)
			return -EINVAL;
		snprintf(want.id, sizeof(want.id), "%u:%u", mm[0], mm[1]);
	} else if (!strcmp(subsys, "scsi")) {
		unsigned int hct[3];

		/* only a target (targetH:C:T) says its host's session is up; LUNs follow it */
		if (strncmp(base, "target", 6) || wq_parse_ids(base + 6, "::", hct, 3) < 0)
			return 0;
		want.kind = WQ_OWNER_SCSI_HOST;
		snprintf(want.id, sizeof(want.id), "host%u", hct[0]);
	} else {
		unsigned int h;

		if (strncmp(base, "host", 4) || wq_parse_ids(base + 4, "", &h, 1) < 0)
			return -EINVAL;
		snprintf(want.id, sizeof(want.id), "host%u", h);
	}
	if (wq_list(cli->ctx, &names, &n) < 0)
		return 0;
	v = calloc(n + 1, sizeof(*v));
	for (size_t i = 0; v && i < n; i++) {
		struct wq_owner o;

		wq_owner_from_name(names[i], &o);
		if (o.kind == want.kind && !strcmp(o.id, want.id)) {
			v[cnt++] = names[i];
			names[i] = NULL;
		}
	}
	wq_names_free(names, n);
	*out = v;
	*nout = cnt;
	return v ? 0 : -ENOMEM;
}

/* The workqueues of a skipped group: the first three, and how many more. */
static void skip_wqs(char *buf, size_t len, const struct wq_skip *g)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < g->nwqs && i < 3 && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", g->wqs[i]);
	if (g->nwqs > 3 && at < len)
		snprintf(buf + at, len - at, " and %zu more", g->nwqs - 3);
}

/*
 * What the apply left out, one line per profile line and reason: a section
 * that reached no workqueue (with what to change instead, for an owner's
 * workqueues outside sysfs), an attribute some workqueues lack, a profile
 * whose 'kernels' excludes this kernel.
 */
static void report_skips(const struct wq_skips *k)
{
	for (size_t i = 0; i < k->n; i++) {
		const struct wq_skip *g = &k->v[i];
		char wqs[256];

		if (wq_conds[g->cond].severity != WQ_SEV_INFO)
			continue; /* said as a warning already (cli_report_settings) */
		if (g->section) {
			printf("skipped: %s:%d: [workqueue %s]: %s\n", g->file, g->line, g->what, g->why);
		} else {
			skip_wqs(wqs, sizeof(wqs), g);
			printf("skipped: %s:%d: %s%s%s: %s\n", g->file, g->line, g->what, g->nwqs ? " on " : "", wqs,
			       g->why);
		}
		for (const char *l = g->owner_why; l && *l;) {
			size_t n = strcspn(l, "\n");

			printf("  %s: %.*s\n", g->what, (int)n, l);
			l += n + (l[n] == '\n');
		}
	}
}

static json_object *json_skips(const struct wq_skips *k)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < k->n; i++) {
		const struct wq_skip *g = &k->v[i];
		json_object *x = json_object_new_object(), *w = json_object_new_array(), *in = NULL;

		json_object_object_add(x, "file", json_object_new_string(g->file));
		json_object_object_add(x, "line", json_object_new_int(g->line));
		json_object_object_add(x, "section", g->section ? json_object_new_string(g->what) : NULL);
		json_object_object_add(x, "attribute", g->section ? NULL : json_object_new_string(g->what));
		json_object_object_add(x, "status", json_object_new_string(wq_conds[g->cond].status));
		json_object_object_add(x, "condition", json_object_new_string(wq_conds[g->cond].code));
		json_object_object_add(x, "severity",
				       json_object_new_string(wq_severity_name(wq_conds[g->cond].severity)));
		json_object_object_add(x, "why", json_object_new_string(g->why));
		for (size_t j = 0; j < g->nwqs; j++)
			json_object_array_add(w, json_object_new_string(g->wqs[j]));
		json_object_object_add(x, "workqueues", w);
		for (const char *l = g->owner_why; l && *l;) {
			size_t n = strcspn(l, "\n");
			char line[1024];

			if (!in)
				in = json_object_new_array();
			snprintf(line, sizeof(line), "%.*s", (int)n, l);
			json_object_array_add(in, json_object_new_string(line));
			l += n + (l[n] == '\n');
		}
		json_object_object_add(x, "instead", in);
		json_object_array_add(a, x);
	}
	return a;
}

/*
 * apply -J: {"changes": [{object, old, new}], "skipped": [...]}; with
 * --dry-run {"plan": [...], "skipped": [...]}, the plan's rows as
 * set --dry-run -J gives them, with the object and action too.
 */
static int json_report(struct cli *cli, const struct wq_plan *plan, const struct wq_skips *k, bool dry)
{
	json_object *doc = json_object_new_object(), *c = json_object_new_array();

	for (size_t i = 0; i < plan->n; i++) {
		const struct wq_change *ch = &plan->c[i];
		_cleanup_free_ char *o = NULL;
		_cleanup_free_ char *n = NULL;
		json_object *x;

		if (!dry && ch->state != WQ_CH_WRITTEN)
			continue;
		o = ch->old ? wq_value_display(ch->type, ch->old) : NULL;
		n = wq_value_display(ch->type, !dry && ch->now ? ch->now : ch->new);
		x = json_object_new_object();
		json_object_object_add(x, "object", json_object_new_string(ch->object));
		if (dry) {
			_cleanup_free_ char *eff = plan_effective(cli, ch);
			_cleanup_free_ char *path = NULL;

			if (asprintf(&path, "%s/%s", cli->sysroot ? cli->sysroot : "", ch->path) < 0)
				path = NULL;
			json_object_object_add(x, "path", path ? json_object_new_string(path) : NULL);
			json_object_object_add(x, "old", o || ch->old ? json_object_new_string(o ? o : ch->old) : NULL);
			json_object_object_add(x, "new", json_object_new_string(n ? n : ch->new));
			json_object_object_add(x, "effective", eff ? json_object_new_string(eff) : NULL);
			json_object_object_add(x, "action",
					       json_object_new_string(wq_change_is_noop(ch) ? "unchanged" : "write"));
		} else {
			json_object_object_add(x, "old", json_object_new_string(o ? o : ch->old));
			json_object_object_add(x, "new", json_object_new_string(n ? n : ch->new));
		}
		json_object_array_add(c, x);
	}
	json_object_object_add(doc, dry ? "plan" : "changes", c);
	json_object_object_add(doc, "skipped", json_skips(k));
	return json_print(doc);
}

/*
 * The boot unit's one line in the journal: which profiles, what was written;
 * trc is what the transaction returned, skipped the settings this machine
 * could not take.
 */
static void boot_summary(struct cli *cli, const struct wq_pset *set, const struct wq_plan *plan, int trc,
			 size_t skipped)
{
	size_t written = 0, same = 0, failed = 0;
	char names[256] = "", tail[128] = "";

	for (size_t i = 0; i < set->n; i++) {
		size_t len = strlen(names);

		snprintf(names + len, sizeof(names) - len, "%s%s", len ? "," : "", set->names[i]);
	}
	for (size_t i = 0; i < plan->n; i++) {
		if (plan->c[i].state == WQ_CH_WRITTEN)
			written++;
		else if (plan->c[i].state == WQ_CH_FAILED)
			failed++;
		else if (plan->c[i].state == WQ_CH_UNCHANGED || wq_change_is_noop(&plan->c[i]))
			same++;
	}
	/*
	 * After a failed transaction what is still written could not be rolled
	 * back; with no change FAILED either, it failed before its first write
	 * (the lock, the journal).
	 */
	if (skipped)
		snprintf(tail, sizeof(tail), ", %zu skipped on this machine", skipped);
	if (trc != EXIT_OK) {
		size_t len = strlen(tail);

		snprintf(tail + len, sizeof(tail) - len, "; failed, %s",
			 written  ? "some writes not rolled back (see above)"
			 : failed ? "every write rolled back"
				  : "nothing written");
	}
	cli_notice(cli, "boot: profiles %s: %zu setting%s, %zu written, %zu already set%s", names, plan->n,
		   plan->n == 1 ? "" : "s", written, same, tail);
}

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"dry-run", no_argument, NULL, 'd'},
	    {"profile", required_argument, NULL, 'p'},
	    {"workqueue", required_argument, NULL, 'w'},
	    {"udev", no_argument, NULL, 'u'},
	    {"boot", no_argument, NULL, 'b'},
	    {NULL, 0, NULL, 0},
	};
	_cleanup_free_ char **names = calloc((size_t)argc + 1, sizeof(char *));
	const char *only = NULL;
	char **targets = NULL;
	size_t ntargets = 0, skipped = 0;
	int kind = UDEV_NONE;
	int held = -1; /* the lock, when taken before reading */
	char udev_wq[WQ_NAME_MAX], why[256];
	struct wq_settings st = {0};
	struct wq_skips skips = {0};
	struct wq_plan plan = {0};
	struct wq_pset set;
	bool dry = false, udev = false, boot = false, none;
	size_t n = 0;
	int c, rc, trc, modes = 0;

	if (!names)
		return EXIT_FAIL;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dry = true; break;
		case 'p': names[n++] = optarg; break;
		case 'w':
			only = optarg;
			modes++;
			break;
		case 'u':
			udev = true;
			modes++;
			break;
		case 'b':
			boot = true;
			modes++;
			break;
		default:
			cli_err(cli, "apply: %s: unknown option or missing argument", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (cli->list_columns)
		return plan_list_columns(cli);
	if (optind < argc || modes > 1) {
		cli_err(cli, "apply: %s",
			optind < argc ? "unexpected argument" : "--workqueue, --udev and --boot exclude each other");
		return EXIT_USAGE;
	}
	if (boot)
		cli->quiet = true;
	if (only && !wq_name_is_valid(only)) {
		cli_err(cli, "%s: not a valid workqueue name", only);
		return EXIT_USAGE;
	}
	if (udev) {
		kind = udev_target(udev_wq, sizeof(udev_wq), why, sizeof(why));
		if (kind < 0) {
			cli_err(cli, "udev event: %s", why);
			return EXIT_USAGE;
		}
		if (kind == UDEV_NONE)
			return EXIT_OK;
		if (kind == UDEV_WQ)
			only = udev_wq;
	}
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	if (kind == UDEV_WQ_GONE) {
		rc = dry ? 0 : wq_journal_forget(cli->ctx, udev_wq, UDEV_LOCK_WAIT_MS);
		if (rc == -EEXIST) {
			cli_info(cli, "%s: a remove event, but the workqueue is there; its journal entries are kept",
				 udev_wq);
			return EXIT_OK;
		}
		if (rc < 0) {
			cli_err(cli, "run/wqctl/journal: cannot forget %s: %s", udev_wq,
				rc == -ETIMEDOUT ? "another wqctl holds the lock" : wq_strerror(-rc));
			return EXIT_FAIL;
		}
		if (rc > 0)
			cli_info(cli, "%s: removed; %d journal entries dropped", udev_wq, rc);
		return EXIT_OK;
	}
	if (kind == UDEV_OWNER) {
		if (owned_workqueues(cli, udev_wq, &targets, &ntargets) < 0) {
			cli_err(cli, "udev event: DEVPATH '%.80s' does not name a %s device", getenv("DEVPATH"),
				udev_wq);
			return EXIT_USAGE;
		}
		if (ntargets == 0) {
			free(targets);
			return EXIT_OK;
		}
	}
	if (only && !wq_exists(cli->ctx, only)) {
		if (udev)
			return EXIT_OK; /* gone again before we ran */
		cli_no_such_wq(cli, only);
		return EXIT_NONE_EXIST;
	}
	rc = cli_load_profiles(cli, names, n, &set, &none);
	if (rc || none) {
		if (none && boot)
			cli_notice(cli, "boot: no active profiles, nothing to apply");
		else if (none)
			cli_info(cli, "no active profiles: nothing to apply");
		wq_names_free(targets, ntargets);
		return rc;
	}
	if (only) {
		targets = calloc(2, sizeof(*targets));
		if (!targets || !(targets[0] = strdup(only))) {
			rc = EXIT_FAIL;
			goto out;
		}
		ntargets = 1;
	}
	/*
	 * An apply that may write many workqueues reads them under the lock,
	 * so that what it journals needs no second read (on 1,250 workqueues,
	 * 850 files). A udev event, which mostly changes nothing, reads first
	 * and locks only to write; so does an apply that cannot take the lock
	 * at once: another wqctl holds it (an apply with nothing to change does
	 * not wait for it, one that writes waits once and reads again), or it
	 * cannot be made (not root, a read-only tree: writes fail as before).
	 */
	if (!dry && !udev)
		held = wq_lock_take(cli->ctx, 0);
	if (wq_settings_resolve(cli->ctx, &set, targets, ntargets, !only && kind == UDEV_NONE, &st) < 0) {
		cli_err(cli, "apply: cannot read the workqueues");
		rc = EXIT_FAIL;
		goto out;
	}
	if (cli_report_settings(cli, &st)) {
		cli_err(cli, "apply: invalid settings, nothing written");
		rc = EXIT_USAGE;
		goto out;
	}
	if (wq_settings_plan(&st, &plan) < 0) {
		rc = EXIT_FAIL;
		goto out;
	}
	if (wq_settings_skips(cli->ctx, &st, &skips) < 0) {
		rc = EXIT_FAIL;
		goto out;
	}
	/* -J: one document of what would change (or changed) and what was skipped, for a person's apply */
	if (dry && cli->json && !udev && !boot)
		rc = trc = json_report(cli, &plan, &skips, true);
	else
		rc = trc = dry ? plan_print(cli, &plan)
			       : plan_transact(cli, &plan, udev ? UDEV_LOCK_WAIT_MS : PLAN_LOCK_WAIT_MS, held);
	held = -1; /* plan_transact() released it */
	/* what changed and what was left out, for the person who ran it (the boot unit and the udev rule stay quiet) */
	if (rc == EXIT_OK && !udev && !boot && !cli->quiet) {
		if (cli->json && !dry)
			json_report(cli, &plan, &skips, false);
		else if (!cli->json) {
			report_skips(&skips);
			if (!dry)
				plan_report_changes(&plan);
		}
	}
	/* the rest was applied; a setting not in force here for a warning makes it a partial success (exit 1) */
	for (size_t i = 0; i < st.n; i++)
		skipped += wq_conds[st.v[i].cond].exit[WQ_CMD_APPLY] == EXIT_FAIL;
	if (rc == EXIT_OK && skipped) {
		cli_err(cli, "apply: %zu setting%s skipped on this machine (see above); the others are applied",
			skipped, skipped == 1 ? "" : "s");
		rc = EXIT_FAIL;
	}
	if (boot)
		boot_summary(cli, &set, &plan, trc, skipped);
out:
	wq_lock_release(held);
	wq_names_free(targets, ntargets);
	wq_plan_free(&plan);
	wq_skips_free(&skips);
	wq_settings_free(&st);
	wq_pset_free(&set);
	return rc;
}

const struct cmd cmd_apply = {
    .name = "apply",
    .run = run,
    .summary = "apply the active (or named) profiles, transactionally",
    .usage = "[--dry-run] [--profile NAME...] [--workqueue NAME | --udev | --boot]",
    .options = "  --dry-run          print the plan; write nothing\n"
	       "  --profile NAME     apply this profile instead of the active set (repeatable)\n"
	       "  --workqueue NAME   only this workqueue (no globals)\n"
	       "  --udev             the workqueue of the udev event (ACTION, DEVPATH, SUBSYSTEM)\n"
	       "  --boot             globals and every workqueue, quietly (the boot unit)\n",
};
