# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# The options and attributes every wqctl.wqctl module shares.

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):
    DOCUMENTATION = r"""
options:
  sysroot:
    description: Work on a tree dumped by C(wqctl dump) instead of the live system.
    type: path
  executable:
    description: The wqctl program to run.
    type: path
    default: wqctl
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
notes:
  - Needs wqctl on the managed host and root to change the live system.
"""
