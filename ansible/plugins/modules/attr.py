#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# wqctl.wqctl.attr: workqueue attributes through wqctl set, with check and diff modes.

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: attr
short_description: Set kernel workqueue attributes through wqctl
description:
  - Sets attributes of a kernel workqueue, or of every workqueue a glob names, with
    C(wqctl set), which checks every value against the running kernel and topology
    before anything is written and reads each written value back.
  - A value wqctl refuses fails the task with wqctl's own message, and nothing is written.
  - C(changed) is true only when a value really changes; CPU masks are compared as CPU sets.
version_added: 0.1.0
author: Seed 9335bbfe maintainers (@wqctl)
options:
  name:
    description: A workqueue name as sysfs lists it, or a glob of them.
    type: str
    required: true
  attrs:
    description:
      - Attribute names and values, as C(wqctl set) takes them
        (C(max_active), C(cpumask), C(affinity_scope), C(affinity_strict), C(nice), C(numa)).
    type: dict
    required: true
  force:
    description: Allow a max_active that lowers the kernel's hidden min_active (kernels 6.9 and later).
    type: bool
    default: false
extends_documentation_fragment:
  - wqctl.wqctl.wqctl
"""

EXAMPLES = r"""
- name: Writeback work on node 0, at most 64 at a time
  wqctl.wqctl.attr:
    name: writeback
    attrs:
      max_active: 64
      cpumask: "node:0"

- name: Every iSCSI queue of the host strict in its pod
  wqctl.wqctl.attr:
    name: "iscsi_q_*"
    attrs:
      affinity_strict: 1
"""

RETURN = r"""
changes:
  description: Each attribute that changed (or, in check mode, would change), as wqctl displays values.
  returned: always
  type: list
  elements: dict
  sample: [{"object": "writeback/max_active", "old": "1024", "new": "64"}]
readback:
  description: The values read back after the change (in check mode, as they are), by workqueue, as C(wqctl -J get) prints them.
  returned: always
  type: dict
  sample: {"writeback": {"max_active": 64, "cpumask": "0-3"}}
"""

import json

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.wqctl.wqctl.plugins.module_utils.wqctl import COMMON_ARGS, Wqctl


def value_text(v):
    if isinstance(v, bool):
        return "1" if v else "0"
    return str(v)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            name=dict(type="str", required=True),
            attrs=dict(type="dict", required=True),
            force=dict(type="bool", default=False),
            **COMMON_ARGS
        ),
        supports_check_mode=True,
    )
    p = module.params
    w = Wqctl(module)
    if not p["attrs"]:
        module.fail_json(msg="attrs: give at least one attribute")
    assign = ["%s=%s" % (k, value_text(v)) for k, v in p["attrs"].items()]
    force = ["--force"] if p["force"] else []
    # the plan: every value checked, nothing written; ACTION says which really change
    # '--': a name that begins with '-' is a workqueue name, never an option (issue 60 item 13)
    _, out, _ = w.run(["-J", "-o", "OBJECT,OLD,NEW,ACTION", "set", "--dry-run"] + force + ["--", p["name"]] + assign)
    plan = json.loads(out).get("plan", [])
    changes = [dict(object=c["object"], old=c["old"], new=c["new"]) for c in plan if c.get("action") == "write"]
    names = sorted(set(c["object"].rsplit("/", 1)[0] for c in plan))
    if changes and not module.check_mode:
        w.run(["set"] + force + ["--", p["name"]] + assign)
    readback = {}
    for n in names:
        _, out, _ = w.run(["-J", "get", "--", n])
        got = json.loads(out)
        got.pop("workqueue", None)
        readback[n] = got
    diff = dict(
        before="".join("%s = %s\n" % (c["object"], c["old"]) for c in changes),
        after="".join("%s = %s\n" % (c["object"], c["new"]) for c in changes),
        before_header="%s (wqctl)" % p["name"],
        after_header="%s (wqctl)" % p["name"],
    )
    module.exit_json(changed=bool(changes), changes=changes, readback=readback, diff=diff)


if __name__ == "__main__":
    main()
