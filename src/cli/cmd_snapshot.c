// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl snapshot: the current settings written out as a profile. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/core/cpuset.h"
#include "../lib/core/explain.h"
#include "../lib/core/knob.h"
#include "../lib/core/kver.h"
#include "../lib/util/macro.h"
#include "../lib/core/wq.h"
#include "cli.h"

/*
 * Whether an attribute holds what the kernel gives a workqueue it creates:
 * the root mask, the default scope, not strict, nice 0, NUMA on (<= 6.5),
 * and max_active at WQ_DFL_ACTIVE (256, 1024 from 6.13: what a creator's 0
 * becomes). Such a line would pin this machine's or this kernel's value
 * elsewhere (cpumask = 0-1 on a 64-CPU machine, max_active = 1024 on 6.6-6.8
 * where the limit is 512), so snapshot leaves it out unless --all.
 */
static bool kernel_default(struct cli *cli, const struct wq_info *wi, int a)
{
	const struct wq_cpuset *root = NULL;

	switch (a) {
	case WQ_A_MAX_ACTIVE: return cli->ctx->kver.known && wi->max_active == wq_kver_dfl_active(&cli->ctx->kver);
	case WQ_A_CPUMASK:
		return wi->cpumask && wq_root_cpumask_get(cli->ctx, &root) == 0 && root &&
		       wq_cpuset_equal(wi->cpumask, root);
	case WQ_A_AFFINITY_SCOPE: return !strcmp(wi->scope, "default");
	case WQ_A_AFFINITY_STRICT: return wi->strict == 0;
	case WQ_A_NICE: return wi->nice == 0;
	case WQ_A_NUMA: return wi->numa == 1;
	default: return false;
	}
}

/* The root mask as the kernel boots with it when nothing restricts it: every possible CPU. */
static bool root_is_default(struct cli *cli, const char *hex)
{
	_cleanup_cpuset_ struct wq_cpuset *m = wq_cpuset_new();
	struct wq_topo *t = wq_ctx_topo(cli->ctx);

	return m && t && wq_cpuset_parse_hex(m, hex) == 0 && wq_cpuset_equal(m, t->possible);
}

/* Print a profile that restores what is set now; apply --profile-dir takes it back. */
static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {{"all", no_argument, NULL, 'a'}, {NULL, 0, NULL, 0}};
	struct wq_knob *ks = NULL;
	char **names = NULL;
	size_t nk = 0, n = 0, left = 0;
	bool all = false;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'a') {
			all = true;
			continue;
		}
		cli_err(cli, "snapshot: %s: unknown option", argv[optind - 1]);
		return EXIT_USAGE;
	}
	if (cli_no_table(cli, "snapshot", false))
		return EXIT_USAGE;
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	rc = cli_resolve_targets(cli, argv + optind, (size_t)(argc - optind), &names, &n, true);
	if (rc == EXIT_FAIL)
		return rc;
	printf("[profile]\ndescription = snapshot (kernel %s)\n",
	       cli->ctx->kver.known ? cli->ctx->kver.release : "unknown");
	if (optind == argc && wq_knobs_list(cli->ctx, &ks, &nk) == 0) {
		for (size_t i = 0, head = 0; i < nk; i++) {
			_cleanup_free_ char *v = NULL;
			const char *dflt;

			if (!ks[i].desc || !ks[i].writable || ks[i].boot_only || !ks[i].value)
				continue;
			dflt = wq_knob_default(cli->ctx, ks[i].desc);
			if (!all && ((!strcmp(ks[i].name, "cpumask") && root_is_default(cli, ks[i].value)) ||
				     (dflt && wq_value_equal(ks[i].desc->type, ks[i].value, dflt)))) {
				left++;
				continue;
			}
			if (!head++)
				printf("\n[global]\n");
			v = wq_value_display(ks[i].desc->type, ks[i].value);
			if (!strcmp(ks[i].name, "cpu_intensive_thresh_us") && !all)
				printf(
				    "# the kernel boots with more than 10000 on a CPU under 4000 BogoMIPS: drop this line\n"
				    "# to keep each machine's own\n");
			printf("%s = %s\n", ks[i].name, v ? v : ks[i].value);
		}
		wq_knobs_free(ks, nk);
	}
	for (size_t i = 0; i < n; i++) {
		struct wq_info wi;

		/*
		 * A section's name is a glob: a workqueue whose name holds a glob
		 * character, a blank or a bracket (names built from interface names can)
		 * cannot be named alone, and its section would set every workqueue the
		 * glob reaches (issue 60 item 20). Said, not written.
		 */
		if (strpbrk(names[i], "*?[]\\ \t")) {
			printf(
			    "\n# workqueue '%s': its name holds a glob character, a blank or a bracket, so no section\n"
			    "# can name it alone: left out\n",
			    names[i]);
			continue;
		}
		if (wq_info_read(cli->ctx, names[i], &wi) < 0 || wi.bad) {
			cli_err(cli, "%s: cannot read all of its attributes", names[i]);
			rc = EXIT_FAIL;
			wq_info_clear(&wi);
			continue;
		}
		/* a section only for a workqueue with something of its own */
		for (int a = 0, head = 0; a < WQ_A_NR; a++) {
			_cleanup_free_ char *v = NULL;

			if (!wi.raw[a])
				continue;
			if (!all && kernel_default(cli, &wi, a)) {
				left++;
				continue;
			}
			if (!head++)
				printf("\n[workqueue %s]\n", names[i]);
			v = a == WQ_A_AFFINITY_SCOPE ? strdup(wi.scope)
						     : wq_value_display(wq_attr_descs[a].type, wi.raw[a]);
			printf("%s = %s\n", wq_attr_descs[a].name, v ? v : "");
		}
		wq_info_clear(&wi);
	}
	if (left)
		printf(
		    "\n# %zu value%s at the kernel's defaults (masks of every CPU, default scope, not strict, nice 0,\n"
		    "# max_active at the kernel's default, knobs at their boot values) left out, so that this\n"
		    "# profile pins nothing of this machine or kernel; --all writes them\n",
		    left, left == 1 ? "" : "s");
	wq_names_free(names, n);
	return rc;
}

const struct cmd cmd_snapshot = {
    .name = "snapshot",
    .run = run,
    .summary = "print the current settings as a profile",
    .usage = "[--all] [PATTERN...]",
    .options = "  --all     every attribute, also those at the kernel's defaults (a restore point for this machine)\n"
	       "  PATTERN   only these workqueues (and no globals); all when none\n",
};
