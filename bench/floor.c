// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor for bench/hook.sh: a minimal program that does what the udev
 * path must do at the least — read one workqueue's attribute files.
 *   floor ROOT WORKQUEUE
 */
#define _GNU_SOURCE
#include "attrs.h"

int main(int argc, char **argv)
{
	return read_attrs(argc > 1 ? argv[1] : "", argc > 2 ? argv[2] : "writeback") > 0 ? 0 : 1;
}
