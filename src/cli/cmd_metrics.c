// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wqctl metrics: the settings, findings, drift and pending reverts in the
 * Prometheus text exposition format, to stdout or atomically into a
 * node_exporter textfile directory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/core/session.h"
#include "../lib/core/state.h"
#include "../lib/core/check.h"
#include "../lib/core/explain.h"
#include "../lib/core/kver.h"
#include "../lib/util/macro.h"
#include "../lib/util/text.h"
#include "../lib/core/owner.h"
#include "../lib/obs/sampler.h"
#include "../lib/core/topo.h"
#include "../lib/obs/trace.h"
#include "../lib/core/wq.h"
#include "cli.h"
#include "profiles.h"

#define TEXTFILE "wqctl.prom"

/* A family's HELP and TYPE lines, written before its first sample. */
static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/*
 * A label value as the format escapes it: backslash, double quote and line
 * feed. The format is UTF-8: a byte that is not (a workqueue name built from
 * an interface name, a kernel release) made promtool refuse the file and
 * node_exporter drop every wqctl metric, so it and the control characters
 * a terminal acts on are U+FFFD (issue 60 item 4).
 */
static void label_value(FILE *f, const char *v)
{
	for (const char *p = v ? v : ""; *p;) {
		size_t len = wq_utf8_len(p);

		if (*p == '\\' || *p == '"') {
			fputc('\\', f);
			fputc(*p, f);
		} else if (*p == '\n') {
			fputs("\\n", f);
		} else if (len == 0 || wq_text_is_control(p, len)) {
			fputs(WQ_TEXT_REPLACEMENT, f);
		} else {
			fwrite(p, 1, len, f);
		}
		p += len ? len : 1;
	}
}

/* name{k1="v1",...} value: labels as NULL-terminated key, value pairs */
static void sample(FILE *f, const char *name, const char *const *labels, double v)
{
	fputs(name, f);
	for (size_t i = 0; labels && labels[i]; i += 2) {
		fprintf(f, "%s%s=\"", i ? "," : "{", labels[i]);
		label_value(f, labels[i + 1]);
		fputc('"', f);
		if (!labels[i + 2])
			fputc('}', f);
	}
	/* the format's spelling of a missing figure; 15 digits keep every count exact */
	if (isnan(v))
		fputs(" NaN\n", f);
	else
		fprintf(f, " %.15g\n", v);
}

struct wq_row {
	struct wq_info wi;
	long inflight;
	char owner[64];
	char *cpus; /* effective: the cpumask within the root unbound cpumask (wq_effective_cpus) */
	char *mask; /* as written */
};

static void per_workqueue(FILE *f, struct wq_row *rows, size_t n)
{
	family(f, "wqctl_workqueue_max_active", "gauge", "The max_active a workqueue has in sysfs.");
	for (size_t i = 0; i < n; i++)
		if (!(rows[i].wi.bad & (1U << WQ_A_MAX_ACTIVE)))
			sample(f, "wqctl_workqueue_max_active", (const char *[]){"workqueue", rows[i].wi.name, NULL},
			       rows[i].wi.max_active);
	family(f, "wqctl_workqueue_max_inflight", "gauge",
	       "The most work items a workqueue can have in flight on this kernel and topology (derived, as wqctl "
	       "explain).");
	for (size_t i = 0; i < n; i++)
		if (rows[i].inflight >= 0)
			sample(f, "wqctl_workqueue_max_inflight", (const char *[]){"workqueue", rows[i].wi.name, NULL},
			       (double)rows[i].inflight);
	family(f, "wqctl_workqueue_nice", "gauge", "The nice level of an unbound workqueue's workers.");
	for (size_t i = 0; i < n; i++)
		if ((rows[i].wi.has & (1U << WQ_A_NICE)) && !(rows[i].wi.bad & (1U << WQ_A_NICE)))
			sample(f, "wqctl_workqueue_nice", (const char *[]){"workqueue", rows[i].wi.name, NULL},
			       rows[i].wi.nice);
	family(f, "wqctl_workqueue_affinity_strict", "gauge",
	       "1 when an unbound workqueue's workers stay inside their pod (6.6+).");
	for (size_t i = 0; i < n; i++)
		if (rows[i].wi.strict >= 0)
			sample(f, "wqctl_workqueue_affinity_strict",
			       (const char *[]){"workqueue", rows[i].wi.name, NULL}, rows[i].wi.strict);
	family(f, "wqctl_workqueue_info", "gauge",
	       "A workqueue in sysfs: its kind, affinity scope in force, the CPUs the kernel uses (its cpumask within "
	       "the root unbound cpumask), its cpumask as written and owner device.");
	for (size_t i = 0; i < n; i++) {
		const struct wq_info *w = &rows[i].wi;
		const char *scope = w->scope_eff[0] ? w->scope_eff : w->scope;

		sample(f, "wqctl_workqueue_info",
		       (const char *[]){"workqueue", w->name, "kind", w->unbound ? "unbound" : "percpu", "scope", scope,
					"cpus", rows[i].cpus ? rows[i].cpus : "", "cpumask",
					rows[i].mask ? rows[i].mask : "", "owner", rows[i].owner, NULL},
		       1);
	}
}

