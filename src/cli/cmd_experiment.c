// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * experiment: run a workload under several settings, interleaved in a
 * seeded shuffled order, and compare a metric of it (fio's JSON, a number in
 * its output, or wall time) with the workqueue counters of each run. Every
 * write goes through the journaled plan writer; the values found before the
 * first run are written back at the end, also after a failure or a signal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/apply.h"
#include "../lib/expfile.h"
#include "../lib/kver.h"
#include "../lib/macro.h"
#include "../lib/monitor.h"
#include "../lib/owner.h"
#include "../lib/plan.h"
#include "../lib/root.h"
#include "../lib/stats.h"
#include "../lib/trace.h"
#include "../lib/minact.h"
#include "../lib/wq.h"
#include "cli.h"
#include "json.h"
#include "../lib/metric.h"
#include "plan_out.h"
#include "profiles.h"

#define EXPERIMENTS_DIR "var/lib/wqctl/experiments"
#define MAX_OUTPUT (64UL << 20)

struct key {
	char *object, *path;
	enum wq_vtype type;
	char *orig; /* as read before the first run */
	char *restore; /* the text that writes orig back */
	bool global;
	bool journaled; /* the journal held this file before the experiment */
	char tp[WQ_NAME_MAX]; /* workqueue name as the tracepoints carry it; "" for a knob */
};

struct wr {
	size_t key;
	char *value; /* kernel form */
	char *shown; /* as given */
};

struct choice {
	char *label;
	struct wr *w;
	size_t nw;
};

struct axis {
	struct choice *c;
	size_t nc;
};

struct cell {
	char *label;
	const struct wr **w;
	size_t nw;
	size_t n; /* measured runs */
	double *val, *wall, *queued, *throttled, *wait99;
	bool counted; /* monitor counters for every run */
	json_object *runs;
	struct wq_stat st, base_st;
	bool has_base;
};

struct exp {
	struct cli *cli;
	struct key *k;
	size_t nk;
	struct axis *ax;
	size_t nax;
	struct cell *cells;
	size_t ncells;
	char **sets; /* the --set specs as given */
	size_t nsets;
	char *profiles;
	long runs, warmup;
	uint64_t seed;
	bool seed_given, force, monitor;
	struct metric metric;
	double threshold;
	char **cmd;
	size_t ncmd;
	const char *save, *compare, *plot;
	struct wq_trace *trace;
	struct wq_saved_exp base; /* --compare: the saved experiment */
	bool loaded; /* base holds one */
	char *cwd; /* where the workload runs (--compare: where it ran when saved) */
	pid_t orphan; /* the workload a signal interrupted, ended after the restore */
	bool warned_lingering;
};

static volatile sig_atomic_t got_signal;
static volatile pid_t child_pid;

static void on_signal(int sig)
{
	got_signal = sig;
	if (child_pid > 0)
		kill(child_pid, sig);
}

/* A figure for people: four significant digits or so, never an exponent. */
static void fmt_num(char *b, size_t size, double v)
{
	double a = fabs(v);

	if (a >= 1000)
		snprintf(b, size, "%.0f", v);
	else if (a >= 100)
		snprintf(b, size, "%.1f", v);
	else if (a >= 1)
		snprintf(b, size, "%.2f", v);
	else if (a == 0)
		snprintf(b, size, "0");
	else
		snprintf(b, size, "%.3g", v);
}

static json_object *jnum(double v)
{
	char b[64];

	if (!isfinite(v))
		return NULL;
	snprintf(b, sizeof(b), "%.6g", v);
	return json_object_new_double_s(v, b);
}

/* --- settings ------------------------------------------------------------ */

static int key_add(struct exp *e, const char *object, const char *path, enum wq_vtype type, const char *current,
		   const char *wq, size_t *out)
{
	struct key *nk, *k;

	for (size_t i = 0; i < e->nk; i++) {
		if (!strcmp(e->k[i].path, path)) {
			*out = i;
			return 0;
		}
	}
	nk = realloc(e->k, sizeof(*nk) * (e->nk + 1));
	if (!nk)
		return -ENOMEM;
	e->k = nk;
	k = &nk[e->nk];
	memset(k, 0, sizeof(*k));
	k->object = strdup(object);
	k->path = strdup(path);
	k->orig = strdup(current ? current : "");
	k->restore = wq_value_restore_text(type, current ? current : "");
	k->type = type;
	k->global = !wq;
	if (wq) {
		snprintf(k->tp, sizeof(k->tp), "%s", wq);
		for (char *p = k->tp; *p; p++)
			if (*p == '!')
				*p = '/';
	}
	if (!k->object || !k->path || !k->orig || !k->restore)
		return -ENOMEM;
	*out = e->nk++;
	return 0;
}

static int choice_write(struct exp *e, struct choice *c, const char *object, const char *path, enum wq_vtype type,
			const char *current, const char *wq, const char *value, const char *shown)
{
	struct wr *nw = realloc(c->w, sizeof(*nw) * (c->nw + 1));
	size_t key;
	int r;

	if (!nw)
		return -ENOMEM;
	c->w = nw;
	r = key_add(e, object, path, type, current, wq, &key);
	if (r < 0)
		return r;
	nw[c->nw].key = key;
	nw[c->nw].value = strdup(value);
	nw[c->nw].shown = strdup(shown);
	if (!nw[c->nw].value || !nw[c->nw].shown)
		return -ENOMEM;
	c->nw++;
	return 0;
}

static struct axis *axis_new(struct exp *e, size_t nc)
{
	struct axis *na = realloc(e->ax, sizeof(*na) * (e->nax + 1));

