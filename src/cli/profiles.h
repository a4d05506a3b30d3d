/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Profile loading shared by profile, apply, verify, check. */
#ifndef WQCTL_PROFILES_H
#define WQCTL_PROFILES_H

#include "../lib/core/apply.h"
#include "../lib/core/profile.h"
#include "cli.h"

/* The profile search path: --profile-dir, or the defaults below the root. 0 or -ENOMEM. */
int cli_profile_dirs(struct cli *cli, char ***dirs, size_t *n);
void cli_strv_free(char **v, size_t n);
/*
 * The names in directory path (a host path: below a sysroot it is walked
 * inside the tree) that end in suffix and are valid profile names, suffix
 * stripped, appended to *names. A directory that cannot be read adds none.
 * 0 or -ENOMEM.
 */
int cli_dir_names(struct cli *cli, const char *path, const char *suffix, char ***names, size_t *n);
/*
 * Load the named profiles, or the active set when n is 0 (*none: there is
 * no active set). EXIT_OK, or EXIT_USAGE after the errors were printed.
 */
int cli_load_profiles(struct cli *cli, char **names, size_t n, struct wq_pset *set, bool *none);
/*
 * Print invalid (error), skipped (warning; for apply, a value this machine
 * cannot take is an error), unsupported and absent (-v); returns the number
 * invalid.
 */
int cli_report_settings(struct cli *cli, const struct wq_settings *s);
/*
 * A request set, knob or experiment refuses (any verdict but ok): the
 * value's error as "OBJECT: invalid value 'V': WHY", or "OBJECT: WHY" where
 * the value is not at fault (unreadable, needs --force).
 */
void cli_say_refusal(struct cli *cli, const char *object, const char *value, const struct wq_req_verdict *v);

#endif
