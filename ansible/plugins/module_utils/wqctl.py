# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# Running the managed host's wqctl for the wqctl.wqctl modules: its options, and its own messages as failures.

from __future__ import absolute_import, division, print_function

__metaclass__ = type

# the argument_spec entries of the options the doc fragment wqctl.wqctl.wqctl documents
COMMON_ARGS = dict(
    sysroot=dict(type="path"),
    executable=dict(type="path", default="wqctl"),
)


class Wqctl(object):
    def __init__(self, module):
        self.m = module
        exe = module.params["executable"]
        self.exe = exe if "/" in exe else module.get_bin_path(exe, required=True)
        self.root = module.params["sysroot"] or ""

    def run(self, args, check=True, profile_dir=None, hide=None):
        """Run wqctl; with check, a non-zero exit fails the task with wqctl's message (hide: a path to leave out of it)."""
        cmd = [self.exe]
        if self.root:
            cmd += ["--sysroot", self.root]
        if profile_dir:
            cmd += ["--profile-dir", profile_dir]
        rc, out, err = self.m.run_command(cmd + args)
        if check and rc != 0:
            msg = err.strip() or out.strip()
            if hide:
                msg = msg.replace(hide.rstrip("/") + "/", "")
            self.m.fail_json(msg=msg, rc=rc, cmd=cmd + args)
        return rc, out, err
