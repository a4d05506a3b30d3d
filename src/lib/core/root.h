/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The root handle: every access to sysfs and procfs goes through here.
 * Paths passed in are relative to the root ("sys/devices/..."); with a
 * sysroot, symlinks inside the tree resolve inside the tree.
 */
#ifndef WQ_ROOT_H
#define WQ_ROOT_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* Relative locations of everything wqctl reads; the only place they live. */
#define WQ_P_WQ "sys/devices/virtual/workqueue"
#define WQ_P_BUS_WQ "sys/bus/workqueue/devices"
#define WQ_P_PARAMS "sys/module/workqueue/parameters"
#define WQ_P_CPU "sys/devices/system/cpu"
#define WQ_P_NODE "sys/devices/system/node"
#define WQ_P_OSRELEASE "proc/sys/kernel/osrelease"
#define WQ_P_CMDLINE "proc/cmdline"
#define WQ_P_MOUNTS "proc/self/mounts"
/* a dump's record of the live route lookups of iSCSI connections (wqctl dump; owner resolution below a sysroot) */
#define WQ_P_ROUTES "wqctl-dump/iscsi-routes"
#define WQ_P_KALLSYMS "proc/kallsyms"
#define WQ_P_UDEV_DATA "run/udev/data"
#define WQ_P_TRACEFS "sys/kernel/tracing"
#define WQ_P_KCORE "proc/kcore"
#define WQ_P_BTF "sys/kernel/btf/vmlinux"
#define WQ_P_LOCKDOWN "sys/kernel/security/lockdown"

struct wq_root;

/* Errors of our own, beyond errno's range: refused file types and contents. */
#define WQ_ENOTREG 4096 /* not a regular file (a FIFO, a device, a directory) */
#define WQ_ENUL 4097 /* a NUL byte inside a value */
#define WQ_ENOTPOSSIBLE 4098 /* a CPU list names CPUs outside the possible ones */
#define WQ_EBADCPUS 4099 /* a CPU list or mask file that does not parse */
#define WQ_ETMPFILE 4100 /* a file below a sysroot: its .NAME.wqctl-new could not be made (nothing written) */
/* strerror() that also knows the WQ_E* codes above. */
const char *wq_strerror(int e);

/*
 * The inode of this process's own PID namespace (the live /proc, whatever
 * the root: it names this process, not the tree), 0 when /proc cannot say.
 */
unsigned long long wq_self_pidns(void);
/* Open the live root ("/", sysroot NULL) or a dump. Returns 0 or -errno. */
int wq_root_new(const char *sysroot, struct wq_root **out);
/*
 * A directory root writes one file into (metrics --textfile), as a root of
 * its own: DIR itself not a symlink (opened without following it, so a
 * parent someone else owns cannot swap it afterwards), and, run as root,
 * owned by root and writable by no one else. 0, or -EPERM with why, or -errno.
 */
int wq_root_new_outdir(const char *dir, struct wq_root **out, char *why, size_t whysz);
void wq_root_free(struct wq_root *root);
/* True for the live machine, false for a --sysroot tree. */
bool wq_root_is_live(const struct wq_root *root);
/* The sysroot directory as given, or "/" for the live system. */
const char *wq_root_path(const struct wq_root *root);

/* openat() below the root; returns an fd or -errno. */
int wq_root_open(const struct wq_root *root, const char *rel, int flags);
/* Read a whole file, strip one trailing newline; *out is malloc'ed. 0 or -errno. */
int wq_root_read(const struct wq_root *root, const char *rel, char **out);
/*
 * Read the whole of an open regular file from its start (at most 16 MiB,
 * -EFBIG beyond; -WQ_ENUL for a NUL byte), one trailing newline stripped.
 */
int wq_fd_read(int fd, char **out);
/* Read a file into buf (NUL-terminated, trailing newline stripped). len or -errno. */
int wq_root_read_buf(const struct wq_root *root, const char *rel, char *buf, size_t size);
/* The same, but a NUL byte is left for the caller to look for (the length tells). */
int wq_root_read_bytes(const struct wq_root *root, const char *rel, char *buf, size_t size);
/*
 * Write value with one write() (O_WRONLY|O_TRUNC|O_NOFOLLOW), checking
 * write() and close(). Returns 0 or -errno.
 */
int wq_root_write(const struct wq_root *root, const char *rel, const char *value);
/*
 * The one rule for files wqctl keeps or writes (state, profiles, dump output):
 * O_CLOEXEC|O_NONBLOCK|O_NOCTTY, and only regular files (-WQ_ENOTREG for a
 * FIFO, device or directory). Below a sysroot, paths resolve inside it
 * (RESOLVE_IN_ROOT): no symlink leads out of the tree.
 */
