#!/bin/sh
# Chromium as root raises its browser and GPU threads to nice -8 (it may: CAP_SYS_NICE), which on a
# busy machine starves every other process, the other test suites of `npm test` among them. Started
# without that capability it keeps the priority it was given, like the rest of the run. Where the
# capability cannot be dropped (no CAP_SETPCAP), Chromium starts as it is.
chromium="${E2E_CHROMIUM:-/usr/bin/chromium}"
if setpriv --inh-caps -sys_nice --bounding-set -sys_nice -- true 2>/dev/null; then
  exec setpriv --inh-caps -sys_nice --bounding-set -sys_nice -- "$chromium" "$@"
fi
exec "$chromium" "$@"
