// browser.sh without curl: loads the page and follows its redirects with fetch.
const response = await fetch(process.argv[2] ?? "");
await response.text();