/* Open a file below the root under that rule (mode for O_CREAT). fd or -errno. */
int wq_root_open_file(const struct wq_root *root, const char *rel, int flags, mode_t mode);
/* The same for a path outside any root (a --profile-dir the user named). fd or -errno. */
int wq_file_open(const char *path, int flags, mode_t mode);
/*
 * Open a file named by a host path: below a sysroot's directory it resolves
 * inside the tree, elsewhere (a --profile-dir) as wq_file_open. fd or -errno.
 */
int wq_root_open_path(const struct wq_root *root, const char *path, int flags);
/* mkdir -p of a directory below the root, each level resolved inside it. 0 or -errno. */
int wq_root_mkdirs(const struct wq_root *root, const char *reldir);
/*
 * Replace a file below the root: fill() writes a temporary in the same
 * directory, which is fsync()ed, given mode and renamed over rel (a symlink
 * there is replaced, never followed). 0 or -errno.
 */
int wq_root_replace(const struct wq_root *root, const char *rel, mode_t mode, void (*fill)(FILE *f, const void *data),
		    const void *data);
/*
 * Replace the file at a path the user named (experiment --plot), outside
 * any root, the same way: len bytes into ".NAME.wqctl-new" beside it,
 * fsync()ed, given mode, renamed over path. The last component is never
 * followed (a planted symlink is replaced, not written through). 0 or -errno.
 */
int wq_file_replace(const char *path, mode_t mode, const char *data, size_t len);
/*
 * Remove the temporary file a run killed between writing and renaming left
 * beside rel (".NAME.wqctl-new", a regular file only). 1 removed, 0 none
 * (or the live root), -errno.
 */
int wq_root_drop_temp(const struct wq_root *root, const char *rel);
/* unlink a file below the root; 0 when it is not there. 0 or -errno. */
int wq_root_unlink(const struct wq_root *root, const char *rel);
/* symlink target at rel (its directory resolved below the root); 0 when it exists. 0 or -errno. */
int wq_root_symlink(const struct wq_root *root, const char *target, const char *rel);
int wq_root_stat(const struct wq_root *root, const char *rel, struct stat *st);
bool wq_root_exists(const struct wq_root *root, const char *rel);
/*
 * The canonical root-relative path of rel (every symlink followed inside the
 * root), as the kernel names what rel opens: one open instead of a readlink
 * per component. 0, -ENOENT, -EXDEV (no /proc, or the root is not where its
 * name says: walk instead) or -errno.
 */
int wq_root_canonical(const struct wq_root *root, const char *rel, char *out, size_t size);
/* Can rel be reached (an O_PATH open, no stat)? 0 or -errno. */
int wq_root_probe(const struct wq_root *root, const char *rel);
/* opendir() below the root; NULL with errno set on failure. */
DIR *wq_root_opendir(const struct wq_root *root, const char *rel);
/*
 * Each name in a directory but . and .., to fn: getdents64 into a buffer,
 * without fdopendir's fstat and fcntl calls (a cache directory per CPU
 * group, 33 on a 32-node machine). 0 or -errno.
 */
int wq_root_each_name(const struct wq_root *root, const char *rel, void (*fn)(const char *name, void *data),
		      void *data);
/*
 * The same for a directory named by a host path (a profile directory, the
 * saved experiments): below a sysroot's directory it resolves inside the
 * tree, so a symlink there never lists a directory of the host. 0 or -errno.
 */
int wq_root_each_name_path(const struct wq_root *root, const char *path, void (*fn)(const char *name, void *data),
			   void *data);
/* readlink() below the root; NUL-terminated; length or -errno. */
int wq_root_readlink(const struct wq_root *root, const char *rel, char *buf, size_t size);
/* readlink() of a host path, resolved as wq_root_open_path() does. */
int wq_root_readlink_path(const struct wq_root *root, const char *path, char *buf, size_t size);

/*
 * The rule for a file root acts on (a profile, the active set, a saved
 * experiment's command, the journal), as sudo, cron and sshd's StrictModes
 * have it: the file and every directory on its resolved path (after every
 * symlink) owned by root and not writable by group or others; a root-owned
 * sticky directory such as /tmp passes. Only enforced when running as root.
 * 0, or -EPERM with why naming the file or directory, or -errno.
 */
int wq_fd_trusted(int fd, char *why, size_t whysz);

/* Absolute, without "//" and without "." or ".." components (a trailing "/" is allowed). */
bool wq_path_is_canonical(const char *path);
/*
 * A device path as users write it, "/sys/devices/..." or "/devices/..." (a
 * udev DEVPATH), as a root-relative "sys/devices/..." without a trailing
 * slash. -EINVAL when it is not below /sys/devices or has "." or ".."
 * components; -ENAMETOOLONG.
 */
int wq_root_devpath(const char *arg, char *out, size_t size);
/* Absolute path of rel below the root ("/etc/..." live, "DIR/etc/..." in a sysroot). malloc'ed. */
char *wq_root_join(const struct wq_root *root, const char *rel);

#endif
