// SPDX-License-Identifier: GPL-2.0-or-later
/* INI profiles through inih: reading, includes, search path, masking. */
#define _GNU_SOURCE
#include "profile.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "knob.h"
#include "../util/macro.h"
#include "wq.h"

#ifndef WQCTL_LIBDIR
#define WQCTL_LIBDIR "/usr/lib/wqctl"
#endif

const char *const wq_profile_default_dirs[3] = {"etc/wqctl/profiles", "run/wqctl/profiles", WQCTL_LIBDIR "/profiles"};

#define LOCAL_DIR "etc/wqctl/profiles"
#define MAX_INCLUDE_DEPTH 16

bool wq_profile_name_is_valid(const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || len > 64 || name[0] == '.' || name[0] == '-')
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_.+@", *p))
			return false;
	return true;
}

/*
 * A profile or the active set is a few KiB; one of more than 1 MiB is
 * refused before a byte of it is parsed (the udev hook reads them on every
 * event). 0 or -EPERM with why.
 */
int wq_fd_too_large(int fd, long long limit, char *why, size_t whysz)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_size > limit) {
		snprintf(why, whysz, "larger than %lld KiB (%lld bytes)", limit >> 10, (long long)st.st_size);
		return -EPERM;
	}
	return 0;
}

/* A link to /dev/null masks a profile (the link itself is read, so that it also works in a sysroot). */
static bool is_mask(const struct wq_root *root, const char *path)
{
	char t[16];

	return wq_root_readlink_path(root, path, t, sizeof(t)) >= 0 && streq(t, "/dev/null");
}

int wq_profile_find(struct wq_ctx *ctx, const char *const *dirs, size_t ndirs, const char *name, char **path)
{
	for (size_t i = 0; i < ndirs; i++) {
		char *p = NULL;
		int fd;

		if (asprintf(&p, "%s/%s.conf", dirs[i], name) < 0)
			return -ENOMEM;
		if (is_mask(ctx->root, p)) {
			free(p);
			return -ENXIO; /* masks the profiles of later directories */
		}
		fd = wq_root_open_path(ctx->root, p, O_RDONLY);
		if (fd >= 0) {
			close(fd);
			*path = p;
			return 0;
		}
		free(p);
		if (fd != -ENOENT)
			return fd;
	}
	return -ENOENT;
}

struct parse {
	struct wq_ctx *ctx;
	struct wq_pset *set;
	const char *file;
	FILE *f;
	char *buf; /* the line being read, reused */
	int line;
	bool bad;
	struct wq_psect *cur; /* section being filled (in sects) */
	char *sect_name; /* its name as written, to check inih read the same */
	struct wq_psect *sects;
	size_t nsects;
	char *desc;
	char *include;
	int include_line;
	char *kernels;
	int kernels_line;
	bool in_profile;
};