	if (!na)
		return NULL;
	e->ax = na;
	na[e->nax].nc = nc;
	na[e->nax].c = calloc(nc, sizeof(struct choice));
	if (!na[e->nax].c)
		return NULL;
	return &na[e->nax++];
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

/* --set 'WQ ATTR=V1,V2,...': one axis, validated against every workqueue WQ names. */
static int axis_from_set(struct exp *e, const char *spec)
{
	struct cli *cli = e->cli;
	_cleanup_free_ char *copy = strdup(spec);
	char *save = NULL, *wq, *assign, *eq, *extra, *vals[WQ_EXP_MAX_CELLS], **names = NULL;
	size_t nv, n = 0;
	int attr, rc = EXIT_OK, r;
	struct axis *ax;

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
	ax = axis_new(e, nv);
	if (!ax) {
		wq_names_free(names, n);
		return EXIT_FAIL;
	}
	for (size_t v = 0; v < nv; v++) {
		if (asprintf(&ax->c[v].label, "%s %s=%s", wq, assign, vals[v]) < 0) {
			ax->c[v].label = NULL;
			rc = EXIT_FAIL;
			goto out;
		}
	}
	for (size_t t = 0; t < n; t++) {
		const struct wq_attr_desc *d = &wq_attr_descs[attr];
		struct wq_owner_info owner;
		struct wq_info wi;
		char obj[160], path[256];

		r = wq_info_read(cli->ctx, names[t], &wi);
		if (r < 0) {
			cli_err(cli, "%s: cannot read: %s", names[t], wq_strerror(-r));
			wq_info_clear(&wi);
			rc = EXIT_FAIL;
			goto out;
		}
		snprintf(obj, sizeof(obj), "%s/%s", wi.name, d->name);
		if (d->unbound_only && !wi.unbound) {
			if (cli_is_glob(wq)) {
				cli_warn(cli, "%s: skipped: per-cpu workqueues have no %s", obj, d->name);
				wq_info_clear(&wi);
				continue;
			}
			cli_err(cli, "%s: per-cpu workqueues have no %s", obj, d->name);
			wq_info_clear(&wi);
			rc = EXIT_USAGE;
			goto out;
		}
		if (!wi.raw[attr]) {
			cli_err(cli, "%s: cannot read the current value: %s", obj, wq_strerror(-wi.err[attr]));
			wq_info_clear(&wi);
			rc = EXIT_FAIL;
			goto out;
		}
		wq_owner_resolve(cli->ctx, names[t], &owner);
		wq_attr_path(path, sizeof(path), wi.name, d->name);
		for (size_t v = 0; v < nv && rc == EXIT_OK; v++) {
			_cleanup_free_ char *newv = NULL;
			char why[512];

			r = wq_attr_parse(cli->ctx, &wi, (enum wq_attr)attr, owner.node, vals[v], &newv, why,
					  sizeof(why));
			if (r < 0) {
				cli_err(cli, "%s: invalid value '%s': %s", obj, vals[v], why);
				rc = EXIT_USAGE;
			} else if (wq_minact_check_write(cli->ctx, &wi, attr, newv, e->force) < 0) {
				rc = EXIT_USAGE;
			} else if (choice_write(e, &ax->c[v], obj, path, d->type, wi.raw[attr], wi.name, newv,
						vals[v]) < 0) {
				rc = EXIT_FAIL;
			}
		}
		wq_owner_info_clear(&owner);
		wq_info_clear(&wi);
		if (rc != EXIT_OK)
			goto out;
	}
out:
	wq_names_free(names, n);
	return rc;
}

/* --profile a,b,none: one axis of whole profiles ("none": only what was there before). */
static int axis_from_profiles(struct exp *e, const char *list)
{
	struct cli *cli = e->cli;
	_cleanup_free_ char *copy = strdup(list);
	char *names[WQ_EXP_MAX_CELLS], *save = NULL;
	size_t n = 0;
	struct axis *ax;

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
	ax = axis_new(e, n);
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

			if (w->status != WQ_SET_OK)
				continue;
			if (choice_write(e, &ax->c[i], w->object, w->path, w->type, w->current, w->wq, w->write,
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

/* Every combination of one choice per axis, in axis order. */
static int build_cells(struct exp *e)
{
	size_t total = 1;

	for (size_t a = 0; a < e->nax; a++) {
		total *= e->ax[a].nc;
		if (total > WQ_EXP_MAX_CELLS) {
			cli_err(e->cli, "experiment: more than %d settings in the grid", WQ_EXP_MAX_CELLS);
			return EXIT_USAGE;
		}
	}
	e->cells = calloc(total, sizeof(*e->cells));
	if (!e->cells)
		return EXIT_FAIL;
	e->ncells = total;
	for (size_t i = 0; i < total; i++) {
		struct cell *c = &e->cells[i];
		size_t rest = i, len = 1, nw = 0;
		size_t pick[WQ_EXP_MAX_AXES] = {0};

		for (size_t a = e->nax; a-- > 0;) {
			pick[a] = rest % e->ax[a].nc;
			rest /= e->ax[a].nc;
		}
		for (size_t a = 0; a < e->nax; a++) {
			len += strlen(e->ax[a].c[pick[a]].label) + 2;
			nw += e->ax[a].c[pick[a]].nw;
		}
		c->label = calloc(1, len);
		c->w = calloc(nw + 1, sizeof(*c->w));
		if (!c->label || !c->w)
			return EXIT_FAIL;
		for (size_t a = 0; a < e->nax; a++) {
			const struct choice *ch = &e->ax[a].c[pick[a]];

			if (a)
				strcat(c->label, ", ");
			strcat(c->label, ch->label);
			for (size_t w = 0; w < ch->nw; w++) {
				for (size_t o = 0; o < c->nw; o++) {
					if (c->w[o]->key == ch->w[w].key) {
						cli_err(e->cli, "experiment: %s is set by two axes (%s)",
							e->k[ch->w[w].key].object, c->label);
						return EXIT_USAGE;
					}
				}
				c->w[c->nw++] = &ch->w[w];
			}
		}
		c->runs = json_object_new_array();
		c->val = calloc((size_t)e->runs, sizeof(double));
		c->wall = calloc((size_t)e->runs, sizeof(double));
		c->queued = calloc((size_t)e->runs, sizeof(double));
		c->throttled = calloc((size_t)e->runs, sizeof(double));
		c->wait99 = calloc((size_t)e->runs, sizeof(double));
		if (!c->runs || !c->val || !c->wall || !c->queued || !c->throttled || !c->wait99)
			return EXIT_FAIL;
		c->counted = true;
	}
	for (size_t i = 0; i < e->ncells; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(e->cells[i].label, e->cells[j].label)) {
				cli_err(e->cli, "experiment: the setting '%s' is given twice", e->cells[i].label);
				return EXIT_USAGE;
			}
	return EXIT_OK;
}

/* --- writing ------------------------------------------------------------- */

/* The current value of a key's file (trailing newline dropped), or NULL. */
static char *read_now(struct exp *e, const struct key *k)
{
	char *v = NULL;
	size_t l;

	if (wq_root_read(e->cli->ctx->root, k->path, &v) < 0)
		return NULL;
	l = strlen(v);
	while (l && (v[l - 1] == '\n' || v[l - 1] == ' '))
		v[--l] = '\0';
	return v;
}

/* Write a cell's values, and every other key's original (cell NULL: the originals only). */
static int write_cell(struct exp *e, const struct cell *c)
{
	struct wq_plan plan = {0};
	bool vanished = false;
	int rc = EXIT_OK;

	for (int pass = 0; pass < 2 && rc == EXIT_OK; pass++) {
		/* knobs (the root cpumask) first, as apply orders them */
		for (size_t i = 0; i < e->nk && rc == EXIT_OK; i++) {
			const struct key *k = &e->k[i];
			const char *v = k->restore;
			_cleanup_free_ char *cur = NULL;

			if (k->global != (pass == 0))
				continue;
			for (size_t w = 0; c && w < c->nw; w++)
				if (c->w[w]->key == i)
					v = c->w[w]->value;
			cur = read_now(e, k);
			if (!cur) {
				cli_err(e->cli, "%s: cannot read the current value: it vanished", k->object);
				/* restoring: the others still go back */
				if (c)
					rc = EXIT_FAIL;
				else
					vanished = true;
			} else if (wq_plan_add(&plan, k->object, k->path, NULL, k->type, cur, v) < 0) {
				rc = EXIT_FAIL;
			}
		}
	}
	if (rc == EXIT_OK && plan.n)
		rc = plan_transact(e->cli, &plan, PLAN_LOCK_WAIT_MS, -1);
	wq_plan_free(&plan);
	return rc == EXIT_OK && vanished ? EXIT_FAIL : rc;
}

/*
 * The journal entries this experiment made are dropped once the originals
 * are back (an entry from an earlier wqctl change stays: revert still
 * undoes that one). Best effort: a leftover entry only makes revert write
 * the value that is there.
 */
static void forget_journal(struct exp *e)
{
	struct wq_journal j = {0};
	int lock = wq_lock_take(e->cli->ctx, PLAN_LOCK_WAIT_MS);
	bool changed = false;

	if (lock < 0)
		return;
	if (wq_journal_read(e->cli->ctx, &j) == 0) {
		for (size_t i = j.n; i-- > 0;) {
			for (size_t k = 0; k < e->nk; k++) {
				if (!e->k[k].journaled && !strcmp(j.e[i].path, e->k[k].path)) {
					wq_journal_drop(&j, i);
					changed = true;
					break;
				}
			}
		}
		if (changed && wq_journal_write(e->cli->ctx, &j) < 0)
			cli_warn(e->cli, "run/wqctl/journal: cannot drop the experiment's entries");
	}
	wq_journal_free(&j);
	wq_lock_release(lock);
}

static void note_journaled(struct exp *e)
{
	struct wq_journal j = {0};

	if (wq_journal_read(e->cli->ctx, &j) < 0)
		return;
	for (size_t i = 0; i < j.n; i++)
		for (size_t k = 0; k < e->nk; k++)
			if (!strcmp(j.e[i].path, e->k[k].path))
				e->k[k].journaled = true;
	wq_journal_free(&j);
}

/* Write every original back and check that each reads back as it was. */
static int restore_all(struct exp *e)
{
	int rc = write_cell(e, NULL);

	if (rc == EXIT_OK) {
		for (size_t i = 0; i < e->nk; i++) {
			_cleanup_free_ char *now = read_now(e, &e->k[i]);
			struct wq_change ch = {.type = e->k[i].type, .old = now, .new = e->k[i].restore};

			if (!now || !wq_change_is_noop(&ch)) {
				cli_err(e->cli, "%s: not restored: reads '%s', was '%s'", e->k[i].object,
					now ? now : "(unreadable)", e->k[i].orig);
				rc = EXIT_FAIL;
			}
		}
	}
	if (rc == EXIT_OK)
		forget_journal(e);
	else
		cli_err(
		    e->cli,
		    "experiment: not every value could be restored (see above); 'wqctl revert' writes the originals "
		    "from the journal");
	return rc;
}

/* --- running ------------------------------------------------------------- */

struct run_out {
	char *buf;
	size_t len, cap;
	bool truncated;
	int status;
	double wall;
};

static void run_out_free(struct run_out *o)
{
	free(o->buf);
	memset(o, 0, sizeof(*o));
}

/* One read of the workload's output into o: > 0 bytes read, 0 at the end, -1 nothing now (EAGAIN, EINTR). */
static ssize_t drain(int fd, struct run_out *o)
{
	char tmp[65536];
	ssize_t r = read(fd, tmp, sizeof(tmp));

	if (r < 0)
		return errno == EINTR || errno == EAGAIN ? -1 : 0;
	if (r == 0)
		return 0;
	if (o->len + (size_t)r + 1 > MAX_OUTPUT) {
		o->truncated = true;
		return r;
	}
	if (o->len + (size_t)r + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 65536;
		char *nb;

		while (cap < o->len + (size_t)r + 1)
			cap *= 2;
		nb = realloc(o->buf, cap);
		if (!nb) {
			o->truncated = true;
			return r;
		}
		o->buf = nb;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, tmp, (size_t)r);
	o->len += (size_t)r;
	o->buf[o->len] = '\0';
	return r;
}

/* A descriptor that polls readable when pid exits (pidfd_open, Linux 5.3), or -1. */
static int pid_fd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/*
 * Run the workload once: its stdout captured, the trace drained into m while
 * it runs. The run ends when the workload's own process exits (waited for
 * through a pidfd, so WALL is its real duration): what it wrote is read, and
 * a background process it left holding the output is not waited for. A
 * signal to wqctl ends the wait at once; the workload is then left in
 * e->orphan, to be ended after the values are restored.
 */
static int run_workload(struct exp *e, struct wq_mon *m, struct run_out *o)
{
	int pfd[2], status = 0, pidfd;
	bool open_ = true, exited = false;
	double start;
	pid_t pid;

	memset(o, 0, sizeof(*o));
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		cli_err(e->cli, "experiment: pipe: %s", strerror(errno));
		return -errno;
	}
	fflush(NULL);
	start = cli_now();
	pid = fork();
	if (pid < 0) {
		int err = errno;

		close(pfd[0]);
		close(pfd[1]);
		cli_err(e->cli, "experiment: fork: %s", strerror(err));
		return -err;
	}
	if (pid == 0) {
		struct sigaction dfl = {.sa_handler = SIG_DFL};

		sigemptyset(&dfl.sa_mask);
		sigaction(SIGINT, &dfl, NULL);
		sigaction(SIGTERM, &dfl, NULL);
		sigaction(SIGHUP, &dfl, NULL);
		if (dup2(pfd[1], STDOUT_FILENO) < 0)
			_exit(127);
		if (e->cwd && chdir(e->cwd) < 0) {
			fprintf(stderr, "wqctl: experiment: %s: cannot run there: %s\n", e->cwd, strerror(errno));
			_exit(126);
		}
		execvp(e->cmd[0], e->cmd);
		fprintf(stderr, "wqctl: experiment: %s: cannot run: %s\n", e->cmd[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	child_pid = pid;
	close(pfd[1]);
	pidfd = pid_fd(pid);
	while (!exited && !got_signal) {
		struct pollfd p[2] = {{.fd = pidfd, .events = POLLIN}, {.fd = pfd[0], .events = POLLIN}};
		nfds_t n = open_ ? 2 : 1;
		/* without a pidfd, waitpid() is asked every 2 ms: WALL is off by at most that */
		int timeout = pidfd >= 0 ? 250 : 2;

		if (pidfd < 0)
			p[0].fd = -1;
		if (poll(p, n, timeout) > 0 && open_ && (p[1].revents & (POLLIN | POLLHUP)) && drain(pfd[0], o) == 0)
			open_ = false;
		if (waitpid(pid, &status, WNOHANG) == pid) {
			exited = true;
			o->wall = cli_now() - start;
			child_pid = 0;
		}
		if (e->trace && m && !got_signal)
			wq_trace_read(e->trace, m, &(unsigned long long){0});
	}
	if (pidfd >= 0)
		close(pidfd);
	if (exited && open_) {
		/* what it wrote before it exited is in the pipe: read to the end or to what a leftover still holds */
		ssize_t r;

		fcntl(pfd[0], F_SETFL, O_NONBLOCK);
		while ((r = drain(pfd[0], o)) > 0)
			;
		if (r < 0 && !e->warned_lingering) {
			cli_warn(e->cli,
				 "experiment: %s left a process holding its output; each run ends when %s itself "
				 "exits, and what that process does later is not measured",
				 e->cmd[0], e->cmd[0]);
			e->warned_lingering = true;
		}
	}
	close(pfd[0]);
	if (!exited) {
		e->orphan = pid;
		return 0;
	}
	if (e->trace && m)
		wq_trace_flush(e->trace, m);
	o->status = status;
	if (!o->buf) {
		o->buf = strdup("");
		if (!o->buf)
			return -ENOMEM;
	}
	return 0;
}

/*
 * After a signal, the values are restored first; then the workload that was
 * running: it had the signal forwarded, and gets 3 s before SIGKILL.
 */
static void end_orphan(struct exp *e)
{
	pid_t pid = e->orphan;
	int status;

	if (pid <= 0)
		return;
	for (int i = 0; i < 300; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			e->orphan = 0;
			return;
		}
		nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
	}
	cli_warn(e->cli, "experiment: %s (pid %d) did not end 3 s after the signal; killed", e->cmd[0], (int)pid);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	e->orphan = 0;
}

static void describe_status(int status, char *b, size_t size)
{
	if (WIFSIGNALED(status))
		snprintf(b, size, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(b, size, "exited with status %d", WEXITSTATUS(status));
}

/* The workqueues under test in this run's counters; adds them to the run's JSON. */
static void record_counters(struct exp *e, struct cell *c, size_t slot, struct wq_mon *m, double secs, json_object *run)
{
	const struct wq_mon_row *rows;
	json_object *arr;
	size_t n;
	double q = 0, t = 0, w99 = -1;

	if (!e->trace || wq_mon_summary(m, secs, &rows, &n) < 0) {
		c->counted = false;
		return;
	}
	arr = json_object_new_array();
	for (size_t k = 0; k < e->nk; k++) {
		const struct wq_mon_row *r = NULL;
		json_object *o;
		bool dup = false;

		if (!e->k[k].tp[0])
			continue;
		for (size_t j = 0; j < k; j++)
			dup |= !strcmp(e->k[j].tp, e->k[k].tp);
		if (dup)
			continue;
		for (size_t i = 0; i < n && !r; i++)
			if (!strcmp(rows[i].name, e->k[k].tp))
				r = &rows[i];
		o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(e->k[k].tp));
		json_object_object_add(o, "queued", json_object_new_int64(r ? (int64_t)r->queued : 0));
		json_object_object_add(o, "throttled", json_object_new_int64(r ? (int64_t)r->throttled : 0));
		json_object_object_add(o, "wait_p50_us",
				       r && r->wait_p50 >= 0 ? jnum((double)r->wait_p50 / 1e3) : NULL);
		json_object_object_add(o, "wait_p99_us",
				       r && r->wait_p99 >= 0 ? jnum((double)r->wait_p99 / 1e3) : NULL);
		json_object_object_add(o, "run_p50_us", r && r->run_p50 >= 0 ? jnum((double)r->run_p50 / 1e3) : NULL);
		json_object_object_add(o, "run_p99_us", r && r->run_p99 >= 0 ? jnum((double)r->run_p99 / 1e3) : NULL);
		json_object_array_add(arr, o);
		if (r) {
			q += (double)r->queued;
			t += (double)r->throttled;
			if (r->wait_p99 >= 0 && (double)r->wait_p99 / 1e3 > w99)
				w99 = (double)r->wait_p99 / 1e3;
		}
	}
	json_object_object_add(run, "workqueues", arr);
	c->queued[slot] = q;
	c->throttled[slot] = t;
	c->wait99[slot] = w99;
}

/* One run of one cell: write, run, measure. EXIT_OK or an exit code after the error. */
static int one_run(struct exp *e, struct cell *c, long round, size_t order, bool measured)
{
	struct cli *cli = e->cli;
	struct wq_mon *m = NULL;
	struct run_out o;
	json_object *fio = NULL, *run;
	double value = 0;
	char why[512], st[96];
	int rc, r;

	rc = write_cell(e, c);
	if (rc)
		return rc;
	if (e->trace) {
		/* what was traced before this run is not this run's */
		struct wq_mon *junk = wq_mon_new();

		if (junk)
			wq_trace_flush(e->trace, junk);
		wq_mon_free(junk);
		m = wq_mon_new();
	}
	r = run_workload(e, m, &o);
	if (r < 0) {
		wq_mon_free(m);
		return EXIT_FAIL;
	}
	if (got_signal || e->orphan) {
		wq_mon_free(m);
		run_out_free(&o);
		return EXIT_FAIL;
	}
	if (o.status != 0) {
		describe_status(o.status, st, sizeof(st));
		cli_err(cli, "experiment: %s run %ld (%s): %s %s", measured ? "measured" : "warm-up", round + 1,
			c->label, e->cmd[0], st);
		wq_mon_free(m);
		run_out_free(&o);
		return EXIT_FAIL;
	}
	if (o.truncated)
		cli_warn(cli, "experiment: the workload printed more than %lu MiB; the rest is not read",
			 MAX_OUTPUT >> 20);
	r = metric_extract(&e->metric, o.buf, o.len, o.wall, &value, &fio, why, sizeof(why));
	if (r < 0) {
		cli_err(cli, "experiment: run %ld (%s): metric %s: %s", round + 1, c->label, e->metric.spec, why);
		wq_mon_free(m);
		run_out_free(&o);
		return EXIT_FAIL;
	}
	if (!measured) {
		if (fio)
			json_object_put(fio);
		wq_mon_free(m);
		run_out_free(&o);
		return EXIT_OK;
	}
	run = json_object_new_object();
	json_object_object_add(run, "round", json_object_new_int64(round + 1));
	json_object_object_add(run, "order", json_object_new_int64((int64_t)order + 1));
	json_object_object_add(run, "metric", jnum(value));
	json_object_object_add(run, "wall_s", jnum(o.wall));
	c->val[c->n] = value;
	c->wall[c->n] = o.wall;
	record_counters(e, c, c->n, m, o.wall, run);
	if (fio)
		json_object_object_add(run, "fio", fio);
	json_object_array_add(c->runs, run);
	c->n++;
	if (cli->verbose || isatty(STDERR_FILENO)) {
		char v[32];

		fmt_num(v, sizeof(v), value);
		fprintf(stderr, "wqctl: experiment: run %zu: %s: %s %s, %.2f s\n", order + 1, c->label, v,
			e->metric.unit ? e->metric.unit : "", o.wall);
	}
	wq_mon_free(m);
	run_out_free(&o);
	return EXIT_OK;
}

static int run_all(struct exp *e)
{
	size_t *perm = calloc(e->ncells, sizeof(*perm)), order = 0;
	uint64_t state = e->seed;
	int rc = EXIT_OK;

	if (!perm)
		return EXIT_FAIL;
	for (long round = -e->warmup; round < e->runs && rc == EXIT_OK && !got_signal; round++) {
		for (size_t i = 0; i < e->ncells; i++)
			perm[i] = i;
		wq_shuffle(perm, e->ncells, &state);
		for (size_t i = 0; i < e->ncells && rc == EXIT_OK && !got_signal; i++) {
			rc = one_run(e, &e->cells[perm[i]], round < 0 ? round + e->warmup : round, order, round >= 0);
			if (round >= 0)
				order++;
		}
	}
	free(perm);
	return rc;
}

/* --- results ------------------------------------------------------------- */

enum {
	COL_SETTING,
	COL_RUNS,
	COL_BASELINE,
	COL_MEDIAN,
	COL_MIN,
	COL_MAX,
	COL_DIFF,
	COL_WALL,
	COL_QUEUED,
	COL_THROTTLED,
	COL_WAIT_P99,
	COL_NOTE,
};

static const struct colinfo cols[] = {
    [COL_SETTING] = {"SETTING", 0.3, 0, SCOLS_JSON_STRING, "the setting: workqueue attribute=value, or profile"},
    [COL_RUNS] = {"RUNS", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "measured runs"},
    [COL_BASELINE] = {"BASELINE", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		      "median of the saved baseline's runs (--compare)"},
    [COL_MEDIAN] = {"MEDIAN", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "median of the metric over the runs"},
    [COL_MIN] = {"MIN", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "lowest run"},
    [COL_MAX] = {"MAX", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "highest run"},
    [COL_DIFF] = {"DIFF", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_STRING,
		  "median against the first setting (--compare: against the baseline), in percent"},
    [COL_WALL] = {"WALL", 0.06, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "median wall time of a run, seconds"},
    [COL_QUEUED] = {"QUEUED", 0.06, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		    "work items the workqueues under test queued in a run (median)"},
    [COL_THROTTLED] = {"THROTTLED", 0.06, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		       "of those, held back by max_active (median)"},
    [COL_WAIT_P99] = {"WAIT_P99", 0.06, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		      "queue-to-start time, 99th percentile, microseconds (median over runs)"},
    [COL_NOTE] = {"NOTE", 0.2, 0, SCOLS_JSON_STRING,
		  "baseline; no claimed difference where the ranges overlap; better or worse (--compare: "
		  "regressed, improved, within noise)"},
};

#define DEFAULT_COLS "SETTING,RUNS,MEDIAN,MIN,MAX,DIFF,WALL,QUEUED,THROTTLED,WAIT_P99,NOTE"
#define COMPARE_COLS "SETTING,RUNS,BASELINE,MEDIAN,MIN,MAX,DIFF,NOTE"

static int compute(struct exp *e)
{
	for (size_t i = 0; i < e->ncells; i++) {
		struct cell *c = &e->cells[i];

		if (c->n == 0 || wq_stat_compute(c->val, c->n, &c->st) < 0) {
			cli_err(e->cli, "experiment: %s: no measured run", c->label);
			return EXIT_FAIL;
		}
	}
	return EXIT_OK;
}

static double median_of(const double *v, size_t n)
{
	struct wq_stat s;

	return n && wq_stat_compute(v, n, &s) == 0 ? s.median : NAN;
}

static const char *note_of(const struct exp *e, const struct cell *c)
{
	const struct cell *b = &e->cells[0];

	if (e->loaded)
		return c->has_base ? wq_verdict_name(
					 wq_stat_verdict(&c->base_st, &c->st, e->metric.higher_is_better, e->threshold))
				   : "not in the baseline";
	if (c == b)
		return "baseline";
	if (wq_stat_overlap(&b->st, &c->st))
		return "ranges overlap: no claimed difference";
	return (c->st.median > b->st.median) == e->metric.higher_is_better ? "better than the baseline"
									   : "worse than the baseline";
}

static void set_num(struct out *o, struct libscols_line *ln, int id, double v)
{
	char b[32];

	if (!isfinite(v)) {
		out_set(o, ln, id, NULL);
		return;
	}
	fmt_num(b, sizeof(b), v);
	out_set(o, ln, id, b);
}

/* A median of counts: whole unless it falls between two. */
static void set_count(struct out *o, struct libscols_line *ln, int id, double v)
{
	if (!isfinite(v))
		out_set(o, ln, id, NULL);
	else if (v == floor(v))
		out_setf(o, ln, id, "%.0f", v);
	else
		out_setf(o, ln, id, "%.1f", v);
}

static int print_table(struct exp *e)
{
	struct out o;
	int rc = out_init(&o, e->cli, cols, ARRAY_SIZE(cols), e->loaded ? COMPARE_COLS : DEFAULT_COLS,
			  "WQCTL_EXPERIMENT_COLUMNS", "settings");

	if (rc)
		return rc;
	for (size_t i = 0; i < e->ncells; i++) {
		struct cell *c = &e->cells[i];
		struct libscols_line *ln = out_line(&o);
		double ref = e->loaded ? (c->has_base ? c->base_st.median : NAN) : e->cells[0].st.median;
		double d = wq_stat_reldiff(ref, c->st.median);

		if (!ln) {
			out_free(&o);
			return EXIT_FAIL;
		}
		out_set(&o, ln, COL_SETTING, c->label);
		out_setf(&o, ln, COL_RUNS, "%zu", c->n);
		set_num(&o, ln, COL_BASELINE, c->has_base ? c->base_st.median : NAN);
		set_num(&o, ln, COL_MEDIAN, c->st.median);
		set_num(&o, ln, COL_MIN, c->st.min);
		set_num(&o, ln, COL_MAX, c->st.max);
		if ((!e->loaded && i == 0) || !isfinite(d))
			out_set(&o, ln, COL_DIFF, NULL);
		else
			out_setf(&o, ln, COL_DIFF, "%+.1f%%", d);
		set_num(&o, ln, COL_WALL, median_of(c->wall, c->n));
		set_count(&o, ln, COL_QUEUED, c->counted ? median_of(c->queued, c->n) : NAN);
		set_count(&o, ln, COL_THROTTLED, c->counted ? median_of(c->throttled, c->n) : NAN);
		{
			double w = c->counted ? median_of(c->wait99, c->n) : NAN;

			set_num(&o, ln, COL_WAIT_P99, w >= 0 ? w : NAN);
		}
		out_set(&o, ln, COL_NOTE, note_of(e, c));
	}
	rc = out_print(&o);
	out_free(&o);
	return rc;
}

static json_object *jstat(const struct wq_stat *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "median", jnum(s->median));
	json_object_object_add(o, "min", jnum(s->min));
	json_object_object_add(o, "max", jnum(s->max));
	json_object_object_add(o, "q1", jnum(s->q1));
	json_object_object_add(o, "q3", jnum(s->q3));
	json_object_object_add(o, "mean", jnum(s->mean));
	return o;
}

static json_object *jstrv(char **v, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	return a;
}

/* The whole experiment: what -J prints and --save keeps (the runs move into it). */
static json_object *document(struct exp *e, bool restored)
{
	json_object *doc = json_object_new_object(), *spec = json_object_new_object(), *arr, *m;
	char desc[300], seed[32];

	json_object_object_add(doc, "kernel", json_object_new_string(e->cli->ctx->kver.release));
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)e->seed);
	json_object_object_add(doc, "seed", json_object_new_string(seed));
	/* what --compare needs to run the same experiment again */
	json_object_object_add(spec, "set", jstrv(e->sets, e->nsets));
	json_object_object_add(spec, "profile", e->profiles ? json_object_new_string(e->profiles) : NULL);
	json_object_object_add(spec, "runs", json_object_new_int64(e->runs));
	json_object_object_add(spec, "warmup", json_object_new_int64(e->warmup));
	json_object_object_add(spec, "command", jstrv(e->cmd, e->ncmd));
	{
		_cleanup_free_ char *here = e->cwd ? NULL : getcwd(NULL, 0);
		const char *cwd = e->cwd ? e->cwd : here;

		/* --compare runs it there again, wherever it is typed */
		json_object_object_add(spec, "cwd", cwd ? json_object_new_string(cwd) : NULL);
	}
	json_object_object_add(doc, "spec", spec);
	m = json_object_new_object();
	metric_describe(&e->metric, desc, sizeof(desc));
	json_object_object_add(m, "name", json_object_new_string(e->metric.spec));
	json_object_object_add(m, "unit", json_object_new_string(e->metric.unit ? e->metric.unit : ""));
	json_object_object_add(m, "better", json_object_new_string(e->metric.higher_is_better ? "higher" : "lower"));
	json_object_object_add(m, "description", json_object_new_string(desc));
	json_object_object_add(doc, "metric", m);
	if (e->loaded)
		json_object_object_add(doc, "threshold_pct", jnum(e->threshold));
	arr = json_object_new_array();
	for (size_t i = 0; i < e->ncells; i++) {
		struct cell *c = &e->cells[i];
		json_object *o = json_object_new_object(), *w = json_object_new_array();
		double ref = e->loaded ? (c->has_base ? c->base_st.median : NAN) : e->cells[0].st.median;

		json_object_object_add(o, "setting", json_object_new_string(c->label));
		for (size_t k = 0; k < c->nw; k++) {
			json_object *x = json_object_new_object();

			json_object_object_add(x, "object", json_object_new_string(e->k[c->w[k]->key].object));
			json_object_object_add(x, "value", json_object_new_string(c->w[k]->shown));
			json_object_object_add(x, "write", json_object_new_string(c->w[k]->value));
			json_object_array_add(w, x);
		}
		json_object_object_add(o, "writes", w);
		json_object_object_add(o, "stats", jstat(&c->st));
		json_object_object_add(o, "diff_pct",
				       (!e->loaded && i == 0) ? NULL : jnum(wq_stat_reldiff(ref, c->st.median)));
		if (e->loaded && c->has_base)
			json_object_object_add(o, "baseline", jstat(&c->base_st));
		json_object_object_add(o, "note", json_object_new_string(note_of(e, c)));
		json_object_object_add(o, "runs", c->runs);
		c->runs = NULL;
		json_object_array_add(arr, o);
	}
	json_object_object_add(doc, "settings", arr);
	json_object_object_add(doc, "restored", json_object_new_boolean(restored));
	return doc;
}

static bool name_ok(const char *n)
{
	if (!*n || strlen(n) > 64 || n[0] == '.')
		return false;
	for (const char *p = n; *p; p++)
		if (!(*p == '-' || *p == '_' || *p == '.' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z')))
			return false;
	return true;
}

static void fill_doc(FILE *f, const void *data)
{
	fputs(json_object_to_json_string_ext((json_object *)data, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
								      JSON_C_TO_STRING_NOSLASHESCAPE),
	      f);
	fputc('\n', f);
}

static int save_doc(struct exp *e, json_object *doc)
{
	char rel[160];
	int r = wq_root_mkdirs(e->cli->ctx->root, EXPERIMENTS_DIR);

	snprintf(rel, sizeof(rel), EXPERIMENTS_DIR "/%s.json", e->save);
	if (r == 0)
		r = wq_root_replace(e->cli->ctx->root, rel, 0644, fill_doc, doc);
	if (r < 0) {
		cli_err(e->cli, "%s: cannot save the experiment: %s", rel, wq_strerror(-r));
		return EXIT_FAIL;
	}
	cli_info(e->cli, "experiment: saved as %s", rel);
	return EXIT_OK;
}

/* --- baselines ----------------------------------------------------------- */

/*
 * Read a saved experiment and take its spec as this run's. The file is run
 * as root's command, so it must be root's alone as a profile is (owner,
 * mode, every directory on its path), and every field is checked.
 */
static int load_baseline(struct exp *e)
{
	struct cli *cli = e->cli;
	char rel[160], why[PATH_MAX + 64];
	_cleanup_free_ char *text = NULL;
	struct wq_saved_exp *b = &e->base;
	int fd, r;

	snprintf(rel, sizeof(rel), EXPERIMENTS_DIR "/%s.json", e->compare);
	fd = wq_root_open_file(cli->ctx->root, rel, O_RDONLY, 0);
	if (fd < 0) {
		cli_err(cli, "%s: cannot read the baseline: %s", rel,
			fd == -ENOENT ? "no such experiment (saved with --save NAME)" : wq_strerror(-fd));
		return fd == -ENOENT ? EXIT_USAGE : EXIT_FAIL;
	}
	r = wq_fd_trusted(fd, why, sizeof(why));
	if (r < 0) {
		cli_err(cli, "%s: refusing to run its command: %s", rel, r == -EPERM ? why : wq_strerror(-r));
		close(fd);
		return EXIT_FAIL;
	}
	r = wq_fd_read(fd, &text);
	close(fd);
	if (r < 0) {
		cli_err(cli, "%s: %s: %s", rel,
			r == -EFBIG || r == -WQ_ENUL ? "not a saved experiment" : "cannot read the baseline",
			r == -EFBIG ? "larger than 16 MiB" : wq_strerror(-r));
		return EXIT_FAIL;
	}
	r = wq_saved_exp_parse(text, strlen(text), b, why, sizeof(why));
	if (r < 0) {
		cli_err(cli, "%s: not a saved experiment: %s", rel, r == -EINVAL ? why : wq_strerror(-r));
		return EXIT_FAIL;
	}
	e->loaded = true;
	/* the spec moves into this run's (exp_free frees it there) */
	e->sets = b->sets;
	e->nsets = b->nsets;
	e->profiles = b->profiles;
	e->cmd = b->cmd;
	e->ncmd = b->ncmd;
	e->cwd = b->cwd;
	b->sets = b->cmd = NULL;
	b->profiles = b->cwd = NULL;
	e->runs = b->runs;
	e->warmup = b->warmup;
	e->metric.better_given = true;
	e->metric.higher_is_better = b->higher_is_better;
	r = metric_parse(&e->metric, b->metric, why, sizeof(why));
	if (r < 0) {
		cli_err(cli, "%s: metric: %s", rel, why);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* Match each cell with the baseline's runs of the same setting. */
static int attach_baseline(struct exp *e)
{
	for (size_t i = 0; i < e->ncells; i++) {
		struct cell *c = &e->cells[i];

		for (size_t j = 0; j < e->base.nsettings; j++) {
			const struct wq_saved_setting *s = &e->base.settings[j];

			if (!strcmp(s->label, c->label))
				c->has_base = s->n > 0 && wq_stat_compute(s->metric, s->n, &c->base_st) == 0;
		}
	}
	return EXIT_OK;
}

/* --- plot ---------------------------------------------------------------- */

static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	_cleanup_free_ char *copy = strdup(path ? path : "/usr/bin:/bin");
	char *save = NULL;

	if (!copy)
		return false;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char f[4096];

		snprintf(f, sizeof(f), "%s/%s", *d ? d : ".", prog);
		if (access(f, X_OK) == 0)
			return true;
	}
	return false;
}

/*
 * A gnuplot string that is only text: single-quoted, where gnuplot expands
 * neither backquotes (a command) nor @macros nor backslashes; a quote is
 * doubled, a control character (which would end the line) shown as '?'.
 */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
	}
	fputc('\'', f);
}

/* Can --plot's file be written? Checked before the first run, so that no result is lost to a typo. */
static int plot_writable(struct cli *cli, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);

	if (fd >= 0) {
		close(fd);
		unlink(path);
		return EXIT_OK;
	}
	if (errno == EEXIST && access(path, W_OK) == 0)
		return EXIT_OK;
	cli_err(cli, "experiment: --plot %s: cannot write: %s", path, strerror(errno));
	return EXIT_USAGE;
}

/*
 * Box plot per setting (quartiles and whiskers to min and max, the median
 * as a bar) with every run as a dot, drawn by gnuplot's svg terminal.
 */
static int plot(struct exp *e)
{
	char dir[] = "/tmp/wqctl-plot.XXXXXX", data[64], script[64];
	char desc[300];
	FILE *f = NULL;
	int rc = EXIT_FAIL, status;
	pid_t pid;

	if (!mkdtemp(dir)) {
		cli_err(e->cli, "experiment: --plot: temporary directory: %s", strerror(errno));
		return EXIT_FAIL;
	}
	snprintf(data, sizeof(data), "%s/runs", dir);
	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	f = fopen(data, "w");
	if (!f)
		goto out;
	/* block 0: one line per setting (x q1 min max q3 median); block 1: every run (x value) */
	for (size_t i = 0; i < e->ncells; i++)
		fprintf(f, "%zu %.9g %.9g %.9g %.9g %.9g\n", i, e->cells[i].st.q1, e->cells[i].st.min,
			e->cells[i].st.max, e->cells[i].st.q3, e->cells[i].st.median);
	fprintf(f, "\n\n");
	for (size_t i = 0; i < e->ncells; i++)
		for (size_t r = 0; r < e->cells[i].n; r++)
			fprintf(f, "%zu %.9g\n", i, e->cells[i].val[r]);
	fprintf(f, "\n\n");
	for (size_t i = 0; i < e->ncells; i++)
		if (e->cells[i].has_base)
			fprintf(f, "%zu %.9g\n", i, e->cells[i].base_st.median);
	fprintf(f, "%s", "\n");
	if (fclose(f))
		goto out;
	f = fopen(script, "w");
	if (!f)
		goto out;
	metric_describe(&e->metric, desc, sizeof(desc));
	fprintf(f, "set terminal svg size %zu,480 dynamic noenhanced font 'sans,11'\nset output ",
		e->ncells * 140 + 260 < 640 ? 640 : e->ncells * 140 + 260);
	gp_string(f, e->plot);
	fprintf(f, "\nset ylabel ");
	gp_string(f, desc);
	fprintf(f, "\nset title ");
	gp_string(f, e->loaded ? "wqctl experiment --compare (x: saved baseline median)" : "wqctl experiment");
	fprintf(f,
		"\nset xrange [-0.6:%zu.6]\nset boxwidth 0.5\nset style fill empty\nset key off\n"
		"set grid ytics\nset xtics (",
		e->ncells - 1);
	for (size_t i = 0; i < e->ncells; i++) {
		if (i)
			fputs(", ", f);
		gp_string(f, e->cells[i].label);
		fprintf(f, " %zu", i);
	}
	fprintf(f, ") rotate by -20\n");
	fprintf(f,
		"plot '%s' index 0 using 1:2:3:4:5 with candlesticks whiskerbars lc rgb '#1f5fa8' lw 1.5, \\\n"
		"  '' index 0 using 1:6:6:6:6 with candlesticks lc rgb '#1f5fa8' lw 3, \\\n"
		"  '' index 1 using 1:2 with points pt 7 ps 0.6 lc rgb '#d2691e'",
		data);
	if (e->loaded)
		fprintf(f, ", \\\n  '' index 2 using 1:2 with points pt 2 ps 1.5 lc rgb '#555555'");
	fputc('\n', f);
	if (fclose(f))
		goto out;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		rc = EXIT_OK;
		cli_info(e->cli, "experiment: plot written to %s", e->plot);
	} else {
		cli_err(e->cli, "%s: gnuplot could not draw the plot", e->plot);
	}
out:
	if (rc && f == NULL)
		cli_err(e->cli, "experiment: --plot: %s: %s", dir, strerror(errno));
	unlink(data);
	unlink(script);
	rmdir(dir);
	return rc;
}

