#!/usr/bin/env node
// $BROWSER for the conformance tests: what a person's browser does with the authorization URL
// toolplane opens. It loads the page and follows its redirects; the suite's authorization server
// approves at once and redirects to toolplane's loopback address with the code and state, which
// ends the login as a real browser's visit would.
const response = await fetch(process.argv[2] ?? "");
await response.text();