static void perr(struct parse *p, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void perr(struct parse *p, int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	wq_log(p->ctx, WQ_LOG_ERR, "%s:%d: %s", p->file, line, msg);
	p->bad = true;
}

static void sect_free(struct wq_psect *s)
{
	for (size_t i = 0; i < s->nkv; i++) {
		free(s->kv[i].key);
		free(s->kv[i].value);
	}
	for (size_t i = 0; i < s->nowner; i++) {
		free(s->owner[i].key);
		free(s->owner[i].value);
	}
	free(s->kv);
	free(s->owner);
	free(s->pattern);
	free(s->off_kernel);
	free(s->when_off);
}

static int add_kv(struct wq_pkv **v, size_t *n, const char *key, const char *value, int line)
{
	struct wq_pkv *nv = realloc(*v, sizeof(**v) * (*n + 1));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n].key = strdup(key);
	nv[*n].value = strdup(value);
	nv[*n].line = line;
	if (!nv[*n].key || !nv[*n].value) {
		free(nv[*n].key);
		free(nv[*n].value);
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}

/* A key given twice in one section: the later value wins, as it always did, but not silently. */
static void warn_twice(const struct parse *p, const struct wq_pkv *v, size_t n, const char *key, const char *value,
		       const char *shown)
{
	for (size_t i = 0; i < n; i++)
		if (streq(v[i].key, key)) {
			wq_log(p->ctx, WQ_LOG_WARNING, "%s:%d: %s given twice in this section (line %d): '%s' wins",
			       p->file, p->line, shown, v[i].line, value);
			return;
		}
}

/* A section header seen by the reader: check it and open the section. */
static void open_section(struct parse *p, const char *raw)
{
	_cleanup_free_ char *name = strdup(raw);
	struct wq_psect *ns;
	char *end;

	p->cur = NULL;
	p->in_profile = false;
	if (!name)
		return;
	/* inih ends the name at the first ']': so does this, and refuses what follows */
	end = strchr(name, ']');
	if (!end) {
		perr(p, p->line, "section header without ']'");
		return;
	}
	*end = '\0';
	for (char *q = end + 1; *q; q++) {
		if (*q == ';' || *q == '#')
			break;
		if (!isspace((unsigned char)*q)) {
			perr(p, p->line,
			     strchr(q, ']') ? "']' inside a section name (bracket globs cannot be used "
					      "in a section: use '?' or '*')"
					    : "text after the section header");
			return;
		}
	}
	free(p->sect_name);
	p->sect_name = strdup(name + 1);
	if (strchr(name + 1, '[')) {
		perr(p, p->line,
		     "'[' inside a section name (bracket globs cannot be used in a section: use '?' or '*')");
		return;
	}
	if (streq(name + 1, "profile")) {
		p->in_profile = true;
		return;
	}
	ns = realloc(p->sects, sizeof(*ns) * (p->nsects + 1));
	if (!ns)
		return;
	p->sects = ns;
	p->cur = &ns[p->nsects];
	memset(p->cur, 0, sizeof(*p->cur));
	p->cur->line = p->line;
	if (streq(name + 1, "global")) {
		p->cur->global = true;
	} else if (!strncmp(name + 1, "workqueue ", 10)) {
		const char *pat = name + 11;

		while (*pat == ' ')
			pat++;
		if (!*pat || strchr(pat, ' ') || strchr(pat, '/') || strlen(pat) >= WQ_NAME_MAX) {
			perr(p, p->line, "[workqueue PATTERN]: '%s' is not a workqueue name or glob", pat);
			p->cur = NULL;
			return;
		}
		p->cur->pattern = strdup(pat);
		p->cur->exact = !strpbrk(pat, "*?[");
		p->cur->literal = strcspn(pat, "*?[\\");
	} else {
		perr(p, p->line, "unknown section [%s] (expected [profile], [global] or [workqueue PATTERN])",
		     name + 1);
		p->cur = NULL;
		return;
	}
	p->nsects++;
}

/*
 * One line of f into buf (size bytes, NUL-terminated, the newline kept):
 * its length, 0 at the end, or -1 when the line does not fit. Never reads
 * more than size bytes of a line, so a file without newlines is refused
 * after the first size bytes, not read whole.
 */
static ssize_t read_line(FILE *f, char *buf, size_t size)
{
	size_t len = 0;
	int c;

	while (len + 1 < size && (c = getc_unlocked(f)) != EOF) {
		buf[len++] = (char)c;
		if (c == '\n')
			break;
	}
	buf[len] = '\0';
	if (len + 1 == size && buf[len - 1] != '\n' && (c = getc_unlocked(f)) != EOF) {
		ungetc(c, f);
		return -1;
	}
	return (ssize_t)len;
}
/* inih reader: counts lines, refuses what inih would silently cut or mangle. */
static char *reader(char *str, int num, void *stream)
{
	struct parse *p = stream;
	ssize_t len;
	const char *line, *t;

	if (num < 3)
		return NULL;
	if (!p->buf && !(p->buf = malloc((size_t)num + 1)))
		return NULL;
	/* one byte more than inih takes, to tell a line of exactly num - 2 bytes from a longer one */
	len = read_line(p->f, p->buf, (size_t)num + 1);
	line = p->buf;
	if (len == 0)
		return NULL;
	p->line++;
	/* a UTF-8 byte-order mark (some editors write one) is not part of the first line */
	if (p->line == 1 && len >= 3 && !memcmp(line, "\xef\xbb\xbf", 3)) {
		line += 3;
		len -= 3;
	}
	if (len > 0 && memchr(line, '\0', (size_t)len)) {
		perr(p, p->line, "binary data (NUL byte)");
		return NULL;
	}
	/* inih would truncate a longer line and read its tail as the next line. */
	if (len < 0 || len > num - 2 || (len == num - 1 && line[len - 1] != '\n')) {
		perr(p, p->line, "line is longer than %d bytes", num - 2);
		return NULL;
	}
	/*
	 * inih skips every isspace() character at the start of a line (\f \v \r
	 * too) and takes an indented line after a key as its continuation: skip
	 * the same set here, so that both agree on sections and continuations.
	 */
	for (t = line; *t && *t != '\n' && isspace((unsigned char)*t); t++)
		;
	if (t != line && *t && *t != '\n' && *t != ';' && *t != '#') {
		perr(p, p->line, "indented line: continuation lines are not supported");
		return NULL;
	}
	if (*t == '[')
		open_section(p, t);
	memcpy(str, line, (size_t)len + 1);
	return str;
}

static bool owner_key_ok(const char *k)
{
	if (!*k)
		return false;
	for (; *k; k++)
		if (!isalnum((unsigned char)*k) && *k != '_')
			return false;
	return true;
}

/* Validate a workqueue attribute value without a workqueue: syntax and kernel-wide bounds. */
/*
 * A value is checked against what some kernel takes, never against this
 * kernel's domain: one profile set serves a fleet, and a value this kernel
 * or machine does not offer makes that one setting unsupported when it is
 * resolved (verdict.c), not the whole set invalid.
 */
static void check_wq_value(struct parse *p, int attr, const char *value)
{
	char why[512];

	if (wq_attr_check_any(p->ctx, (enum wq_attr)attr, value, why, sizeof(why)) < 0)
		perr(p, p->line, "%s: invalid value '%s': %s", wq_attr_descs[attr].name, value, why);
}

int wq_profile_when_eval(struct wq_ctx *ctx, const char *text, char *why, size_t whysz)
{
	_cleanup_free_ char *copy = strdup(text);
	char *save = NULL, *c;

	if (!copy)
		return -ENOMEM;
	if (!*text) {
		snprintf(why, whysz, "empty condition");
		return -EINVAL;
	}
	for (save = copy; (c = strsep(&save, ","));) {
		static const char *const ops[] = {">=", "<=", "==", "!=", ">", "<"};
		char var[16], val[32];
		const char *op = NULL, *q = c;
		long have = 0, want = 0;
		size_t len;
		int cmp;

		/* exactly: blanks, VAR (letters), blanks, OP, blanks, VALUE (digits and dots), blanks */
		while (isspace((unsigned char)*q))
			q++;
		c = (char *)q;
		if (!*c) {
			snprintf(why, whysz, "an empty condition between commas");
			return -EINVAL;
		}
		len = strspn(q, "abcdefghijklmnopqrstuvwxyz");
		if (len && len < sizeof(var)) {
			memcpy(var, q, len);
			var[len] = '\0';
			q += len;
			while (isspace((unsigned char)*q))
				q++;
			for (size_t i = 0; i < ARRAY_SIZE(ops) && !op; i++)
				if (!strncmp(q, ops[i], strlen(ops[i])))
					op = ops[i];
		}
		if (op) {
			q += strlen(op);
			while (isspace((unsigned char)*q))
				q++;
			len = strspn(q, "0123456789.");
			if (len && len < sizeof(val)) {
				memcpy(val, q, len);
				val[len] = '\0';
				q += len;
				while (isspace((unsigned char)*q))
					q++;
			} else {
				op = NULL;
			}
		}
		if (!op || *q) {
			/* the part shown without its trailing blanks */
			size_t n = strlen(c);

			while (n && isspace((unsigned char)c[n - 1]))
				n--;
			snprintf(why, whysz, "'%.*s' is not VAR OP VALUE (kernel, nodes or cpus; >= <= > < == !=)",
				 (int)n, c);
			return -EINVAL;
		}
		if (streq(var, "kernel")) {
			struct wq_kver k;

			if (wq_kver_parse(val, &k) < 0) {
				snprintf(why, whysz, "kernel: '%s' is not a release (e.g. 6.9 or 6.8.4)", val);
				return -EINVAL;
			}
			if (!ctx->kver.known) {
				snprintf(why, whysz, "when %s: the kernel release is unknown", c);
				return 0;
			}
			cmp = wq_kver_cmp(&ctx->kver, k.major, k.minor, k.patch);
		} else if (streq(var, "nodes") || streq(var, "cpus")) {
			struct wq_topo *t = wq_ctx_topo(ctx);
			char *end;

			want = strtol(val, &end, 10);
			if (*end || want < 0) {
				snprintf(why, whysz, "%s: '%s' is not a count", var, val);
				return -EINVAL;
			}
			if (!t) {
				snprintf(why, whysz, "when %s: the topology cannot be read", c);
				return 0;
			}
			have = streq(var, "nodes") ? t->nr_nodes : (long)wq_cpuset_count(t->online);
			cmp = have < want ? -1 : have > want;
		} else {
			snprintf(why, whysz, "'%s': unknown variable (kernel, nodes, cpus)", var);
			return -EINVAL;
		}
		if (!((streq(op, ">=") && cmp >= 0) || (streq(op, "<=") && cmp <= 0) || (streq(op, ">") && cmp > 0) ||
		      (streq(op, "<") && cmp < 0) || (streq(op, "==") && cmp == 0) || (streq(op, "!=") && cmp != 0))) {
			if (streq(var, "kernel"))
				snprintf(why, whysz, "when %s: this is %s", c, ctx->kver.release);
			else
				snprintf(why, whysz, "when %s: this machine has %ld", c, have);
			return 0;
		}
	}
	return 1;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct parse *p = user;
	char why[512];
	int r;

	/* inih cuts a long section name (50 bytes in its default build) */
	if (p->sect_name && !streq(section, p->sect_name)) {
		if (!p->bad)
			perr(p, p->cur ? p->cur->line : p->line,
			     "section name longer than %zu bytes: the INI reader cuts it", strlen(section));
		return 1;
	}
	if (p->in_profile) {
		if (streq(name, "description")) {
			free(p->desc);
			p->desc = strdup(value);
		} else if (streq(name, "include")) {
			free(p->include);
			p->include = strdup(value);
			p->include_line = p->line;
		} else if (streq(name, "kernels")) {
			struct wq_kver any = {0};

			if (wq_kernels_match(value, &any) < 0) {
				perr(p, p->line,
				     "kernels: '%s' is not a range of kernel releases (e.g. 6.10-, 6.6-6.8, -6.5)",
				     value);
			} else {
				free(p->kernels);
				p->kernels = strdup(value);
				p->kernels_line = p->line;
			}
		} else {
			perr(p, p->line, "unknown key '%s' in [profile] (description, include, kernels)", name);
		}
		return 1;
	}
	if (!p->cur) {
		if (!p->bad)
			perr(p, p->line, "key '%s' outside a section", name);
		return 1;
	}
	if (streq(name, "when")) {
		r = wq_profile_when_eval(p->ctx, value, why, sizeof(why));
		if (r < 0) {
			perr(p, p->line, "when: %s", why);
		} else if (p->cur->when_line) {
			perr(p, p->line, "when: given twice in this section (join the conditions with ',')");
		} else {
			p->cur->when_line = p->line;
			if (r == 0 && !(p->cur->when_off = strdup(why)))
				p->bad = true;
		}
		return 1;
	}
	if (p->cur->global) {
		const struct wq_knob_desc *d = NULL;

		for (unsigned int i = 0; i < wq_knob_ndescs; i++)
			if (streq(wq_knob_descs[i].name, name))
				d = &wq_knob_descs[i];
		if (!d) {
			perr(p, p->line, "unknown key '%s' in [global]", name);
			return 1;
		}
		if (d->boot_only) {
			perr(p, p->line, "%s is boot-only: set 'workqueue.%s=' on the kernel command line", name, name);
			return 1;
		}
		if (d->read_only) {
			perr(p, p->line, "%s is read-only", name);
			return 1;
		}
		r = wq_value_check_any(p->ctx, d->type, d->lo, d->hi, false, value, why, sizeof(why));
		if (r < 0) {
			perr(p, p->line, "%s: invalid value '%s': %s", name, value, why);
			return 1;
		}
		warn_twice(p, p->cur->kv, p->cur->nkv, name, value, name);
		add_kv(&p->cur->kv, &p->cur->nkv, name, value, p->line);
		return 1;
	}
	if (!strncmp(name, "owner.", 6)) {
		if (!owner_key_ok(name + 6)) {
			perr(p, p->line, "'%s': owner.PROPERTY needs a property name", name);
			return 1;
		}
		warn_twice(p, p->cur->owner, p->cur->nowner, name + 6, value, name);
		add_kv(&p->cur->owner, &p->cur->nowner, name + 6, value, p->line);
		return 1;
	}
	{
		int a = wq_attr_from_name(name);

		if (a < 0) {
			perr(
			    p, p->line,
			    "unknown key '%s' in [workqueue %s] (max_active cpumask affinity_scope affinity_strict when "
			    "nice numa owner.PROPERTY)",
			    name, p->cur->pattern);
			return 1;
		}
		check_wq_value(p, a, value);
		warn_twice(p, p->cur->kv, p->cur->nkv, name, value, name);
		add_kv(&p->cur->kv, &p->cur->nkv, name, value, p->line);
	}
	return 1;
}

static int load_one(struct wq_ctx *ctx, const char *const *dirs, size_t ndirs, const char *name, const char *file,
		    bool optional, const char *from_file, int from_line, char **stack, int depth, struct wq_pset *set);

static int do_includes(struct wq_ctx *ctx, const char *const *dirs, size_t ndirs, struct parse *p, char **stack,
		       int depth)
{
	_cleanup_free_ char *list = p->include ? strdup(p->include) : NULL;
	char *save = NULL, *tok;
	int r = 0;

	if (!list)
		return 0;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool optional = false;

		while (isspace((unsigned char)*tok))
			tok++;
		for (char *e = tok + strlen(tok); e > tok && isspace((unsigned char)e[-1]);)
			*--e = '\0';
		if (*tok == '-') {
			optional = true;
			tok++;
		}
		if (!wq_profile_name_is_valid(tok)) {
			perr(p, p->include_line, "include: '%s' is not a profile name", tok);
			r = -EINVAL;
			continue;
		}
		if (load_one(ctx, dirs, ndirs, tok, NULL, optional, p->file, p->include_line, stack, depth + 1,
			     p->set) < 0)
			r = -EINVAL;
	}
	return r;
}