static void cpus(struct cli *cli, FILE *f)
{
	struct wq_topo *t = wq_ctx_topo(cli->ctx);
	const struct wq_cpuset *root = NULL;
	_cleanup_cpuset_ struct wq_cpuset *hk = wq_cpuset_new();

	family(f, "wqctl_online_cpus", "gauge", "Online CPUs.");
	if (t)
		sample(f, "wqctl_online_cpus", NULL, wq_cpuset_count(t->online));
	family(f, "wqctl_root_cpumask_cpus", "gauge",
	       "CPUs in the root unbound cpumask, where every unbound workqueue's workers may run.");
	if (wq_root_cpumask_get(cli->ctx, &root) == 0)
		sample(f, "wqctl_root_cpumask_cpus", NULL, wq_cpuset_count(root));
	family(f, "wqctl_housekeeping_cpus", "gauge", "Online CPUs that are neither isolated nor nohz_full.");
	if (t && hk && wq_topo_housekeeping(t, hk) == 0)
		sample(f, "wqctl_housekeeping_cpus", NULL, wq_cpuset_count(hk));
}

static void kernel_info(struct cli *cli, FILE *f)
{
	const char *why;
	char scope[32] = "none";

	if (wq_has_scopes(cli->ctx))
		wq_default_scope(cli->ctx, scope, sizeof(scope));
	family(f, "wqctl_kernel_info", "gauge",
	       "The kernel: its release, the era of its max_active rules (wqctl explain) and the default affinity "
	       "scope.");
	sample(f, "wqctl_kernel_info",
	       (const char *[]){"release", cli->ctx->kver.release, "era", wq_era_name(wq_ctx_era(cli->ctx, &why)),
				"default_scope", scope, NULL},
	       1);
}

/* check's findings, counted by severity and code */
struct tally {
	struct count {
		enum wq_severity sev;
		char code[64];
		unsigned int n;
	} * v;
	size_t n;
	bool short_of_memory;
};

static void on_finding(void *data, const struct wq_finding *fi)
{
	struct tally *t = data;
	struct count *nv;

	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].sev == fi->severity && !strcmp(t->v[i].code, fi->code)) {
			t->v[i].n++;
			return;
		}
	nv = realloc(t->v, (t->n + 1) * sizeof(*nv));
	if (!nv) {
		t->short_of_memory = true;
		return;
	}
	t->v = nv;
	t->v[t->n].sev = fi->severity;
	snprintf(t->v[t->n].code, sizeof(t->v[t->n].code), "%s", fi->code);
	t->v[t->n++].n = 1;
}

static int findings(struct cli *cli, FILE *f, struct wq_row *rows, size_t n)
{
	struct tally t = {.n = 0};

	wq_check_globals(cli->ctx, NULL, on_finding, &t);
	for (size_t i = 0; i < n; i++)
		wq_check_wq(cli->ctx, &rows[i].wi, NULL, on_finding, &t);
	family(f, "wqctl_check_findings", "gauge", "Findings of wqctl check, by severity and code.");
	for (size_t i = 0; i < t.n; i++)
		sample(f, "wqctl_check_findings",
		       (const char *[]){"severity", wq_severity_name(t.v[i].sev), "code", t.v[i].code, NULL}, t.v[i].n);
	free(t.v);
	return t.short_of_memory ? -ENOMEM : 0;
}

/* The profile a setting came from: its file name without directory and ".conf". */
static void profile_name(const char *file, char *buf, size_t size)
{
	const char *b = strrchr(file, '/');
	size_t l;

	snprintf(buf, size, "%s", b ? b + 1 : file);
	l = strlen(buf);
	if (l > 5 && !strcmp(buf + l - 5, ".conf"))
		buf[l - 5] = '\0';
}

struct per_profile {
	char name[128];
	unsigned int total, bad;
	unsigned int n[WQ_COND_NR]; /* settings per condition */
};

