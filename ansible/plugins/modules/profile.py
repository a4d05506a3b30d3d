#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# wqctl.wqctl.profile: a wqctl profile installed, validated, activated, applied and verified.

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: profile
short_description: Install, activate, apply and verify a wqctl profile
description:
  - Installs a profile (see wqctl.profile(5)) as C(/etc/wqctl/profiles/NAME.conf) from
    O(content) or O(src), after wqctl has validated it against the running kernel; an
    invalid profile fails the task with wqctl's messages and nothing is installed.
  - With O(state=active) the profile joins the active set (C(wqctl profile use)), which
    C(wqctl apply) applies (unless O(apply=false)) and C(wqctl verify) then checks.
  - With O(state=inactive) the profile stays installed but leaves the active set; when it
    was the only active one, C(wqctl profile off) also restores what wqctl had changed.
    O(state=absent) removes it as well.
version_added: 0.1.0
author: Seed 9335bbfe maintainers (@wqctl)
options:
  name:
    description: The profile's name (letters, digits, C(.), C(_) and C(-)).
    type: str
    required: true
  content:
    description: The profile's text.
    type: str
  src:
    description: A file on the managed host holding the profile's text.
    type: path
  state:
    description: Whether the profile is installed and active, installed only, or removed.
    type: str
    choices: [active, inactive, absent]
    default: active
  apply:
    description: With O(state=active), apply the active set now and verify the profile.
    type: bool
    default: true
extends_documentation_fragment:
  - wqctl.wqctl.wqctl
"""

EXAMPLES = r"""
- name: Storage limits at boot and now
  wqctl.wqctl.profile:
    name: storage
    content: |
      [workqueue writeback]
      max_active = 64

- name: Keep it installed but not applied at the next boot
  wqctl.wqctl.profile:
    name: storage
    state: inactive
"""

RETURN = r"""
active:
  description: The active profile set afterwards (in check mode, as it would be).
  returned: always
  type: list
  elements: str
changes:
  description: The values C(wqctl apply) changed (in check mode, would change), as wqctl displays them.
  returned: always
  type: list
  elements: dict
verify:
  description: C(wqctl verify) of the profile after it was applied, one row a setting.
  returned: when the profile was applied
  type: list
  elements: dict
"""

import json
import os
import re
import shutil
import tempfile

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.wqctl.wqctl.plugins.module_utils.wqctl import COMMON_ARGS, Wqctl

PROFILES = "/etc/wqctl/profiles"


def active(w):
    _, out, _ = w.run(["profile", "current"])
    return [l for l in out.splitlines() if l.strip()]


def plan(w, args, profile_dir=None):
    """The writes a dry run of apply would make, each as wqctl displays it (the text under test named as the profile)."""
    _, out, _ = w.run(["-J", "-o", "OBJECT,OLD,NEW,ACTION", "apply", "--dry-run"] + args, profile_dir=profile_dir, hide=profile_dir)
    doc = json.loads(out) if out.strip().startswith("{") else {}
    return [dict(object=c["object"], old=c["old"], new=c["new"]) for c in doc.get("plan", []) if c.get("action") == "write"]


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except IOError:
        return None


def main():
    module = AnsibleModule(
        argument_spec=dict(
            name=dict(type="str", required=True),
            content=dict(type="str"),
            src=dict(type="path"),
            state=dict(type="str", choices=["active", "inactive", "absent"], default="active"),
            apply=dict(type="bool", default=True),
            **COMMON_ARGS
        ),
        mutually_exclusive=[["content", "src"]],
        required_if=[["state", "active", ["content", "src"], True], ["state", "inactive", ["content", "src"], True]],
        supports_check_mode=True,
    )
    p = module.params
    name = p["name"]
    if not re.match(r"^[A-Za-z0-9_][A-Za-z0-9._-]*$", name):
        module.fail_json(msg="name '%s': a profile name is letters, digits, '.', '_' and '-'" % name)
    w = Wqctl(module)
    path = (p["sysroot"] or "") + os.path.join(PROFILES, name + ".conf")
    before_text = read(path)
    before_active = active(w)
    result = dict(changed=False, changes=[], active=before_active)
    diff = dict(before="", after="", before_header=path, after_header=path)

    if p["state"] == "absent":
        after_active = [n for n in before_active if n != name]
        result["changed"] = before_text is not None or after_active != before_active
        diff["before"] = before_text or ""
        if result["changed"] and not module.check_mode:
            if after_active != before_active:
                w.run(["profile", "use"] + after_active if after_active else ["profile", "off"])
            if before_text is not None:
                os.unlink(path)
        result["active"] = after_active
        module.exit_json(diff=diff, **result)

    text = p["content"] if p["content"] is not None else read(p["src"])
    if text is None:
        module.fail_json(msg="src %s: cannot read it" % p["src"])
    if not text.endswith("\n"):
        text += "\n"
    # wqctl validates the text where nothing reads it yet: a directory of our own (root's, 0700)
    tmp = tempfile.mkdtemp(prefix="wqctl-profile-")
    try:
        with open(os.path.join(tmp, name + ".conf"), "w") as f:
            f.write(text)
        os.chmod(os.path.join(tmp, name + ".conf"), 0o644)
        alone = plan(w, ["--profile", name], profile_dir=tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    file_changed = before_text != text
    diff["before"] = before_text or ""
    diff["after"] = text
    if p["state"] == "active":
        after_active = before_active + ([name] if name not in before_active else [])
    else:
        after_active = [n for n in before_active if n != name]
    result["active"] = after_active
    result["changed"] = file_changed or after_active != before_active

    if module.check_mode:
        if p["state"] == "active" and p["apply"]:
            result["changes"] = alone
            result["changed"] = result["changed"] or bool(alone)
        module.exit_json(diff=diff, **result)

    if file_changed:
        d = os.path.dirname(path)
        if not os.path.isdir(d):
            os.makedirs(d, 0o755)
        fd, new = tempfile.mkstemp(dir=d, prefix="." + name + ".")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(new, 0o644)
        module.atomic_move(new, path)
    if after_active != before_active:
        w.run(["profile", "use"] + after_active if after_active else ["profile", "off"])
    if p["state"] == "active" and p["apply"]:
        changes = plan(w, [])
        if changes:
            w.run(["apply"])
            result["changed"] = True
        result["changes"] = changes
        rc, out, err = w.run(["-J", "verify", "--profile", name], check=False)
        rows = json.loads(out).get("settings", []) if out.strip().startswith("{") else []
        result["verify"] = rows
        if rc not in (0,):
            module.fail_json(msg="wqctl verify --profile %s: exit %d: %s" % (name, rc, err.strip() or "drift"), **result)
    module.exit_json(diff=diff, **result)


if __name__ == "__main__":
    main()
