// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * experiment's engine: the grid of settings (axes of choices, their
 * product as cells), the writes and restores through the same commit and
 * journal as apply (so revert undoes a killed experiment), the workload run
 * in shuffled rounds with its output captured and the workqueue counters
 * kept (the kernel's hists read around each run, or every event streamed),
 * the statistics per cell, the baseline, and the document -J
 * prints and --save keeps.
 */
#define _GNU_SOURCE
#include "experiment.h"

#include <errno.h>
#include <fnmatch.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/state.h"
#include "../core/commit.h"
#include "../util/jsonc.h"
#include "kboth.h"
#include "klat.h"
#include "../util/macro.h"
#include "../core/plan.h"
#include "../core/root.h"

#define MAX_OUTPUT (64UL << 20)

/* Has a signal asked the experiment to stop (wq_exp's cancel)? */
static bool stopped(const struct wq_exp *e)
{
	return wq_cancelled(e->cancel);
}

/* The workload a signal is passed on to (0: none running). */
static void set_child(struct wq_exp *e, pid_t pid)
{
	if (e->cancel)
		e->cancel->child = pid;
}

uint64_t wq_exp_new_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	/* a printable seed a person can type again */
	return ((uint64_t)ts.tv_sec * 1000003u + (uint64_t)ts.tv_nsec / 1000u + (uint64_t)getpid()) % 1000000000u;
}

void wq_exp_init(struct wq_exp *e, struct wq_ctx *ctx)
{
	memset(e, 0, sizeof(*e));
	e->ctx = ctx;
	e->runs = 5;
	e->monitor = true;
	e->threshold = 5;
}

static json_object *jnum(double v)
{
	char b[64];

	if (!isfinite(v))
		return NULL;
	snprintf(b, sizeof(b), "%.6g", v);
	return json_object_new_double_s(v, b);
}

static int key_add(struct wq_exp *e, const char *object, const char *path, enum wq_vtype type, const char *current,
		   const char *wq, size_t *out)
{
	struct wq_exp_key *nk, *k;

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
	k->last = strdup(current ? current : "");
	k->hold = -1;
	k->type = type;
	k->global = !wq;
	if (wq) {
		snprintf(k->tp, sizeof(k->tp), "%s", wq);
		for (char *p = k->tp; *p; p++)
			if (*p == '!')
				*p = '/';
	}
	e->nk++;
	if (!k->object || !k->path || !k->orig || !k->restore || !k->last)
		return -ENOMEM;
	*out = e->nk - 1;
	return 0;
}

int wq_exp_choice_add(struct wq_exp *e, struct wq_exp_choice *c, const char *object, const char *path,
		      enum wq_vtype type, const char *current, const char *wq, const char *value, const char *shown)
{
	struct wq_exp_write *nw = realloc(c->w, sizeof(*nw) * (c->nw + 1));
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

struct wq_exp_axis *wq_exp_axis_new(struct wq_exp *e, size_t nc)
{
	struct wq_exp_axis *na = realloc(e->ax, sizeof(*na) * (e->nax + 1));

