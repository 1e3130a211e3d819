#!/bin/sh
# Chromium as root raises its browser and GPU threads to nice -8 (it may: CAP_SYS_NICE), which on a
# busy machine starves every other process, the other test suites of `npm test` among them. Started
# without that capability it keeps the priority it was given, like the rest of the run.
exec setpriv --inh-caps -sys_nice --bounding-set -sys_nice -- "${E2E_CHROMIUM:-/usr/bin/chromium}" "$@"
