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
    O(content) or O(src), after wqctl has validated it; an invalid profile fails the task
    with wqctl's messages and nothing is installed.
  - The profile file is read, written and removed by wqctl itself (C(wqctl profile cat),
    C(install), C(remove)), so every path resolves inside O(sysroot) as wqctl resolves it:
    a link in the tree never leads the module out of it.
  - With O(state=active) the profile joins the active set (C(wqctl profile use)), which
    C(wqctl apply) applies (unless O(apply=false)) and C(wqctl verify) then checks.
  - Before anything is written (and in check mode) the module plans what the real run does,
    C(wqctl apply --dry-run) of the whole active set with the new text. The task fails with
    wqctl's reason exactly where wqctl's table of conditions (wqctl.profile(5), CONDITIONS)
    says apply or verify exits non-zero; a setting another kernel or machine lacks (severity
    info) does not fail it. A task that fails after writing puts the profile file and the
    active set back as it found them.
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
  description: C(wqctl verify) of the profile after it was applied, one row a setting (target,
    status, condition, expected, actual, reason).
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


def set_args(names, name, path):
    """--profile for each name of an active set, with this task's text (a file) standing for NAME."""
    args = []
    for n in names:
        args += ["--profile", path if n == name else n]
    return args


def plan(w, args, hide=None):
    """What apply would do: the writes (as wqctl displays them), or wqctl's own refusal (rc, message)."""
    rc, out, err = w.run(["-J", "-o", "OBJECT,OLD,NEW,ACTION", "apply", "--dry-run"] + args, check=False)
    doc = json.loads(out) if out.strip().startswith("{") else {}
    msg = err.strip()
    if hide:
        msg = msg.replace(hide.rstrip("/") + "/", "")
    writes = [dict(object=c["object"], old=c["old"], new=c["new"]) for c in doc.get("plan", []) if c.get("action") == "write"]
    return rc, writes, msg


def read(path):
    """A file the task names on the managed host (src)."""
    try:
        with open(path) as f:
            return f.read()
    except IOError:
        return None


def installed(w, name):
    """The installed text of NAME, or None: wqctl reads it, every path resolved inside the root."""
    rc, out, err = w.run(["profile", "cat", name], check=False)
    if rc == 32:
        return None
    if rc != 0:
        w.m.fail_json(msg=err.strip() or "wqctl profile cat %s: exit %d" % (name, rc), rc=rc)
    return out


def stage(tmp, name, text):
    """text as NAME.conf in tmp (a directory of our own, root's, 0700), 0644 as wqctl wants a profile."""
    path = os.path.join(tmp, name + ".conf")
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o644)
    return path


def install(w, name, text):
    """Install text as NAME: wqctl validates it and renames it into place, inside the root."""
    tmp = tempfile.mkdtemp(prefix="wqctl-profile-")
    try:
        w.run(["profile", "install", name, stage(tmp, name, text)], hide=tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def use(w, names, keep=False):
    """Make names the active set; an empty one with profile off (--keep: the values stay)."""
    w.run(["profile", "use"] + names if names else ["profile", "off"] + (["--keep"] if keep else []))


def conditions(w):
    """wqctl's table of conditions (wqctl.profile(5) CONDITIONS): code -> (severity, verify's exit)."""
    _, out, _ = w.run(["__complete", "conditions"])
    return dict((f[0], (f[1], int(f[6]))) for f in (l.split("\t") for l in out.splitlines()) if len(f) >= 8)


def reasons(rows, table):
    """The rows verify fails for, in wqctl's words."""
    bad = []
    for r in rows:
        cond = r.get("condition") or ""
        if table.get(cond, ("", 1))[1] == 0:
            continue
        what = "%s: %s (%s)" % (r.get("target"), r.get("status"), cond)
        if r.get("status") in ("drift",):
            what += ": expected %s, actual %s" % (r.get("expected"), r.get("actual"))
        if r.get("reason"):
            what += ": %s" % r["reason"]
        bad.append(what)
    return "; ".join(bad)


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
    # shown in the diff only: every read and write of it is wqctl's, resolved inside the root
    path = (p["sysroot"] or "") + os.path.join(PROFILES, name + ".conf")
    before_text = installed(w, name)
    before_active = active(w)
    result = dict(changed=False, changes=[], active=before_active)
    diff = dict(before="", after="", before_header=path, after_header=path)

    if p["state"] == "absent":
        after_active = [n for n in before_active if n != name]
        result["changed"] = before_text is not None or after_active != before_active
        diff["before"] = before_text or ""
        if result["changed"] and not module.check_mode:
            if after_active != before_active:
                use(w, after_active)
            if before_text is not None:
                w.run(["profile", "remove", name])
        result["active"] = after_active
        module.exit_json(diff=diff, **result)

    text = p["content"] if p["content"] is not None else read(p["src"])
    if text is None:
        module.fail_json(msg="src %s: cannot read it" % p["src"])
    if not text.endswith("\n"):
        text += "\n"
    file_changed = before_text != text
    diff["before"] = before_text or ""
    diff["after"] = text
    if p["state"] == "active":
        after_active = before_active + ([name] if name not in before_active else [])
    else:
        after_active = [n for n in before_active if n != name]
    result["active"] = after_active
    result["changed"] = file_changed or after_active != before_active
    applying = p["state"] == "active" and p["apply"]

    # Before anything is written, in check mode and for real alike: what the real run will do, the
    # whole active set with this text (a file in a directory of our own, root's, 0700), or wqctl's
    # refusal. A refusal (exit 2) or a setting apply would skip with a warning (exit 1) fails the task.
    tmp = tempfile.mkdtemp(prefix="wqctl-profile-")
    try:
        mine = stage(tmp, name, text)
        rc, writes, msg = plan(w, set_args(after_active if applying else [name], name, mine), hide=tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if rc == 2 or (applying and rc != 0):
        # nothing was written: the host is as the task found it
        module.fail_json(msg=msg or "wqctl apply --dry-run: exit %d" % rc, rc=rc, **dict(result, changed=False, active=before_active))
    if applying:
        result["changes"] = writes
        result["changed"] = result["changed"] or bool(writes)
    if module.check_mode:
        module.exit_json(diff=diff, **result)

    def undo(msg, **extra):
        """A failed task leaves the host as it found it: the active set and the file."""
        if after_active != before_active:
            use(w, before_active, keep=True)
        if before_text is None:
            w.run(["profile", "remove", name], check=False)
        elif file_changed:
            install(w, name, before_text)
        result["active"] = before_active
        module.fail_json(msg=msg, **dict(result, **extra))

    if file_changed:
        install(w, name, text)
    if after_active != before_active:
        use(w, after_active)
    if applying:
        if writes:
            rc, _, err = w.run(["apply"], check=False)
            if rc != 0:
                undo(err.strip() or "wqctl apply: exit %d" % rc, rc=rc)
        rc, out, err = w.run(["-J", "-o", "TARGET,STATUS,CONDITION,EXPECTED,ACTUAL,REASON", "verify", "--profile", name], check=False)
        rows = json.loads(out).get("settings", []) if out.strip().startswith("{") else []
        result["verify"] = rows
        if rc != 0:
            undo("wqctl verify --profile %s: exit %d: %s" % (name, rc, reasons(rows, conditions(w)) or err.strip()), rc=rc)
    module.exit_json(diff=diff, **result)


if __name__ == "__main__":
    main()