/* verify of the active set: settings and mismatches per profile. -1 when the set cannot be read. */
static int drift(struct cli *cli, FILE *f)
{
	struct wq_holds h = {0};
	struct wq_pset set;
	bool none = false;
	_cleanup_free_ struct per_profile *pv = NULL;
	size_t np = 0;
	int rc = cli_load_profiles(cli, NULL, 0, &set, &none);

	family(f, "wqctl_profile_settings", "gauge", "Settings of each active profile (wqctl verify's rows).");
	if (rc)
		return -1;
	if (!none && wq_holds_judge(cli->ctx, &set, &h) < 0) {
		wq_holds_free(&h);
		wq_pset_free(&set);
		return -1;
	}
	for (size_t i = 0; i < h.st.n && rc == 0; i++) {
		const struct wq_setting *x = &h.st.v[i];
		char name[128];
		enum wq_cond c = h.cond[i];
		size_t k;

		profile_name(x->file, name, sizeof(name));
		for (k = 0; k < np && strcmp(pv[k].name, name); k++)
			;
		if (k == np) {
			struct per_profile *n = realloc(pv, (np + 1) * sizeof(*pv));

			if (!n) {
				rc = -ENOMEM;
				break;
			}
			pv = n;
			pv[np] = (struct per_profile){.total = 0};
			snprintf(pv[np++].name, sizeof(pv[0].name), "%s", name);
		}
		pv[k].total++;
		/* as verify judges them (wq_holds_judge and the table): not in force for a warning or an error */
		pv[k].bad += wq_conds[c].exit[WQ_CMD_VERIFY] != 0;
		pv[k].n[c]++;
	}
	for (size_t k = 0; k < np; k++)
		sample(f, "wqctl_profile_settings", (const char *[]){"profile", pv[k].name, NULL}, pv[k].total);
	family(f, "wqctl_profile_drift", "gauge",
	       "Settings of each active profile that do not hold (those wqctl verify exits non-zero for: drift, "
	       "absent, a node this machine lacks, 'local' unplaced, invalid).");
	for (size_t k = 0; k < np; k++)
		sample(f, "wqctl_profile_drift", (const char *[]){"profile", pv[k].name, NULL}, pv[k].bad);
	family(f, "wqctl_profile_conditions", "gauge",
	       "Settings of each active profile by condition (wqctl verify's CONDITION, wqctl.profile(5) CONDITIONS).");
	for (size_t k = 0; k < np; k++)
		for (int c = 0; c < WQ_COND_NR; c++)
			if (pv[k].n[c])
				sample(f, "wqctl_profile_conditions",
				       (const char *[]){"profile", pv[k].name, "condition", wq_conds[c].code,
							"severity", wq_severity_name(wq_conds[c].severity), NULL},
				       pv[k].n[c]);
	wq_holds_free(&h);
	wq_pset_free(&set);
	return rc;
}

static int journal(struct cli *cli, FILE *f)
{
	struct wq_journal j = {0};
	int r = wq_journal_read(cli->ctx, &j);

	family(f, "wqctl_journal_entries", "gauge", "Values wqctl changed that wqctl revert would restore.");
	if (r == 0)
		sample(f, "wqctl_journal_entries", NULL, (double)j.n);
	wq_journal_free(&j);
	return r;
}

/* One summary's quantiles (NaN without a sample), sum and count, in seconds from nanoseconds. */
static void summary(FILE *f, const char *name, const char *wq, int64_t p50, int64_t p99, double sum, uint64_t count)
{
	char n[96];

	sample(f, name, (const char *[]){"workqueue", wq, "quantile", "0.5", NULL}, p50 >= 0 ? (double)p50 / 1e9 : NAN);
	sample(f, name, (const char *[]){"workqueue", wq, "quantile", "0.99", NULL},
	       p99 >= 0 ? (double)p99 / 1e9 : NAN);
	snprintf(n, sizeof(n), "%s_sum", name);
	sample(f, n, (const char *[]){"workqueue", wq, NULL}, sum / 1e9);
	snprintf(n, sizeof(n), "%s_count", name);
	sample(f, n, (const char *[]){"workqueue", wq, NULL}, (double)count);
}

/* sample_window()'s status for a window a signal cut short */
#define EXIT_CUT (-1)

/*
 * Armed once and kept to the end of the run, as its handlers were: a signal
 * after the session (while the rest is printed or written) is noted, not fatal.
 */
static struct wq_cancel cancel;

/*
 * --sample SECONDS: what monitor measures over one window, from the
 * workqueue tracepoints (live only), for the workqueues that did work in it.
 */