/* name from the search path, or (file set) the profile in that file, named by its base name */
static int load_one(struct wq_ctx *ctx, const char *const *dirs, size_t ndirs, const char *name, const char *file,
		    bool optional, const char *from_file, int from_line, char **stack, int depth, struct wq_pset *set)
{
	struct parse p = {.ctx = ctx, .set = set};
	char *path = NULL;
	int r, fd;

	for (size_t i = 0; i < set->n; i++)
		if (streq(set->names[i], name))
			return 0; /* already loaded through another include */
	for (int i = 0; i < depth; i++) {
		if (streq(stack[i], name)) {
			char chain[512] = "";
			size_t len = 0;

			for (int j = i; j < depth && len < sizeof(chain) - 70; j++)
				len += (size_t)snprintf(chain + len, sizeof(chain) - len, "%s -> ", stack[j]);
			snprintf(chain + len, sizeof(chain) - len, "%s", name);
			wq_log(ctx, WQ_LOG_ERR, "%s:%d: include cycle: %s", from_file, from_line, chain);
			return -EINVAL;
		}
	}
	if (depth >= MAX_INCLUDE_DEPTH) {
		wq_log(ctx, WQ_LOG_ERR, "%s:%d: includes nest deeper than %d", from_file, from_line, MAX_INCLUDE_DEPTH);
		return -EINVAL;
	}
	if (file) {
		/* a path given on the command line: the host's file, relative to the working directory */
		path = strdup(file);
		r = path ? 0 : -ENOMEM;
	} else {
		r = wq_profile_find(ctx, dirs, ndirs, name, &path);
	}
	if (r < 0) {
		const char *why = r == -ENXIO	 ? "profile is masked"
				  : r == -ENOENT ? "no such profile"
						 : wq_strerror(-r);

		size_t len = strlen(name);
		/* "--profile my.conf" meant a file: say how to name one */
		bool file_like = r == -ENOENT && len > 5 && streq(name + len - 5, ".conf");

		if (optional && r == -ENOENT)
			return 0;
		if (from_file)
			wq_log(ctx, WQ_LOG_ERR, "%s:%d: include '%s': %s", from_file, from_line, name, why);
		else
			wq_log(ctx, WQ_LOG_ERR, "%s: %s%s%s%s", name, why, file_like ? " (for a file, write ./" : "",
			       file_like ? name : "", file_like ? ")" : "");
		return -EINVAL;
	}
	p.file = path;
	fd = wq_root_open_path(ctx->root, path, O_RDONLY);
	if (fd >= 0) {
		char why[PATH_MAX + 64];
		int e = wq_fd_trusted(fd, why, sizeof(why));

		if (e == 0)
			e = wq_fd_too_large(fd, WQ_PROFILE_MAX_SIZE, why, sizeof(why));
		if (e < 0) {
			wq_log(ctx, WQ_LOG_ERR, "%s: refusing to read: %s", path, e == -EPERM ? why : wq_strerror(-e));
			close(fd);
			free(path);
			return -EINVAL;
		}
	}
	p.f = fd >= 0 ? fdopen(fd, "re") : NULL;
	if (!p.f) {
		wq_log(ctx, WQ_LOG_ERR, "%s: cannot open: %s", path, wq_strerror(fd < 0 ? -fd : errno));
		if (fd >= 0)
			close(fd);
		free(path);
		return -EINVAL;
	}
	r = ini_parse_stream(reader, &p, handler, &p);
	fclose(p.f);
	free(p.buf);
	if (r > 0 && !p.bad)
		perr(&p, r, "syntax error (expected KEY = VALUE or [SECTION])");
	else if (r < 0 && !p.bad)
		perr(&p, p.line, "cannot parse (%d)", r);
	stack[depth] = (char *)name;
	if (!p.bad && do_includes(ctx, dirs, ndirs, &p, stack, depth) < 0)
		p.bad = true;
	/* Parents first, then this profile's sections. */
	if (wq_names_append(&set->names, set->n, strdup(name)) < 0 || wq_names_append(&set->files, set->n, path) < 0 ||
	    wq_names_append(&set->descs, set->n, p.desc ? p.desc : strdup("")) < 0) {
		p.bad = true;
	} else {
		set->n++;
		path = NULL;
		p.desc = NULL;
	}
	/* Outside its kernels, every setting of this profile (not of its includes) is unsupported. */
	if (!p.bad && p.kernels && wq_kernels_match(p.kernels, &ctx->kver) == 0) {
		for (size_t i = 0; i < p.nsects; i++) {
			if (asprintf(&p.sects[i].off_kernel, "profile %s is for kernels %s; this is %s", name,
				     p.kernels, ctx->kver.release) < 0) {
				p.sects[i].off_kernel = NULL;
				p.bad = true;
			}
		}
	}
	if (!p.bad && p.nsects) {
		struct wq_psect *ns = realloc(set->s, sizeof(*ns) * (set->ns + p.nsects));

		if (ns) {
			set->s = ns;
			for (size_t i = 0; i < p.nsects; i++) {
				p.sects[i].file = set->files[set->n - 1];
				set->s[set->ns++] = p.sects[i];
			}
			p.nsects = 0;
		} else {
			p.bad = true;
		}
	}
	for (size_t i = 0; i < p.nsects; i++)
		sect_free(&p.sects[i]);
	free(p.sects);
	free(p.desc);
	free(p.include);
	free(p.kernels);
	free(p.sect_name);
	free(path);
	return p.bad ? -EINVAL : 0;
}

