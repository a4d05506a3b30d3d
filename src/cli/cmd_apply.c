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

#include "../lib/util/macro.h"
#include "../lib/core/state.h"
#include "../lib/core/session.h"
#include "../lib/core/wq.h"
#include "cli.h"
#include "json.h"
#include "plan_out.h"
#include "profiles.h"

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
 * The boot unit's one line in the journal: which profiles, what was written,
 * what this machine could not take; trc is what the transaction returned.
 */
static void boot_summary(struct cli *cli, const struct wq_pset *set, const struct wq_apply *a, int trc)
{
	size_t written, same, failed;
	char names[256] = "", tail[128] = "";

	for (size_t i = 0; i < set->n; i++) {
		size_t len = strlen(names);

		snprintf(names + len, sizeof(names) - len, "%s%s", len ? "," : "", set->names[i]);
	}
	wq_apply_counts(a, &written, &same, &failed);
	/*
	 * After a failed transaction what is still written could not be rolled
	 * back; with no change FAILED either, it failed before its first write
	 * (the lock, the journal).
	 */
	if (a->skipped)
		snprintf(tail, sizeof(tail), ", %zu skipped on this machine", a->skipped);
	if (trc != EXIT_OK) {
		size_t len = strlen(tail);

		snprintf(tail + len, sizeof(tail) - len, "; failed, %s",
			 written  ? "some writes not rolled back (see above)"
			 : failed ? "every write rolled back"
				  : "nothing written");
	}
	cli_notice(cli, "boot: profiles %s: %zu setting%s, %zu written, %zu already set%s", names, a->plan.n,
		   a->plan.n == 1 ? "" : "s", written, same, tail);
}

/* apply's request: the library's struct, and what the command line keeps for its messages. */
struct args {
	struct wq_apply a;
	char **names; /* --profile */
	size_t n;
	char udev_wq[WQ_NAME_MAX], why[256];
};

/* parse_args(): a udev event that is not ours; apply exits 0 at once */
#define EXIT_NOTHING (-1)

/* apply's options and the udev environment as a request: EXIT_OK to go on, else the exit status. */
static int parse_args(struct cli *cli, int argc, char **argv, struct args *o)
{
	static const struct option opts[] = {
	    {"dry-run", no_argument, NULL, 'd'},
	    {"profile", required_argument, NULL, 'p'},
	    {"workqueue", required_argument, NULL, 'w'},
	    {"udev", no_argument, NULL, 'u'},
	    {"boot", no_argument, NULL, 'b'},
	    {NULL, 0, NULL, 0},
	};
	bool udev = false, boot = false;
	int c, kind, modes = 0;

	o->a.mode = WQ_APPLY_ALL;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': o->a.dry = true; break;
		case 'p': o->names[o->n++] = optarg; break;
		case 'w':
			o->a.wq = optarg;
			o->a.mode = WQ_APPLY_WQ;
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
	if (boot) {
		cli->quiet = true;
		o->a.mode = WQ_APPLY_BOOT;
	}
	if (o->a.wq && !wq_name_is_valid(o->a.wq)) {
		cli_err(cli, "%s: not a valid workqueue name", o->a.wq);
		return EXIT_USAGE;
	}
	if (!udev)
		return EXIT_OK;
	kind = udev_target(o->udev_wq, sizeof(o->udev_wq), o->why, sizeof(o->why));
	if (kind < 0) {
		cli_err(cli, "udev event: %s", o->why);
		return EXIT_USAGE;
	}
	if (kind == UDEV_NONE)
		return EXIT_NOTHING;
	o->a.mode = kind == UDEV_WQ	   ? WQ_APPLY_UDEV_ADD
		    : kind == UDEV_WQ_GONE ? WQ_APPLY_UDEV_REMOVE
					   : WQ_APPLY_UDEV_OWNER;
	o->a.wq = o->udev_wq;
	o->a.devpath = getenv("DEVPATH");
	o->a.subsystem = getenv("SUBSYSTEM");
	return EXIT_OK;
}