static int sample_window(struct cli *cli, FILE *f, double seconds)
{
	struct wq_sampler *sm = NULL;
	struct wq_sample w;
	char why[300];
	int r;

	/* a signal must not leave the tracing instance behind */
	wq_cancel_arm(&cancel);
	/* monitor's auto for wait and run times (the sample has them), with the held-back count where it is counted */
	r = wq_sampler_open(cli->ctx, &cancel, cli->ctx ? WQ_SAMPLER_AUTO_TIMES_HELD : WQ_SAMPLER_STREAM,
			    WQ_TRACE_BUFFER_KB, seconds, NULL, 0, &sm, why, sizeof(why));
	if (r < 0) {
		cli_err(cli, "metrics: --sample: %s", why);
		return EXIT_FAIL;
	}
	r = wq_sampler_next(sm, true, &w);
	if (r <= 0) {
		wq_sampler_free(sm);
		if (r == 0) {
			/* a window cut short: no file at all, not one without the sample families */
			cli_err(cli, "metrics: --sample: interrupted before the window ended; nothing written");
			return EXIT_CUT;
		}
		return EXIT_FAIL;
	}
	family(f, "wqctl_sample_seconds", "gauge", "Length of the window the wqctl_sample_ families measured.");
	sample(f, "wqctl_sample_seconds", NULL, w.seconds);
	family(f, "wqctl_sample_events_lost", "gauge",
	       "Tracepoint events the trace buffer dropped in the window (the figures undercount when not 0).");
	sample(f, "wqctl_sample_events_lost", NULL, (double)w.lost);
	family(f, "wqctl_sample_queued_per_second", "gauge",
	       "Work items queued per second in the window, per workqueue as the tracepoints name it.");
	for (size_t i = 0; i < w.n; i++)
		sample(f, "wqctl_sample_queued_per_second", (const char *[]){"workqueue", w.rows[i].name, NULL},
		       w.rows[i].queued_ps);
	family(f, "wqctl_sample_started_per_second", "gauge", "Work items started per second in the window.");
	for (size_t i = 0; i < w.n; i++)
		sample(f, "wqctl_sample_started_per_second", (const char *[]){"workqueue", w.rows[i].name, NULL},
		       w.rows[i].started_ps);
	/* the kernel's hists cannot tell a held-back item from the others */
	if (!w.kernel) {
		family(f, "wqctl_sample_throttled", "gauge",
		       "Work items max_active held back in the window (activated after they were queued).");
		for (size_t i = 0; i < w.n; i++)
			sample(f, "wqctl_sample_throttled", (const char *[]){"workqueue", w.rows[i].name, NULL},
			       (double)w.rows[i].throttled);
	}
	family(f, "wqctl_sample_wait_seconds", "summary", "Time from queue_work to execute_start in the window.");
	for (size_t i = 0; i < w.n; i++)
		summary(f, "wqctl_sample_wait_seconds", w.rows[i].name, w.rows[i].wait_p50, w.rows[i].wait_p99,
			w.rows[i].wait_sum, w.rows[i].wait_count);
	family(f, "wqctl_sample_run_seconds", "summary", "Time from execute_start to execute_end in the window.");
	for (size_t i = 0; i < w.n; i++)
		summary(f, "wqctl_sample_run_seconds", w.rows[i].name, w.rows[i].run_p50, w.rows[i].run_p99,
			w.rows[i].run_sum, w.rows[i].run_count);
	wq_sampler_free(sm);
	return EXIT_OK;
}

struct text {
	const char *buf;
	size_t len;
};

static void fill(FILE *f, const void *data)
{
	const struct text *t = data;

	fwrite(t->buf, 1, t->len, f);
}