	if (!na)
		return NULL;
	e->ax = na;
	na[e->nax].nc = nc;
	na[e->nax].c = calloc(nc, sizeof(struct wq_exp_choice));
	if (!na[e->nax].c)
		return NULL;
	return &na[e->nax++];
}

/* Every combination of one choice per axis, in axis order. */
int wq_exp_build_cells(struct wq_exp *e)
{
	size_t total = 1;

	for (size_t a = 0; a < e->nax; a++) {
		total *= e->ax[a].nc;
		if (total > WQ_EXP_MAX_CELLS) {
			wq_log(e->ctx, WQ_LOG_ERR, "experiment: more than %d settings in the grid", WQ_EXP_MAX_CELLS);
			return -EINVAL;
		}
	}
	e->cells = calloc(total, sizeof(*e->cells));
	if (!e->cells)
		return -ENOMEM;
	e->ncells = total;
	for (size_t i = 0; i < total; i++) {
		struct wq_exp_cell *c = &e->cells[i];
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
			return -ENOMEM;
		for (size_t a = 0; a < e->nax; a++) {
			const struct wq_exp_choice *ch = &e->ax[a].c[pick[a]];

			if (a)
				strcat(c->label, ", ");
			strcat(c->label, ch->label);
			for (size_t w = 0; w < ch->nw; w++) {
				for (size_t o = 0; o < c->nw; o++) {
					if (c->w[o]->key == ch->w[w].key) {
						wq_log(e->ctx, WQ_LOG_ERR, "experiment: %s is set by two axes (%s)",
						       e->k[ch->w[w].key].object, c->label);
						return -EINVAL;
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
			return -ENOMEM;
		c->counted = true;
	}
	for (size_t i = 0; i < e->ncells; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(e->cells[i].label, e->cells[j].label)) {
				wq_log(e->ctx, WQ_LOG_ERR, "experiment: the setting '%s' is given twice",
				       e->cells[i].label);
				return -EINVAL;
			}
	return 0;
}

/* --- writing ------------------------------------------------------------- */

/* The current value of a key's file (trailing newline dropped), or NULL. */
static char *read_now(struct wq_exp *e, const struct wq_exp_key *k)
{
	char *v = NULL;
	size_t l;

	if (wq_value_read(e->ctx, wq_target_of(k->path), k->path, &v) < 0)
		return NULL;
	l = strlen(v);
	while (l && (v[l - 1] == '\n' || v[l - 1] == ' '))
		v[--l] = '\0';
	return v;
}

/* Does a key's file still hold what the experiment left there? */
static bool still_ours(const struct wq_exp_key *k, const char *now)
{
	return wq_value_equal(k->type, now, k->last);
}

/* A file someone else changed: from now on left as it is. */
static void mark_foreign(struct wq_exp *e, struct wq_exp_key *k, const char *now)
{
	if (k->foreign)
		return;
	k->foreign = true;
	wq_log(e->ctx, WQ_LOG_ERR,
	       "%s: changed by someone else while the experiment ran: reads '%s', the experiment left '%s'; "
	       "left as it is",
	       k->object, now, k->last);
}

/*
 * Write a cell's values, and every other key's original (cell NULL: the
 * originals only). Under the run lock, each file is first compared with
 * what the experiment left there: one someone else changed is not
 * written (a cell then fails with -EBUSY; the restore leaves it).
 */
static int write_cell(struct wq_exp *e, const struct wq_exp_cell *c)
{
	struct wq_plan plan = {0};
	bool vanished = false;
	int rc = 0, lock;

	lock = wq_lock_take(e->ctx, WQ_LOCK_WAIT_MS);
	if (lock < 0) {
		wq_log(e->ctx, WQ_LOG_ERR, "run/wqctl/lock: %s",
		       lock == -ETIMEDOUT ? "another wqctl held it for 10 s" : wq_strerror(-lock));
		return -EIO;
	}
	for (int pass = 0; pass < 2 && rc == 0; pass++) {
		/* knobs (the root cpumask) first, as apply orders them */
		for (size_t i = 0; i < e->nk && rc == 0; i++) {
			struct wq_exp_key *k = &e->k[i];
			const char *v = k->restore;
			_cleanup_free_ char *cur = NULL;

			if (k->global != (pass == 0))
				continue;
			for (size_t w = 0; c && w < c->nw; w++)
				if (c->w[w]->key == i)
					v = c->w[w]->value;
			cur = read_now(e, k);
			if (!cur) {
				wq_log(e->ctx, WQ_LOG_ERR, "%s: cannot read the current value: it vanished", k->object);
				/* restoring: the others still go back */
				if (c)
					rc = -EIO;
				else
					vanished = true;
			} else if (k->foreign || !still_ours(k, cur)) {
				mark_foreign(e, k, cur);
				if (c)
					rc = -EBUSY;
			} else if (wq_plan_add(&plan, k->object, k->path, NULL, k->type, cur, v) < 0) {
				rc = -EIO;
			}
		}
	}
	if (rc == 0 && plan.n) {
		rc = wq_plan_commit(e->ctx, &plan, WQ_LOCK_WAIT_MS, lock);
		lock = -1; /* released by the commit */
	}
	wq_lock_release(lock);
	wq_plan_free(&plan);
	/* what each file now holds, as the kernel reads it back: the next write and every run compare with it */
	for (size_t i = 0; rc == 0 && c && i < e->nk; i++) {
		char *now = e->k[i].foreign ? NULL : read_now(e, &e->k[i]);

		if (now) {
			free(e->k[i].last);
			e->k[i].last = now;
		}
	}
	return rc == 0 && vanished ? -EIO : rc;
}

/*
 * The journal entries this experiment made are dropped once the originals
 * are back (an entry from an earlier wqctl change stays, and so does one
 * of a file someone else changed meanwhile: revert still undoes those). Best effort: a leftover entry only makes revert write
 * the value that is there.
 */
static void forget_journal(struct wq_exp *e)
{
	struct wq_journal j = {0};
	int lock = wq_lock_take(e->ctx, WQ_LOCK_WAIT_MS);
	bool changed = false;

	if (lock < 0)
		return;
	if (wq_journal_read(e->ctx, &j) == 0) {
		for (size_t i = j.n; i-- > 0;) {
			for (size_t k = 0; k < e->nk; k++) {
				/* another's change keeps its entry: revert undoes that one */
				if (!e->k[k].journaled && !e->k[k].foreign && !strcmp(j.e[i].path, e->k[k].path)) {
					wq_journal_drop(&j, i);
					changed = true;
					break;
				}
			}
		}
		if (changed && wq_journal_write(e->ctx, &j) < 0)
			wq_log(e->ctx, WQ_LOG_WARNING, "run/wqctl/journal: cannot drop the experiment's entries");
	}
	wq_journal_free(&j);
	wq_lock_release(lock);
}

static void note_journaled(struct wq_exp *e)
{
	struct wq_journal j = {0};

	if (wq_journal_read(e->ctx, &j) < 0)
		return;
	for (size_t i = 0; i < j.n; i++)
		for (size_t k = 0; k < e->nk; k++)
			if (!strcmp(j.e[i].path, e->k[k].path))
				e->k[k].journaled = true;
	wq_journal_free(&j);
}

/* Write every original back and check that each reads back as it was. */
static int restore_all(struct wq_exp *e)
{
	int rc = write_cell(e, NULL);

	if (rc == 0) {
		for (size_t i = 0; i < e->nk; i++) {
			_cleanup_free_ char *now = read_now(e, &e->k[i]);
			struct wq_change ch = {.type = e->k[i].type, .old = now, .new = e->k[i].restore};

			if (e->k[i].foreign) {
				wq_log(e->ctx, WQ_LOG_WARNING,
				       "%s: left alone: changed since the experiment wrote it (was '%s')",
				       e->k[i].object, e->k[i].orig);
				continue;
			}
			if (!now || !wq_change_is_noop(&ch)) {
				wq_log(e->ctx, WQ_LOG_ERR, "%s: not restored: reads '%s', was '%s'", e->k[i].object,
				       now ? now : "(unreadable)", e->k[i].orig);
				rc = -EIO;
			}
		}
	}
	if (rc == 0)
		forget_journal(e);
	else
		wq_log(e->ctx, WQ_LOG_ERR,
		       "experiment: not every value could be restored (see above); 'wqctl revert' writes the originals "
		       "from the journal");
	return rc;
}

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
static int run_workload(struct wq_exp *e, struct wq_mon *m, struct run_out *o)
{
	int pfd[2], status = 0, pidfd;
	bool open_ = true, exited = false;
	double start;
	pid_t pid;

	memset(o, 0, sizeof(*o));
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		wq_log(e->ctx, WQ_LOG_ERR, "experiment: pipe: %s", strerror(errno));
		return -errno;
	}
	fflush(NULL);
	start = wq_mono_now();
	pid = fork();
	if (pid < 0) {
		int err = errno;

		close(pfd[0]);
		close(pfd[1]);
		wq_log(e->ctx, WQ_LOG_ERR, "experiment: fork: %s", strerror(err));
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
	set_child(e, pid);
	close(pfd[1]);
	pidfd = pid_fd(pid);
	while (!exited && !stopped(e)) {
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
			o->wall = wq_mono_now() - start;
			set_child(e, 0);
		}
		if (e->trace && m && !stopped(e))
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
			wq_log(e->ctx, WQ_LOG_WARNING,
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
static void end_orphan(struct wq_exp *e)
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
	wq_log(e->ctx, WQ_LOG_WARNING, "experiment: %s (pid %d) did not end 3 s after the signal; killed", e->cmd[0],
	       (int)pid);
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

/* Is name (as the tracepoints carry it) one of the workqueues a key sets? */
static bool under_test(const struct wq_exp *e, const char *name)
{
	for (size_t k = 0; k < e->nk; k++)
		if (e->k[k].tp[0] && !strcmp(e->k[k].tp, name))
			return true;
	return false;
}

static bool watched(const struct wq_exp *e, const char *name)
{
	for (size_t i = 0; i < e->nwatch; i++)
		if (fnmatch(e->watch[i], name, 0) == 0)
			return true;
	return false;
}

/* The counters' filter: the workqueues a run records (record_counters), no others read. */
static bool recorded(const char *name, void *arg)
{
	return under_test(arg, name) || watched(arg, name);
}

/*
 * The workqueues under test in this run's counters, then those --watch names
 * that did work (each once); adds them to the run's JSON.
 */
static void record_counters(struct wq_exp *e, struct wq_exp_cell *c, size_t slot, const struct wq_mon_row *rows,
			    size_t n, json_object *run)
{
	json_object *arr;
	double q = 0, t = 0, w99 = -1;

	if (!rows) {
		c->counted = false;
		return;
	}
	arr = json_object_new_array();
	for (size_t k = 0; k < e->nk + n; k++) {
		const struct wq_mon_row *r = NULL;
		const char *name;
		json_object *o;
		bool dup = false;

		if (k < e->nk) {
			name = e->k[k].tp;
			if (!name[0])
				continue;
			for (size_t j = 0; j < k; j++)
				dup |= !strcmp(e->k[j].tp, name);
			if (dup)
				continue;
			for (size_t i = 0; i < n && !r; i++)
				if (!strcmp(rows[i].name, name))
					r = &rows[i];
		} else {
			/* a watched workqueue: only as the tracepoints saw it, never one a key sets */
			r = &rows[k - e->nk];
			name = r->name;
			if (!watched(e, name) || under_test(e, name))
				continue;
		}
		o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(name));
		if (k >= e->nk)
			json_object_object_add(o, "watched", json_object_new_boolean(true));
		json_object_object_add(o, "queued", json_object_new_int64(r ? (int64_t)r->queued : 0));
		/* the kernel's hists cannot tell a held-back activation from an immediate one */
		json_object_object_add(o, "throttled",
				       e->khist ? NULL : json_object_new_int64(r ? (int64_t)r->throttled : 0));
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
	/* a watched name (no glob) that did no work in this run: there, with none */
	for (size_t i = 0; i < e->nwatch; i++) {
		bool seen = strpbrk(e->watch[i], "*?[") || under_test(e, e->watch[i]);
		json_object *o;

		for (size_t j = 0; j < n && !seen; j++)
			seen = !strcmp(rows[j].name, e->watch[i]);
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(e->watch[j], e->watch[i]);
		if (seen)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(e->watch[i]));
		json_object_object_add(o, "watched", json_object_new_boolean(true));
		json_object_object_add(o, "queued", json_object_new_int64(0));
		json_object_object_add(o, "throttled", e->khist ? NULL : json_object_new_int64(0));
		json_object_object_add(o, "wait_p50_us", NULL);
		json_object_object_add(o, "wait_p99_us", NULL);
		json_object_object_add(o, "run_p50_us", NULL);
		json_object_object_add(o, "run_p99_us", NULL);
		json_object_array_add(arr, o);
	}
	json_object_object_add(run, "workqueues", arr);
	c->queued[slot] = q;
	c->throttled[slot] = t; /* not shown when the kernel counted */
	c->wait99[slot] = w99;
}

/*
 * Read the kernel's hists: the rows of what was counted since the last read
 * (rates over secs), or with rows NULL only the read. Map overflow and a
 * function shared by several workqueues are warned about; -EIO after a
 * failed read was logged.
 */
static int khist_read(struct wq_exp *e, double secs, const struct wq_mon_row **rows, size_t *n)
{
	const struct wq_mon_row *r;
	unsigned long long dropped = 0;
	char why[300];
	const char *fn;
	size_t nr;

	if (wq_khist_read(e->khist, secs, &r, &nr, &dropped, why, sizeof(why)) < 0) {
		wq_log(e->ctx, WQ_LOG_ERR, "experiment: the kernel's counters: %s", why);
		return -EIO;
	}
	if (dropped)
		wq_log(e->ctx, WQ_LOG_WARNING,
		       "experiment: the kernel's hists had no room for %llu events; the counts are short by "
		       "as many; --backend stream counts them",
		       dropped);
	if (wq_khist_times_dropped(e->khist))
		wq_log(e->ctx, WQ_LOG_WARNING,
		       "experiment: %llu wait times not kept: the kernel's time hists are full (%d keys of "
		       "function and bucket each); WAIT_P99 is of the other times",
		       wq_khist_times_dropped(e->khist), WQ_KLAT_MAP_SIZE);
	while (wq_khist_next_shared(e->khist, &fn, why, sizeof(why)))
		wq_log(e->ctx, WQ_LOG_WARNING,
		       "experiment: %s is queued on %s: the kernel does not say which of them runs it, so their "
		       "wait and run times share its counts in proportion to QUEUED; --backend stream counts "
		       "them apart",
		       fn, why);
	if (rows) {
		*rows = r;
		*n = nr;
	}
	return 0;
}

/* Our BPF programs' maps read before a run: the base of its counts. -EIO after a failed read was logged. */
static int kbpf_base(struct wq_exp *e)
{
	struct wq_kbpf_lost lost;
	char why[300];

	free(e->kbase);
	e->kbase = NULL;
	if (wq_kbpf_read(e->kbpf, &e->kbase, &e->nkbase, &lost, why, sizeof(why)) < 0) {
		wq_log(e->ctx, WQ_LOG_ERR, "experiment: BPF: %s", why);
		return -EIO;
	}
	e->kbase_lost = lost;
	free(e->kcbase);
	e->kcbase = NULL;
	if (e->kc && wq_kcount_read(e->kc, &e->kcbase, &e->nkcbase, why, sizeof(why)) < 0) {
		wq_log(e->ctx, WQ_LOG_ERR, "experiment: the kernel's counters: %s", why);
		return -EIO;
	}
	return 0;
}

/*
 * The run's counts from the kernel's counters, with the times and the
 * held-back count of times (BPF's rows): *rows then the counters' (and
 * *cur what they point into), else left as they are.
 */
static void kcount_counts(struct wq_exp *e, double secs, struct wq_mon_row **rows, size_t *n,
			  struct wq_kcount_row **cur)
{
	struct wq_mon_row *kr = NULL;
	size_t ncur = 0, nk = 0;
	char why[300];

	*cur = NULL;
	if (wq_kcount_read(e->kc, cur, &ncur, why, sizeof(why)) < 0) {
		wq_log(e->ctx, WQ_LOG_ERR, "experiment: the kernel's counters: %s; the counts are BPF's", why);
		return;
	}
	if (wq_kcount_rows(e->kcbase, e->nkcbase, *cur, ncur, secs, &kr, &nk) < 0)
		return;
	wq_mon_times_into(kr, nk, *rows, *n);
	free(*rows);
	*rows = kr;
	*n = nk;
}

/* And after it: what it counted, into its cell's counters (none when the read failed, which is logged). */
static void kbpf_record(struct wq_exp *e, struct wq_exp_cell *c, double secs, json_object *run)
{
	struct wq_kbpf_row *cur = NULL;
	struct wq_kcount_row *kcur = NULL;
	struct wq_mon_row *rows = NULL;
	size_t ncur = 0, n = 0;
	struct wq_kbpf_lost lost;
	char why[300];

	if (wq_kbpf_read(e->kbpf, &cur, &ncur, &lost, why, sizeof(why)) < 0)
		wq_log(e->ctx, WQ_LOG_ERR, "experiment: BPF: %s", why);
	else if (wq_kbpf_rows(e->kbase, e->nkbase, cur, ncur, secs, &rows, &n) < 0)
		rows = NULL;
	else if (wq_kbpf_lost_total(&lost) > wq_kbpf_lost_total(&e->kbase_lost))
		wq_log(e->ctx, WQ_LOG_WARNING,
		       "experiment: %llu work items or events not counted in this run (our BPF maps full or busy, "
		       "an item's workqueue not found, or the kernel skipping our programs where one ran already "
		       "on that CPU); %s",
		       (unsigned long long)(wq_kbpf_lost_total(&lost) - wq_kbpf_lost_total(&e->kbase_lost)),
		       e->kc ? "the counts are the kernel's own, the times and THROTTLED of the other items"
			     : "the counts are short by as many");
	if (rows && e->kc)
		kcount_counts(e, secs, &rows, &n, &kcur);
	record_counters(e, c, c->n, rows, n, run);
	free(rows);
	free(cur);
	free(kcur);
}

/* One run of one cell: write, run, measure. 0, or -errno after the error was logged. */
static int one_run(struct wq_exp *e, struct wq_exp_cell *c, long round, size_t order, bool measured)
{
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
	/* the kernel's counts so far: the read after the run gives this run's alone */
	if (e->khist && khist_read(e, 0, NULL, NULL) < 0)
		return -EIO;
	if (e->kbpf && kbpf_base(e) < 0)
		return -EIO;
	r = run_workload(e, m, &o);
	if (r < 0) {
		wq_mon_free(m);
		return -EIO;
	}
	if (stopped(e) || e->orphan) {
		wq_mon_free(m);
		run_out_free(&o);
		return -EIO;
	}
	/* the run measured its setting only if every file still holds it */
	for (size_t k = 0; k < e->nk; k++) {
		_cleanup_free_ char *now = read_now(e, &e->k[k]);

		if (now && still_ours(&e->k[k], now))
			continue;
		if (!now) {
			wq_log(e->ctx, WQ_LOG_ERR,
			       "experiment: %s run %ld (%s): %s vanished during it; the run is dropped and the "
			       "experiment stops",
			       measured ? "measured" : "warm-up", round + 1, c->label, e->k[k].object);
			rc = -EIO;
			continue;
		}
		wq_log(e->ctx, WQ_LOG_ERR,
		       "experiment: %s run %ld (%s): %s changed under it (reads '%s', not '%s'); the run is "
		       "dropped, the experiment stops and leaves that value",
		       measured ? "measured" : "warm-up", round + 1, c->label, e->k[k].object, now, e->k[k].last);
		e->k[k].foreign = true;
		rc = -EBUSY;
	}
	if (rc) {
		wq_mon_free(m);
		run_out_free(&o);
		return rc;
	}
	if (o.status != 0) {
		describe_status(o.status, st, sizeof(st));
		wq_log(e->ctx, WQ_LOG_ERR, "experiment: %s run %ld (%s): %s %s", measured ? "measured" : "warm-up",
		       round + 1, c->label, e->cmd[0], st);
		wq_mon_free(m);
		run_out_free(&o);
		return -EIO;
	}
	if (o.truncated)
		wq_log(e->ctx, WQ_LOG_WARNING,
		       "experiment: the workload printed more than %lu MiB; the rest is not read", MAX_OUTPUT >> 20);
	r = metric_extract(&e->metric, o.buf, o.len, o.wall, &value, &fio, why, sizeof(why));
	if (r < 0) {
		wq_log(e->ctx, WQ_LOG_ERR, "experiment: run %ld (%s): metric %s: %s", round + 1, c->label,
		       e->metric.spec, why);
		wq_mon_free(m);
		run_out_free(&o);
		return -EIO;
	}
	if (!measured) {
		if (fio)
			json_object_put(fio);
		wq_mon_free(m);
		run_out_free(&o);
		return 0;
	}
	run = json_object_new_object();
	json_object_object_add(run, "round", json_object_new_int64(round + 1));
	json_object_object_add(run, "order", json_object_new_int64((int64_t)order + 1));
	json_object_object_add(run, "metric", jnum(value));
	json_object_object_add(run, "wall_s", jnum(o.wall));
	c->val[c->n] = value;
	c->wall[c->n] = o.wall;
	{
		const struct wq_mon_row *rows = NULL;
		size_t n = 0;

		if (e->trace && m && wq_mon_summary(m, o.wall, &rows, &n) < 0)
			rows = NULL;
		if (e->khist && khist_read(e, o.wall, &rows, &n) < 0)
			rows = NULL;
		if (e->kbpf)
			kbpf_record(e, c, o.wall, run);
		else
			record_counters(e, c, c->n, rows, n, run);
	}
	if (fio)
		json_object_object_add(run, "fio", fio);
	json_object_array_add(c->runs, run);
	c->n++;
	if (e->progress)
		e->progress(e->progress_data, c, order, value, o.wall);
	wq_mon_free(m);
	run_out_free(&o);
	return 0;
}

int wq_exp_run(struct wq_exp *e)
{
	size_t *perm = calloc(e->ncells, sizeof(*perm)), order = 0;
	uint64_t state = e->seed;
	int rc = 0;

	if (!perm)
		return -ENOMEM;
	for (long round = -e->warmup; round < e->runs && rc == 0 && !stopped(e); round++) {
		for (size_t i = 0; i < e->ncells; i++)
			perm[i] = i;
		wq_shuffle(perm, e->ncells, &state);
		for (size_t i = 0; i < e->ncells && rc == 0 && !stopped(e); i++) {
			rc = one_run(e, &e->cells[perm[i]], round < 0 ? round + e->warmup : round, order, round >= 0);
			if (round >= 0)
				order++;
		}
	}
	free(perm);
	return rc;
}

int wq_exp_compute(struct wq_exp *e)
{
	for (size_t i = 0; i < e->ncells; i++) {
		struct wq_exp_cell *c = &e->cells[i];

		if (c->n == 0 || wq_stat_compute(c->val, c->n, &c->st) < 0) {
			wq_log(e->ctx, WQ_LOG_ERR, "experiment: %s: no measured run", c->label);
			return -ENODATA;
		}
	}
	return 0;
}

double wq_exp_most_queued(const struct wq_exp *e)
{
	double most = -1;

	if (!e->counters)
		return -1;
	for (size_t i = 0; i < e->ncells; i++) {
		const struct wq_exp_cell *c = &e->cells[i];
		double m;

		if (!c->counted || !c->n)
			return -1;
		m = wq_exp_median(c->queued, c->n);
		if (m > most)
			most = m;
	}
	return most;
}

double wq_exp_median(const double *v, size_t n)
{
	struct wq_stat s;

	return n && wq_stat_compute(v, n, &s) == 0 ? s.median : NAN;
}

/* "-10.2% (-13.1 to -7.4%)", or without an interval "-10.2% (no 95% interval from N runs)" */
static void change_text(char *buf, size_t size, const struct wq_diff *ch, size_t n)
{
	if (isfinite(ch->pct_lo))
		snprintf(buf, size, "%+.1f%% (%+.1f to %+.1f%%)", ch->pct, ch->pct_lo, ch->pct_hi);
	else if (isfinite(ch->pct))
		snprintf(buf, size, "%+.1f%% (no 95%% interval from %zu run%s)", ch->pct, n, n == 1 ? "" : "s");
	else
		snprintf(buf, size, "no figure");
}

static void write_note(const struct wq_exp *e, struct wq_exp_cell *c, size_t n)
{
	char chg[96];
	bool cmp = e->loaded;

	change_text(chg, sizeof(chg), &c->ch, n);
	if (cmp && e->common) {
		snprintf(c->note, sizeof(c->note), "%s with every setting: %s", e->common < 0 ? "worse" : "better",
			 chg);
		return;
	}
	switch (c->verdict) {
	case WQ_VERDICT_WORSE:
	case WQ_VERDICT_BETTER:
		snprintf(c->note, sizeof(c->note), "%s: %s, p=%.2g",
			 c->verdict == WQ_VERDICT_WORSE ? (cmp ? "regressed" : "worse") : (cmp ? "improved" : "better"),
			 chg, c->ch.p);
		break;
	case WQ_VERDICT_SAME: snprintf(c->note, sizeof(c->note), "no change of %g%%: %s", e->threshold, chg); break;
	case WQ_VERDICT_INCONCLUSIVE:
	default:
		if (c->ch.runs_needed)
			snprintf(c->note, sizeof(c->note),
				 "inconclusive: %s; %zu runs a setting would tell %g%% from this noise (CV %.1f%%)",
				 chg, c->ch.runs_needed, e->threshold, 100 * c->ch.cv);
		else
			snprintf(c->note, sizeof(c->note), "inconclusive: %s", chg);
		break;
	}
}

int wq_exp_judge(struct wq_exp *e)
{
	const struct wq_exp_cell *b = &e->cells[0];
	size_t nj = 0, nworse = 0, nbetter = 0;

	e->common = 0;
	e->kernel_changed = e->loaded && e->base.kernel && strcmp(e->base.kernel, e->ctx->kver.release) != 0;
	for (size_t i = 0; i < e->ncells; i++) {
		struct wq_exp_cell *c = &e->cells[i];
		size_t n;

		free(c->outlier);
		if (!(c->outlier = calloc(c->n ? c->n : 1, sizeof(bool))))
			return -ENOMEM;
		wq_stat_outliers(c->val, c->n, c->outlier);
		c->trend_p = wq_stat_trend(c->val, c->n, &c->trend_tau);
		c->judged = false;
		if (e->loaded ? !c->has_base : c == b) {
			snprintf(c->note, sizeof(c->note), "%s", e->loaded ? "not in the baseline" : "baseline");
			continue;
		}
		n = e->loaded ? c->base_n : b->n;
		c->verdict = wq_stat_judge(e->loaded ? c->base_val : b->val, n, c->val, c->n,
					   e->metric.higher_is_better, e->threshold, &c->ch);
		c->judged = true;
		nj++;
		nworse += c->verdict == WQ_VERDICT_WORSE;
		nbetter += c->verdict == WQ_VERDICT_BETTER;
	}
	/*
	 * Every setting moved the same way by one amount: at least one of them
	 * significantly; every one on that side by at least the threshold and
	 * half the significant ones' mean change (a setting too noisy to be
	 * significant alone still moved with the rest; one that stayed put did
	 * not); and every interval meeting every other (no evidence that they
	 * moved apart).
	 */
	if (e->loaded && nj >= 2 && (nworse > 0) != (nbetter > 0)) {
		bool together = true;
		int dir = nworse ? -1 : 1; /* in "better" terms */
		double sig = 0, least;

		for (size_t i = 0; i < e->ncells; i++)
			if (e->cells[i].judged &&
			    (e->cells[i].verdict == WQ_VERDICT_WORSE || e->cells[i].verdict == WQ_VERDICT_BETTER))
				sig += fabs(e->cells[i].ch.pct) / (double)(nworse + nbetter);
		least = fmax(e->threshold, sig / 2);
		e->common_lo = INFINITY;
		e->common_hi = -INFINITY;
		for (size_t i = 0; i < e->ncells && together; i++) {
			const struct wq_exp_cell *x = &e->cells[i];
			bool up;

			if (!x->judged)
				continue;
			up = (x->ch.est > 0) == e->metric.higher_is_better;
			if (x->ch.est == 0 || (up ? 1 : -1) != dir || !isfinite(x->ch.pct_lo) ||
			    fabs(x->ch.pct) < least)
				together = false;
			e->common_lo = fmin(e->common_lo, x->ch.pct);
			e->common_hi = fmax(e->common_hi, x->ch.pct);
			for (size_t j = 0; j < e->ncells && together; j++) {
				const struct wq_exp_cell *y = &e->cells[j];

				if (y->judged && !(x->ch.pct_lo <= y->ch.pct_hi && y->ch.pct_lo <= x->ch.pct_hi))
					together = false;
			}
		}
		if (together)
			e->common = dir;
	}
	for (size_t i = 0; i < e->ncells; i++)
		if (e->cells[i].judged)
			write_note(e, &e->cells[i], e->loaded ? e->cells[i].base_n : b->n);
	return 0;
}

bool wq_exp_regressed(const struct wq_exp *e)
{
	if (!e->loaded || (e->common && !e->kernel_changed))
		return false;
	for (size_t i = 0; i < e->ncells; i++)
		if (e->cells[i].judged && e->cells[i].verdict == WQ_VERDICT_WORSE)
			return true;
	return false;
}

const char *wq_exp_note(const struct wq_exp_cell *c)
{
	return c->note;
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

static json_object *jchange(const struct wq_diff *ch)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "pct", jnum(ch->pct));
	json_object_object_add(o, "low_pct", jnum(ch->pct_lo));
	json_object_object_add(o, "high_pct", jnum(ch->pct_hi));
	json_object_object_add(o, "p", jnum(ch->p));
	json_object_object_add(o, "cv_pct", jnum(100 * ch->cv));
	json_object_object_add(o, "runs_needed",
			       ch->runs_needed ? json_object_new_int64((int64_t)ch->runs_needed) : NULL);
	return o;
}

static json_object *jtrend(const struct wq_exp_cell *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "tau", jnum(c->trend_tau));
	json_object_object_add(o, "p", jnum(c->trend_p));
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
json_object *wq_exp_document(struct wq_exp *e, bool restored)
{
	json_object *doc = json_object_new_object(), *spec = json_object_new_object(), *arr, *m;
	char desc[300], seed[32];

	json_object_object_add(doc, "kernel", json_object_new_string(e->ctx->kver.release));
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)e->seed);
	json_object_object_add(doc, "seed", json_object_new_string(seed));
	/*
	 * where the workqueue counts came from (the kernel's counters, our BPF
	 * programs, the kernel's hists, every event streamed, or none) and the
	 * wait times (the same but the counters)
	 */
	json_object_object_add(doc, "counters", e->counters ? json_object_new_string(e->counters) : NULL);
	json_object_object_add(doc, "times", e->times ? json_object_new_string(e->times) : NULL);
	/* what --compare needs to run the same experiment again */
	json_object_object_add(spec, "set", jstrv(e->sets, e->nsets));
	json_object_object_add(spec, "profile", e->profiles ? json_object_new_string(e->profiles) : NULL);
	json_object_object_add(spec, "runs", json_object_new_int64(e->runs));
	json_object_object_add(spec, "warmup", json_object_new_int64(e->warmup));
	json_object_object_add(spec, "command", jstrv(e->cmd, e->ncmd));
	json_object_object_add(spec, "watch", jstrv(e->watch, e->nwatch));
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
	json_object_object_add(doc, "threshold_pct", jnum(e->threshold));
	json_object_object_add(doc, "alpha", jnum(WQ_STAT_ALPHA));
	if (e->loaded) {
		json_object *cs = NULL;

		if (e->common) {
			cs = json_object_new_object();
			json_object_object_add(cs, "direction",
					       json_object_new_string(e->common < 0 ? "worse" : "better"));
			json_object_object_add(cs, "low_pct", jnum(e->common_lo));
			json_object_object_add(cs, "high_pct", jnum(e->common_hi));
		}
		json_object_object_add(doc, "common_shift", cs);
		json_object_object_add(doc, "baseline_kernel",
				       e->base.kernel ? json_object_new_string(e->base.kernel) : NULL);
		json_object_object_add(doc, "regressed", json_object_new_boolean(wq_exp_regressed(e)));
	}
	arr = json_object_new_array();
	for (size_t i = 0; i < e->ncells; i++) {
		struct wq_exp_cell *c = &e->cells[i];
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
		json_object_object_add(o, "note", json_object_new_string(wq_exp_note(c)));
		json_object_object_add(o, "verdict",
				       c->judged ? json_object_new_string(wq_verdict_name(c->verdict)) : NULL);
		json_object_object_add(o, "change", c->judged ? jchange(&c->ch) : NULL);
		{
			json_object *ol = json_object_new_array();

			for (size_t k = 0; c->outlier && k < c->n; k++)
				if (c->outlier[k])
					json_object_array_add(ol, json_object_new_int64((int64_t)k + 1));
			json_object_object_add(o, "outlier_runs", ol);
		}
		json_object_object_add(o, "trend", jtrend(c));
		json_object_object_add(o, "runs", c->runs);
		c->runs = NULL;
		json_object_array_add(arr, o);
	}
	json_object_object_add(doc, "settings", arr);
	json_object_object_add(doc, "restored", json_object_new_boolean(restored));
	return doc;
}

static void fill_doc(FILE *f, const void *data)
{
	fputs(json_object_to_json_string_ext((json_object *)data, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
								      JSON_C_TO_STRING_NOSLASHESCAPE),
	      f);
	fputc('\n', f);
}

int wq_exp_save(struct wq_exp *e, json_object *doc)
{
	char rel[160];
	int r;

	snprintf(rel, sizeof(rel), WQ_SAVED_DIR "/%s.json", e->save);
	r = wq_saved_write(e->ctx, e->save, fill_doc, doc);
	if (r < 0) {
		wq_log(e->ctx, WQ_LOG_ERR, "%s: cannot save the experiment: %s", rel, wq_strerror(-r));
		return r;
	}
	wq_log(e->ctx, WQ_LOG_INFO, "experiment: saved as %s", rel);
	return 0;
}

/* --- baselines ----------------------------------------------------------- */

/*
 * Read a saved experiment and take its spec as this run's. The file is run
 * as root's command, so it must be root's alone as a profile is (owner,
 * mode, every directory on its path), and every field is checked.
 */
int wq_exp_read_saved(struct wq_ctx *ctx, const char *name, struct wq_saved_exp *b)
{
	char why[PATH_MAX + 64];
	_cleanup_free_ char *text = NULL, *shown = wq_saved_path(ctx, name);
	const char *at = shown ? shown : name;
	int fd, r;

	fd = wq_saved_open(ctx, name, why, sizeof(why));
	if (fd == -EPERM && why[0]) {
		wq_log(ctx, WQ_LOG_ERR, "%s: refusing to run its command: %s", at, why);
		return -EIO;
	}
	if (fd < 0) {
		if (fd != -ENOENT)
			wq_log(ctx, WQ_LOG_ERR, "%s: cannot read the baseline: %s", at, wq_strerror(-fd));
		return fd;
	}
	r = wq_fd_read(fd, &text);
	close(fd);
	if (r < 0) {
		wq_log(ctx, WQ_LOG_ERR, "%s: %s: %s", at,
		       r == -EFBIG || r == -WQ_ENUL ? "not a saved experiment" : "cannot read the baseline",
		       r == -EFBIG ? "larger than 16 MiB" : wq_strerror(-r));
		return -EIO;
	}
	r = wq_saved_exp_parse(text, strlen(text), b, why, sizeof(why));
	if (r < 0) {
		wq_log(ctx, WQ_LOG_ERR, "%s: not a saved experiment: %s", at, r == -EINVAL ? why : wq_strerror(-r));
		return -EIO;
	}
	return 0;
}

int wq_exp_load(struct wq_exp *e)
{
	char why[300];
	struct wq_saved_exp *b = &e->base;
	int r = wq_exp_read_saved(e->ctx, e->compare, b);

	if (r == -ENOENT) {
		_cleanup_free_ char *at = wq_saved_path(e->ctx, e->compare);
		char **names = NULL, list[512] = "";
		size_t n = 0, len = 0;

		/* what there is to compare with, so that a typo is seen at once */
		if (wq_saved_names(e->ctx, &names, &n) == 0)
			for (size_t i = 0; i < n; i++) {
				if (len < sizeof(list))
					len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "",
								names[i]);
				free(names[i]);
			}
		free(names);
		wq_log(e->ctx, WQ_LOG_ERR, "%s: cannot read the baseline: no such experiment; %s%s",
		       at ? at : e->compare, n ? "saved: " : "none is saved yet (experiment --save NAME keeps one)",
		       n ? list : "");
	}
	if (r < 0)
		return r == -ENOENT ? r : -EIO;
	if (b->cwd) {
		int dfd = open(b->cwd, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (dfd < 0) {
			wq_log(e->ctx, WQ_LOG_ERR, "experiment: %s ran in %s: %s", e->compare, b->cwd, strerror(errno));
			return -EIO;
		}
		close(dfd);
	}
	e->loaded = true;
	/* the spec moves into this run's (exp_free frees it there) */
	e->sets = b->sets;
	e->nsets = b->nsets;
	e->profiles = b->profiles;
	e->cmd = b->cmd;
	e->ncmd = b->ncmd;
	e->cwd = b->cwd;
	e->watch = b->watch;
	e->nwatch = b->nwatch;
	b->watch = NULL;
	b->sets = b->cmd = NULL;
	b->profiles = b->cwd = NULL;
	e->runs = b->runs;
	e->warmup = b->warmup;
	e->metric.better_given = true;
	e->metric.higher_is_better = b->higher_is_better;
	r = metric_parse(&e->metric, b->metric, why, sizeof(why));
	if (r < 0) {
		_cleanup_free_ char *at = wq_saved_path(e->ctx, e->compare);

		wq_log(e->ctx, WQ_LOG_ERR, "%s: metric: %s", at ? at : e->compare, why);
		return -EIO;
	}
	return 0;
}

/* Match each cell with the baseline's runs of the same setting. */
void wq_exp_attach_baseline(struct wq_exp *e)
{
	for (size_t i = 0; i < e->ncells; i++) {
		struct wq_exp_cell *c = &e->cells[i];

		for (size_t j = 0; j < e->base.nsettings; j++) {
			const struct wq_saved_setting *s = &e->base.settings[j];

			if (!strcmp(s->label, c->label)) {
				c->has_base = s->n > 0 && wq_stat_compute(s->metric, s->n, &c->base_st) == 0;
				c->base_val = s->metric;
				c->base_n = s->n;
			}
		}
	}
}

int wq_exp_start(struct wq_exp *e)
{
	for (size_t i = 0; i < e->nk; i++) {
		char who[64];
		int fd = wq_hold_take(e->ctx, e->k[i].path, who, sizeof(who));

		if (fd == -EBUSY) {
			wq_log(e->ctx, WQ_LOG_ERR,
			       "%s: another experiment is running on it (%s); try again when it ends", e->k[i].object,
			       who);
			return -EBUSY;
		}
		if (fd < 0) {
			wq_log(e->ctx, WQ_LOG_ERR, "run/wqctl/hold: %s", wq_strerror(-fd));
			return fd;
		}
		e->k[i].hold = fd;
	}
	note_journaled(e);
	if (e->monitor && wq_root_is_live(e->ctx->root)) {
		char why[300], kwhy[300];
		struct wq_kboth b;

		/*
		 * the counts from the kernel's counters where it has them: whole
		 * however many runs the kernel skipped; opened as auto opens them
		 * (THROTTLED wanted: activate_work's program always)
		 */
		if (e->bpf && wq_kboth_open(e->ctx, true, recorded, e, &b, why, sizeof(why), kwhy, sizeof(kwhy)) < 0) {
			if (e->bpf_only) {
				wq_log(e->ctx, WQ_LOG_ERR, "experiment: --backend bpf: %s", why);
				return -ENOTSUP;
			}
			wq_log(e->ctx, WQ_LOG_INFO, "experiment: BPF: %s; counting through the tracepoints", why);
		} else if (e->bpf) {
			e->kbpf = b.kb;
			e->kc = b.kc;
			free(b.kfirst); /* each run reads its own base */
			if (!e->kc)
				wq_log(e->ctx, WQ_LOG_INFO,
				       "experiment: counts from BPF too: the kernel's counters: %s", kwhy);
		}
		if (e->kbpf) {
			/* what killed runs of the tracefs backends left goes, as they would remove it */
			wq_trace_tidy(e->ctx);
			wq_khist_tidy(e->ctx);
		} else if (e->kernel) {
			if (wq_khist_open(e->ctx, true, &e->khist, why, sizeof(why)) < 0) {
				wq_log(e->ctx, WQ_LOG_WARNING, "experiment: no workqueue counters: %s", why);
				e->khist = NULL;
			}
		} else if (wq_trace_open(e->ctx, WQ_TRACE_BUFFER_KB, &e->trace, why, sizeof(why)) < 0) {
			wq_log(e->ctx, WQ_LOG_WARNING, "experiment: no workqueue counters: %s", why);
			e->trace = NULL;
		}
		e->times = e->kbpf ? "bpf" : e->khist ? "kernel" : e->trace ? "stream" : NULL;
		e->counters = e->kc ? "counters" : e->times;
	}
	return 0;
}

int wq_exp_finish(struct wq_exp *e)
{
	int r = restore_all(e);

	for (size_t i = 0; i < e->nk; i++) {
		wq_lock_release(e->k[i].hold);
		e->k[i].hold = -1;
	}
	end_orphan(e);
	if (e->trace) {
		wq_trace_close(e->trace);
		e->trace = NULL;
	}
	if (e->khist) {
		wq_khist_close(e->khist);
		e->khist = NULL;
	}
	wq_kbpf_free(e->kbpf);
	e->kbpf = NULL;
	free(e->kbase);
	e->kbase = NULL;
	wq_kcount_free(e->kc);
	e->kc = NULL;
	free(e->kcbase);
	e->kcbase = NULL;
	return r;
}

void wq_exp_free(struct wq_exp *e)
{
	for (size_t i = 0; i < e->nk; i++) {
		free(e->k[i].object);
		free(e->k[i].path);
		free(e->k[i].orig);
		free(e->k[i].restore);
		free(e->k[i].last);
		wq_lock_release(e->k[i].hold);
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
		struct wq_exp_cell *c = &e->cells[i];

		free(c->label);
		free(c->w);
		free(c->val);
		free(c->outlier);
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
	for (size_t i = 0; i < e->nwatch; i++)
		free(e->watch[i]);
	free(e->watch);
	metric_free(&e->metric);
	wq_saved_exp_free(&e->base);
	free(e->cwd);
	if (e->trace)
		wq_trace_close(e->trace);
	if (e->khist)
		wq_khist_close(e->khist);
	wq_kbpf_free(e->kbpf);
	free(e->kbase);
	wq_kcount_free(e->kc);
	free(e->kcbase);
	memset(e, 0, sizeof(*e));
}
