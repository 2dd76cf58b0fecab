#!/bin/sh
# $BROWSER for the tests that log in: what a person's browser does with the authorization URL
# toolplane opens. It loads the page and follows its redirects; the authorization servers of the
# tests approve at once and redirect to toolplane's loopback address with the code and state,
# which ends the login as a real browser's visit would. curl where there is one (a Node start
# costs 20 times as much), else browser.mjs.
if command -v curl >/dev/null 2>&1; then
  exec curl --silent --show-error --fail --location --noproxy '*' --output /dev/null -- "$1"
fi
exec node "$(dirname "$0")/browser.mjs" "$1"