static int kernels_bound(const char *s, size_t len, struct wq_kver *kv)
{
	char buf[32];

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	for (size_t i = 0; i < len; i++)
		if (!isdigit((unsigned char)buf[i]) && buf[i] != '.')
			return -EINVAL;
	return wq_kver_parse(buf, kv);
}

int wq_kernels_match(const char *range, const struct wq_kver *kv)
{
	const char *dash = strchr(range, '-');
	struct wq_kver lo = {0}, hi = {0};
	bool has_lo, has_hi, hi_patch;
	size_t hilen;

	while (isspace((unsigned char)*range))
		range++;
	if (!dash) {
		/* one series: 6.12 is 6.12-6.12 */
		if (kernels_bound(range, strcspn(range, " \t"), &lo) < 0 || range[strcspn(range, " \t")])
			return -EINVAL;
		hi = lo;
		has_lo = has_hi = true;
		hi_patch = strchr(strchr(range, '.') + 1, '.') != NULL;
	} else {
		has_lo = dash > range;
		hilen = strlen(dash + 1);
		has_hi = hilen > 0;
		if ((!has_lo && !has_hi) || strchr(dash + 1, '-'))
			return -EINVAL;
		if (has_lo && kernels_bound(range, (size_t)(dash - range), &lo) < 0)
			return -EINVAL;
		if (has_hi && kernels_bound(dash + 1, hilen, &hi) < 0)
			return -EINVAL;
		hi_patch = has_hi && strchr(strchr(dash + 1, '.') + 1, '.') != NULL;
	}
	if (!kv->known)
		return 1; /* an unknown kernel is not excluded */
	if (has_lo && wq_kver_cmp(kv, lo.major, lo.minor, lo.patch) < 0)
		return 0;
	/* an upper bound without a patch level takes every release of its series */
	if (has_hi && wq_kver_cmp(kv, hi.major, hi.minor, hi_patch ? hi.patch : 1 << 30) > 0)
		return 0;
	return 1;
}

