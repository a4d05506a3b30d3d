/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a value's path names (an attribute, a knob, a module parameter, a mount option): told once, where an entry is made. */
#ifndef WQ_TARGET_H
#define WQ_TARGET_H

/*
 * What a plan entry or a journal line writes, told once from its path when
 * the entry is made: a workqueue's attribute, a knob of the table, another
 * parameter of the workqueue module, or a btrfs mount's option (mountopt.h;
 * the only one not a file below the root). WQ_T_OTHER: none of these (a
 * journal line naming it is refused).
 */
enum wq_target { WQ_T_ATTR, WQ_T_KNOB, WQ_T_PARAM, WQ_T_MOUNT, WQ_T_OTHER };
enum wq_target wq_target_of(const char *path);

#endif
