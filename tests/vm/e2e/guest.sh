#!/bin/sh
# Runs in the booted guest, started in the background by e2e.service; waits
# for the boot to finish. Prints
# @@ lines on the serial console for tests/vm/e2e/run.sh; decides nothing.
echo "@@E2E-UP uptime $(cut -d' ' -f1 /proc/uptime) kernel $(uname -r)"
# wait for the boot job to finish, so systemd-analyze has its figures
i=0
while [ "$(systemctl is-system-running 2>/dev/null)" = starting ] && [ $i -lt 120 ]; do sleep 1; i=$((i + 1)); done
echo "@@STATE $(systemctl is-system-running 2>/dev/null)"
echo "@@ACTIVE $(cat /etc/wqctl/active-profiles 2>/dev/null | tr '\n' ' ')"
wqctl verify -r >/tmp/verify.txt 2>&1
echo "@@VERIFY rc=$?"
sed 's/^/@@VERIFY-OUT /' /tmp/verify.txt
echo "@@UNIT $(systemctl show wqctl.service -p ActiveState -p Result -p ExecMainStatus -p NRestarts | tr '\n' ' ')"
echo "@@UNIT-RUNS $(journalctl -b -o cat -u wqctl.service | grep -c '^Finished \|^Started ')"
journalctl -b -o cat -t wqctl | sed 's/^/@@JOURNAL /'
echo "@@BLAME $(systemd-analyze blame 2>/dev/null | awk '$NF == "wqctl.service"')"
echo "@@ANALYZE $(systemd-analyze 2>/dev/null | head -1)"
echo "@@FAILED $(systemctl --failed --no-legend --plain | awk '{ print $1 }' | tr '\n' ' ')"
echo "@@E2E-END uptime $(cut -d' ' -f1 /proc/uptime)"
systemctl poweroff