int wq_pset_load(struct wq_ctx *ctx, const char *const *dirs, size_t ndirs, char *const *names, size_t n,
		 struct wq_pset *set)
{
	char *stack[MAX_INCLUDE_DEPTH + 1];
	int r = 0;

	memset(set, 0, sizeof(*set));
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *base = NULL;
		const char *file = NULL, *name = names[i];

		if (strchr(names[i], '/')) {
			/* a file: PATH/NAME.conf is profile NAME, its includes come from the search path */
			const char *b = strrchr(names[i], '/') + 1;
			size_t len = strlen(b);

			if (len > 5 && streq(b + len - 5, ".conf"))
				len -= 5;
			base = strndup(b, len);
			if (!base)
				return -ENOMEM;
			file = names[i];
			name = base;
		}
		if (!wq_profile_name_is_valid(name)) {
			wq_log(ctx, WQ_LOG_ERR, "%s: not a valid profile name%s", names[i],
			       file ? " (a file's name, less .conf, names its profile)" : "");
			r = -EINVAL;
			continue;
		}
		if (load_one(ctx, dirs, ndirs, name, file, false, NULL, 0, stack, 0, set) < 0)
			r = -EINVAL;
	}
	return r;
}

void wq_pset_free(struct wq_pset *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->names[i]);
		free(set->files[i]);
		free(set->descs[i]);
	}
	free(set->names);
	free(set->files);
	free(set->descs);
	for (size_t i = 0; i < set->ns; i++)
		sect_free(&set->s[i]);
	free(set->s);
	memset(set, 0, sizeof(*set));
}