static int collect(struct cli *cli, FILE *f, double window, int *failed)
{
	char **names = NULL;
	size_t n = 0, nr = 0;
	struct wq_row *rows;
	bool cut = false;
	int r = wq_list(cli->ctx, &names, &n);

	if (r < 0) {
		cli_err(cli, "metrics: cannot list the workqueues: %s", wq_strerror(-r));
		return EXIT_FAIL;
	}
	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows) {
		wq_names_free(names, n);
		return EXIT_FAIL;
	}
	wq_ctx_mask_texts(cli->ctx, false);
	for (size_t i = 0; i < n; i++) {
		struct wq_row *w = &rows[nr];
		struct wq_owner o;

		r = wq_info_read(cli->ctx, names[i], &w->wi);
		if (r < 0) {
			if (r != -ENOENT) { /* vanished while we looked: not an error */
				cli_err(cli, "%s: cannot read: %s", names[i], wq_strerror(-r));
				(*failed)++;
			}
			wq_info_clear(&w->wi);
			continue;
		}
		w->inflight = w->wi.bad & (1U << WQ_A_MAX_ACTIVE) ? -1 : wq_explain_max_inflight(cli->ctx, &w->wi);
		if ((w->wi.has & (1U << WQ_A_CPUMASK)) && !(w->wi.bad & (1U << WQ_A_CPUMASK))) {
			_cleanup_cpuset_ struct wq_cpuset *e = wq_cpuset_new();

			w->mask = wq_cpuset_format_list(w->wi.cpumask);
			w->cpus =
			    e && wq_effective_cpus(cli->ctx, w->wi.cpumask, e) == 0 ? wq_cpuset_format_list(e) : NULL;
		}
		wq_owner_from_name(w->wi.name, &o);
		wq_owner_format(&o, w->owner, sizeof(w->owner));
		if (!strcmp(w->owner, "-"))
			w->owner[0] = '\0';
		nr++;
	}
	wq_names_free(names, n);
	kernel_info(cli, f);
	per_workqueue(f, rows, nr);
	cpus(cli, f);
	if (findings(cli, f, rows, nr) < 0)
		(*failed)++;
	if (drift(cli, f) < 0)
		(*failed)++;
	if (journal(cli, f) < 0)
		(*failed)++;
	if (window > 0) {
		r = sample_window(cli, f, window);
		if (r == EXIT_CUT)
			cut = true;
		else if (r != EXIT_OK)
			(*failed)++;
	}
	for (size_t i = 0; i < nr; i++) {
		wq_info_clear(&rows[i].wi);
		free(rows[i].cpus);
		free(rows[i].mask);
	}
	free(rows);
	return cut ? EXIT_FAIL : EXIT_OK;
}

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"textfile", required_argument, NULL, 't'}, {"sample", required_argument, NULL, 's'}, {NULL, 0, NULL, 0}};
	const char *dir = NULL;
	double window = 0;
	char *end;
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int c, rc, failed = 0;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 't') {
			dir = optarg;
			continue;
		}
		if (c == 's') {
			errno = 0;
			window = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(window >= 0.1 && window <= 3600)) {
				cli_err(cli, "metrics: --sample '%s': expected seconds from 0.1 to 3600", optarg);
				return EXIT_USAGE;
			}
			continue;
		}
		cli_err(cli, "metrics: %s: unknown option or missing argument (see wqctl metrics --help)",
			argv[optind - 1]);
		return EXIT_USAGE;
	}
	if (optind < argc) {
		cli_err(cli, "metrics: %s: unexpected argument", argv[optind]);
		return EXIT_USAGE;
	}
	if (cli->json || cli->raw || cli->pairs || cli->output || cli->list_columns) {
		cli_err(cli, "metrics: the output is Prometheus's text format: no --json, --raw, --pairs or --output");
		return EXIT_USAGE;
	}
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	if (window > 0 && cli->sysroot) {
		cli_err(cli, "metrics: --sample measures the live kernel's tracepoints: not below --sysroot");
		return EXIT_USAGE;
	}
	f = open_memstream(&buf, &len);
	if (!f)
		return EXIT_FAIL;
	rc = collect(cli, f, window, &failed);
	/* a failed collection (a cut window included) writes nothing */
	if (fclose(f) != 0 || rc != EXIT_OK)
		return EXIT_FAIL;
	if (dir) {
		struct wq_root *out = NULL;
		struct text t = {buf, len};
		char why[200];
		/* the directory under the rule files root acts on follow (issue 60 item 5) */
		int r = wq_root_new_outdir(dir, &out, why, sizeof(why));

		if (r == -EPERM) {
			cli_err(cli, "%s: refusing to write %s there: %s", dir, TEXTFILE, why);
			return EXIT_USAGE;
		}
		/* a temporary beside it (no .prom: the collector skips it), fsync'ed, renamed over */
		if (r == 0)
			r = wq_root_replace(out, TEXTFILE, 0644, fill, &t);
		wq_root_free(out);
		if (r < 0) {
			cli_err(cli, "%s/%s: cannot write: %s", dir, TEXTFILE, wq_strerror(-r));
			return EXIT_FAIL;
		}
	} else if (fwrite(buf, 1, len, stdout) != len) {
		return EXIT_FAIL;
	}
	return failed ? EXIT_FAIL : EXIT_OK;
}

const struct cmd cmd_metrics = {
    .name = "metrics",
    .run = run,
    .summary = "print the settings, findings and drift as Prometheus metrics",
    .usage = "[--sample SECONDS] [--textfile DIR]",
    .options = "  --sample SECONDS  add what monitor measures over a window of SECONDS (0.1 to 3600; root, live)\n"
	       "  --textfile DIR    write DIR/" TEXTFILE " atomically (node_exporter's textfile collector) instead\n"
	       "                    of standard output\n",
};