/* --- set-up -------------------------------------------------------------- */

static int number(struct cli *cli, const char *opt, const char *arg, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi) {
		cli_err(cli, "experiment: %s '%s': expected a number from %ld to %ld", opt, arg, lo, hi);
		return EXIT_USAGE;
	}
	*out = v;
	return EXIT_OK;
}

static int parse_args(struct exp *e, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"set", required_argument, NULL, 's'},     {"profile", required_argument, NULL, 'p'},
	    {"runs", required_argument, NULL, 'n'},    {"warmup", required_argument, NULL, 'w'},
	    {"seed", required_argument, NULL, 'S'},    {"metric", required_argument, NULL, 'm'},
	    {"better", required_argument, NULL, 'b'},  {"save", required_argument, NULL, 'a'},
	    {"compare", required_argument, NULL, 'c'}, {"threshold", required_argument, NULL, 't'},
	    {"plot", required_argument, NULL, 'P'},    {"force", no_argument, NULL, 'f'},
	    {"no-monitor", no_argument, NULL, 'M'},    {NULL, 0, NULL, 0},
	};
	struct cli *cli = e->cli;
	const char *metric = NULL, *better = NULL;
	bool runs_given = false;
	char why[300];
	int c, rc;
	long v;

	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 's': {
			char **ns;

			if (e->nsets + 1 >= WQ_EXP_MAX_AXES) {
				cli_err(cli, "experiment: more than %d --set axes", WQ_EXP_MAX_AXES - 1);
				return EXIT_USAGE;
			}
			ns = realloc(e->sets, sizeof(char *) * (e->nsets + 2));

			if (!ns)
				return EXIT_FAIL;
			e->sets = ns;
			ns[e->nsets++] = strdup(optarg);
			ns[e->nsets] = NULL;
			break;
		}
		case 'p':
			if (e->profiles) {
				cli_err(cli, "experiment: --profile given twice (one list: --profile a,b,none)");
				return EXIT_USAGE;
			}
			e->profiles = strdup(optarg);
			break;
		case 'n':
			if ((rc = number(cli, "--runs", optarg, 1, WQ_EXP_MAX_RUNS, &e->runs)))
				return rc;
			runs_given = true;
			break;
		case 'w':
			if ((rc = number(cli, "--warmup", optarg, 0, WQ_EXP_MAX_WARMUP, &e->warmup)))
				return rc;
			break;
		case 'S': {
			char *end;

			errno = 0;
			e->seed = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-') {
				cli_err(cli, "experiment: --seed '%s': expected an unsigned number", optarg);
				return EXIT_USAGE;
			}
			e->seed_given = true;
			break;
		}
		case 'm': metric = optarg; break;
		case 'b': better = optarg; break;
		case 'a': e->save = optarg; break;
		case 'c': e->compare = optarg; break;
		case 't':
			if ((rc = number(cli, "--threshold", optarg, 0, 1000, &v)))
				return rc;
			e->threshold = (double)v;
			break;
		case 'P': e->plot = optarg; break;
		case 'f': e->force = true; break;
		case 'M': e->monitor = false; break;
		default:
			cli_err(cli, "experiment: %s: unknown option or missing argument", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	for (int i = optind; i < argc; i++) {
		char **nc = realloc(e->cmd, sizeof(char *) * (e->ncmd + 2));

		if (!nc)
			return EXIT_FAIL;
		e->cmd = nc;
		nc[e->ncmd++] = strdup(argv[i]);
		nc[e->ncmd] = NULL;
	}
	if (cli->list_columns)
		return EXIT_OK;
	if (e->save && e->compare) {
		cli_err(cli, "experiment: --save and --compare exclude each other");
		return EXIT_USAGE;
	}
	if (e->compare) {
		if (e->nsets || e->profiles || e->ncmd || metric || better || runs_given || e->warmup) {
			cli_err(cli, "experiment: --compare re-runs the saved experiment as it was: give no --set, "
				     "--profile, --runs, --warmup, --metric, --better or command");
			return EXIT_USAGE;
		}
		if (!name_ok(e->compare)) {
			cli_err(cli, "experiment: --compare '%s': a name is letters, digits, '.', '_' and '-'",
				e->compare);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	}
	if (e->save && !name_ok(e->save)) {
		cli_err(cli, "experiment: --save '%s': a name is letters, digits, '.', '_' and '-'", e->save);
		return EXIT_USAGE;
	}
	if (!e->nsets && !e->profiles) {
		cli_err(cli, "experiment: nothing to compare: give --set 'WQ ATTR=V1,V2' or --profile a,b");
		return EXIT_USAGE;
	}
	if (!e->ncmd) {
		cli_err(cli, "experiment: no workload: put the command after --");
		return EXIT_USAGE;
	}
	if (better && metric_set_better(&e->metric, better) < 0) {
		cli_err(cli, "experiment: --better '%s': expected higher or lower", better);
		return EXIT_USAGE;
	}
	if (metric_parse(&e->metric, metric, why, sizeof(why)) < 0) {
		cli_err(cli, "experiment: --metric '%s': %s", metric, why);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static void exp_free(struct exp *e)
{
	for (size_t i = 0; i < e->nk; i++) {
		free(e->k[i].object);
		free(e->k[i].path);
		free(e->k[i].orig);
		free(e->k[i].restore);
	}
	free(e->k);
	for (size_t a = 0; a < e->nax; a++) {
		for (size_t c = 0; c < e->ax[a].nc; c++) {
			for (size_t w = 0; w < e->ax[a].c[c].nw; w++) {
				free(e->ax[a].c[c].w[w].value);
				free(e->ax[a].c[c].w[w].shown);
			}
			free(e->ax[a].c[c].w);
			free(e->ax[a].c[c].label);
		}
		free(e->ax[a].c);
	}
	free(e->ax);
	for (size_t i = 0; i < e->ncells; i++) {
		struct cell *c = &e->cells[i];

		free(c->label);
		free(c->w);
		free(c->val);
		free(c->wall);
		free(c->queued);
		free(c->throttled);
		free(c->wait99);
		if (c->runs)
			json_object_put(c->runs);
	}
	free(e->cells);
	for (size_t i = 0; i < e->nsets; i++)
		free(e->sets[i]);
	free(e->sets);
	for (size_t i = 0; i < e->ncmd; i++)
		free(e->cmd[i]);
	free(e->cmd);
	free(e->profiles);
	metric_free(&e->metric);
	wq_saved_exp_free(&e->base);
	free(e->cwd);
	if (e->trace)
		wq_trace_close(e->trace);
}

static uint64_t fresh_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	/* a printable seed a person can type again */
	return ((uint64_t)ts.tv_sec * 1000003u + (uint64_t)ts.tv_nsec / 1000u + (uint64_t)getpid()) % 1000000000u;
}

static int run(struct cli *cli, int argc, char **argv)
{
	struct exp e = {.cli = cli, .runs = 5, .monitor = true, .threshold = 5};
	struct sigaction sa = {.sa_handler = on_signal}, old[3];
	int rc, rrc = EXIT_OK, sigs[] = {SIGINT, SIGTERM, SIGHUP};
	json_object *doc = NULL;
	char desc[300];
	bool was_auto;

	rc = parse_args(&e, argc, argv);
	if (rc)
		goto out;
	if (cli->list_columns) {
		rc = out_list_columns(cli, cols, ARRAY_SIZE(cols));
		goto out;
	}
	if (!cli->json) {
		/* the columns are checked before anything is written */
		struct out o;

		rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), e.compare ? COMPARE_COLS : DEFAULT_COLS,
			      "WQCTL_EXPERIMENT_COLUMNS", "settings");
		if (rc)
			goto out;
		out_free(&o);
	}
	if (e.plot && !in_path("gnuplot")) {
		cli_err(cli, "experiment: --plot needs gnuplot (Debian: apt install gnuplot-nox)");
		rc = EXIT_FAIL;
		goto out;
	}
	if (e.plot && (rc = plot_writable(cli, e.plot)))
		goto out;
	if (!cli_ctx(cli)) {
		rc = EXIT_FAIL;
		goto out;
	}
	if (e.compare && (rc = load_baseline(&e)))
		goto out;
	if (e.cwd) {
		int dfd = open(e.cwd, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (dfd < 0) {
			cli_err(cli, "experiment: %s ran in %s: %s", e.compare, e.cwd, strerror(errno));
			rc = EXIT_FAIL;
			goto out;
		}
		close(dfd);
	}
	for (size_t i = 0; i < e.nsets && rc == EXIT_OK; i++)
		rc = axis_from_set(&e, e.sets[i]);
	if (rc == EXIT_OK && e.profiles)
		rc = axis_from_profiles(&e, e.profiles);
	if (rc == EXIT_OK)
		rc = build_cells(&e);
	if (rc)
		goto out;
	if (e.compare)
		attach_baseline(&e);
	if (!e.seed_given)
		e.seed = fresh_seed();
	note_journaled(&e);

	if (e.monitor && wq_root_is_live(cli->ctx->root)) {
		char why[300];

		if (wq_trace_open(cli->ctx, WQ_TRACE_BUFFER_KB, &e.trace, why, sizeof(why)) < 0) {
			cli_warn(cli, "experiment: no workqueue counters: %s", why);
			e.trace = NULL;
		}
	}
	metric_describe(&e.metric, desc, sizeof(desc));
	was_auto = e.metric.kind == METRIC_AUTO;
	if (!cli->quiet) {
		char warm[48] = "";

		if (e.warmup)
			snprintf(warm, sizeof(warm), " after %ld warm-up round%s", e.warmup, e.warmup == 1 ? "" : "s");
		fprintf(stderr,
			"wqctl: experiment: %zu setting%s x %ld run%s%s, shuffled with --seed %llu; metric: %s\n",
			e.ncells, e.ncells == 1 ? "" : "s", e.runs, e.runs == 1 ? "" : "s", warm,
			(unsigned long long)e.seed, desc);
	}
	/* handlers before the first write: a signal must still restore */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, &old[i]);
	rc = run_all(&e);
	rrc = restore_all(&e);
	end_orphan(&e);
	if (e.trace) {
		wq_trace_close(e.trace);
		e.trace = NULL;
	}
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &old[i], NULL);
	if (got_signal) {
		int sig = got_signal;

		cli_err(cli, "experiment: interrupted by %s; %s", strsignal(sig),
			rrc == EXIT_OK ? "every value is restored" : "see above");
		exp_free(&e);
		signal(sig, SIG_DFL);
		raise(sig);
		return EXIT_FAIL;
	}
	if (rc == EXIT_OK)
		rc = compute(&e);
	if (rc == EXIT_OK && !cli->quiet && was_auto) {
		metric_describe(&e.metric, desc, sizeof(desc));
		fprintf(stderr, "wqctl: experiment: metric: %s\n", desc);
	}
	if (rc == EXIT_OK) {
		if (cli->json) {
			rc = json_print(document(&e, rrc == EXIT_OK));
		} else {
			rc = print_table(&e);
		}
	}
	if (rc == EXIT_OK && e.save) {
		doc = document(&e, rrc == EXIT_OK);
		rc = save_doc(&e, doc);
		json_object_put(doc);
	}
	if (rc == EXIT_OK && e.loaded) {
		for (size_t i = 0; i < e.ncells; i++)
			if (e.cells[i].has_base &&
			    wq_stat_verdict(&e.cells[i].base_st, &e.cells[i].st, e.metric.higher_is_better,
					    e.threshold) == WQ_VERDICT_WORSE)
				rc = EXIT_FINDINGS;
	}
	/* after the results are printed and saved, so that a plot gnuplot cannot draw loses none of them */
	if ((rc == EXIT_OK || rc == EXIT_FINDINGS) && e.plot && plot(&e) != EXIT_OK)
		rc = EXIT_FAIL;
	if (rc == EXIT_OK || rc == EXIT_FINDINGS)
		rc = rrc ? rrc : rc;