/* --- the administrator's profiles (etc/wqctl/profiles) --------------------- */

struct text {
	const char *s;
	size_t len;
};

static void fill_text(FILE *f, const void *data)
{
	const struct text *t = data;

	fwrite(t->s, 1, t->len, f);
}

static int local_rel(const char *name, char *rel, size_t size)
{
	if (!wq_profile_name_is_valid(name))
		return -EINVAL;
	if ((size_t)snprintf(rel, size, LOCAL_DIR "/%s.conf", name) >= size)
		return -ENAMETOOLONG;
	return 0;
}

int wq_profile_install(struct wq_ctx *ctx, const char *name, const char *text, size_t len)
{
	struct text t = {text, len};
	char rel[WQ_NAME_MAX + 64];
	int r = local_rel(name, rel, sizeof(rel));

	if (r == 0)
		r = wq_root_mkdirs(ctx->root, LOCAL_DIR);
	return r < 0 ? r : wq_root_replace(ctx->root, rel, 0644, fill_text, &t);
}

int wq_profile_uninstall(struct wq_ctx *ctx, const char *name)
{
	char rel[WQ_NAME_MAX + 64];
	struct stat st;
	int r = local_rel(name, rel, sizeof(rel)), fd;

	if (r < 0)
		return r;
	fd = wq_root_open(ctx->root, rel, O_PATH | O_NOFOLLOW);
	if (fd < 0)
		return fd;
	r = fstat(fd, &st) < 0 ? -errno : 0;
	close(fd);
	if (r < 0)
		return r;
	/* the file itself or a link (a mask): never what a link names */
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return -WQ_ENOTREG;
	return wq_root_unlink(ctx->root, rel);
}

int wq_profile_read_installed(struct wq_ctx *ctx, const char *name, char **text)
{
	char rel[WQ_NAME_MAX + 64], why[PATH_MAX + 64];
	struct stat st;
	int r = local_rel(name, rel, sizeof(rel)), fd;

	*text = NULL;
	if (r < 0)
		return r;
	if (wq_root_readlink(ctx->root, rel, why, sizeof(why)) >= 0 && streq(why, "/dev/null"))
		return -ENXIO;
	fd = wq_root_open_file(ctx->root, rel, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	r = fstat(fd, &st) < 0 ? -errno : 0;
	/* a profile is anyone's to read: a file kept from others is not one to print */
	if (r == 0 && !(st.st_mode & S_IROTH))
		r = -EACCES;
	if (r == 0)
		r = wq_fd_trusted(fd, why, sizeof(why));
	if (r == 0)
		r = wq_fd_too_large(fd, WQ_PROFILE_MAX_SIZE, why, sizeof(why)) < 0 ? -EFBIG : 0;
	if (r == 0)
		r = wq_fd_read(fd, text);
	close(fd);
	return r;
}