/* What wq_apply_begin() said, for a person or the udev rule: EXIT_OK to go on, else the exit status. */
static int began(struct cli *cli, const struct args *o, int step)
{
	const struct wq_apply *a = &o->a;

	if (step == WQ_APPLY_GO)
		return EXIT_OK;
	if (a->mode == WQ_APPLY_UDEV_REMOVE) {
		if (step == WQ_APPLY_KEPT) {
			cli_info(cli, "%s: a remove event, but the workqueue is there; its journal entries are kept",
				 a->wq);
			return EXIT_OK;
		}
		if (step < 0) {
			cli_err(cli, "run/wqctl/journal: cannot forget %s: %s", a->wq,
				step == -ETIMEDOUT ? "another wqctl holds the lock" : wq_strerror(-step));
			return EXIT_FAIL;
		}
		if (a->dropped > 0)
			cli_info(cli, "%s: removed; %d journal entries dropped", a->wq, a->dropped);
		return EXIT_OK;
	}
	if (step == -EINVAL && a->mode == WQ_APPLY_UDEV_OWNER) {
		cli_err(cli, "udev event: DEVPATH '%.80s' does not name a %s device", a->devpath, o->udev_wq);
		return EXIT_USAGE;
	}
	if (step == WQ_APPLY_NO_WQ) {
		cli_no_such_wq(cli, a->wq);
		return EXIT_NONE_EXIST;
	}
	return step < 0 ? EXIT_FAIL : EXIT_OK;
}

/* What changed and what was left out, for the person who ran it (the boot unit and the udev rule stay quiet). */
static void report(struct cli *cli, const struct wq_apply *a)
{
	if (a->mode != WQ_APPLY_ALL && a->mode != WQ_APPLY_WQ)
		return;
	if (cli->quiet)
		return;
	if (cli->json && !a->dry)
		json_report(cli, &a->plan, &a->skips, false);
	else if (!cli->json) {
		report_skips(&a->skips);
		if (!a->dry)
			plan_report_changes(&a->plan);
	}
}

static int run(struct cli *cli, int argc, char **argv)
{
	_cleanup_free_ char **names = calloc((size_t)argc + 1, sizeof(char *));
	struct args o = {.names = names};
	struct wq_apply *a = &o.a;
	struct wq_pset set;
	bool none, person;
	int rc, trc;

	if (!names)
		return EXIT_FAIL;
	rc = parse_args(cli, argc, argv, &o);
	if (rc != EXIT_OK)
		return rc == EXIT_NOTHING ? EXIT_OK : rc;
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	rc = wq_apply_begin(cli->ctx, a);
	if (rc != WQ_APPLY_GO) {
		rc = began(cli, &o, rc);
		wq_apply_free(a);
		return rc;
	}
	rc = cli_load_profiles(cli, o.names, o.n, &set, &none);
	if (rc || none) {
		if (none && a->mode == WQ_APPLY_BOOT)
			cli_notice(cli, "boot: no active profiles, nothing to apply");
		else if (none)
			cli_info(cli, "no active profiles: nothing to apply");
		wq_apply_free(a);
		return rc;
	}
	person = a->mode == WQ_APPLY_ALL || a->mode == WQ_APPLY_WQ;
	if (wq_apply_resolve(cli->ctx, a, &set) < 0) {
		cli_err(cli, "apply: cannot read the workqueues");
		rc = EXIT_FAIL;
	} else if (cli_report_settings(cli, &a->st)) {
		cli_err(cli, "apply: invalid settings, nothing written");
		rc = EXIT_USAGE;
	} else {
		/* -J: one document of what would change (or changed) and what was skipped, for a person's apply */
		if (a->dry && cli->json && person)
			rc = trc = json_report(cli, &a->plan, &a->skips, true);
		else if (a->dry)
			rc = trc = plan_print(cli, &a->plan);
		else
			rc = trc = wq_apply_commit(cli->ctx, a) < 0 ? EXIT_FAIL : EXIT_OK;
		if (rc == EXIT_OK)
			report(cli, a);
		/* the rest was applied; a setting not in force here for a warning makes it a partial success (exit 1) */
		if (rc == EXIT_OK && a->skipped) {
			cli_err(cli, "apply: %zu setting%s skipped on this machine (see above); the others are applied",
				a->skipped, a->skipped == 1 ? "" : "s");
			rc = EXIT_FAIL;
		}
		if (a->mode == WQ_APPLY_BOOT)
			boot_summary(cli, &set, a, trc);
	}
	wq_apply_free(a);
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