out:
	exp_free(&e);
	return rc;
}

const struct cmd cmd_experiment = {
    .name = "experiment",
    .run = run,
    .summary = "run a workload under several settings and compare a metric of it",
    .usage = "[--set 'WQ ATTR=V1,V2'...] [--profile A,B,none] [--runs N] [--warmup N] [--seed N]\n"
	     "       [--metric SPEC] [--better higher|lower] [--save NAME | --compare NAME] [--threshold PCT]\n"
	     "       [--plot FILE.svg] [--force] [--no-monitor] -- COMMAND [ARG...]",
    .options =
	"  --set 'WQ ATTR=V1,V2'  one axis: these values of one attribute (cpumask values split by '|');\n"
	"                         several --set multiply into a grid\n"
	"  --profile A,B,none     one axis of whole profiles; 'none' is the system as found\n"
	"  --runs N               measured runs per setting (default 5), interleaved in shuffled rounds\n"
	"  --warmup N             unmeasured rounds first (default 0)\n"
	"  --seed N               the shuffle's seed (default: a new one, printed)\n"
	"  --metric SPEC          wall | fio:[read.|write.]bw|iops|clat_pN | re:REGEX | json:PATH\n"
	"                         (default: fio:bw when the output is fio JSON, else wall)\n"
	"  --better higher|lower  which way is better for re: and json: metrics (default higher)\n"
	"  --save NAME            keep the result in /var/lib/wqctl/experiments/NAME.json\n"
	"  --compare NAME         run a saved experiment again; exit 3 when a setting regressed\n"
	"  --threshold PCT        --compare: noise band widened by PCT percent of the baseline median (default 5)\n"
	"  --plot FILE.svg        draw a box plot per setting with gnuplot\n"
	"  --force                allow max_active values that lower min_active (kernel >= 6.9)\n"
	"  --no-monitor           do not trace the workqueues under test\n",
};
