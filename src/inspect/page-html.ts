/**
 * The page's shell and style. Scripts and styles come only from this server (no CDN: it works
 * offline), no inline script or style is allowed, and nothing may frame the page or be sent a
 * form: the page builds its content with DOM calls and text nodes only.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The shell: every URL in it is relative, so it keeps the token that is the first path segment. */
export function pageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>toolplane inspect</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="style.css">
<script type="module" src="page/main.js"></script>
</head>
<body>
<header>
  <h1>toolplane inspect</h1>
  <span id="where"></span>
  <span id="live" class="live off" title="live updates">connecting</span>
</header>
<nav id="tabs" role="tablist"></nav>
<div id="notices"></div>
<main id="view"><p class="muted">loading…</p></main>
<div id="asks"></div>
</body>
</html>
`;
}

export const STYLE_CSS = `
:root { --fg: #1d2430; --muted: #6b7480; --line: #d9dee5; --bg: #f7f8fa; --accent: #2f6fdd;
  --tool: #5b8def; --skill: #3fae7a; --deferred: #c08a2b; --frame: #a0a8b4; --native: #c7ccd4; --cut: #d9453b; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; gap: 16px; align-items: baseline; padding: 10px 18px; background: #fff; border-bottom: 1px solid var(--line); }
header h1 { font-size: 16px; margin: 0; }
#where { color: var(--muted); font-family: ui-monospace, monospace; font-size: 12px; flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.live { font-size: 12px; padding: 2px 8px; border-radius: 10px; background: #e5e8ec; }
.live.on { background: #dff3e7; color: #1d6b40; }
.live.flash { background: #fff1c2; color: #6b5310; }
nav { display: flex; gap: 2px; padding: 0 18px; background: #fff; border-bottom: 1px solid var(--line); }
nav button, .subtabs button { border: 0; background: none; padding: 9px 14px; cursor: pointer; font: inherit; color: var(--muted); border-bottom: 2px solid transparent; }
nav button[aria-selected="true"], .subtabs button[aria-selected="true"] { color: var(--fg); border-bottom-color: var(--accent); font-weight: 600; }
.subtabs { display: flex; gap: 2px; border-bottom: 1px solid var(--line); margin-bottom: 12px; }
main { padding: 14px 18px 40px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; margin-bottom: 14px; }
section h2 { font-size: 14px; margin: 0 0 8px; }
h3 { font-size: 13px; margin: 12px 0 6px; }
.muted { color: var(--muted); }
.mono, pre, code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
pre { background: #f3f5f8; border: 1px solid var(--line); border-radius: 4px; padding: 8px 10px; overflow: auto; max-height: 420px; white-space: pre-wrap; word-break: break-word; margin: 6px 0; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eef0f3; vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 12px; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.bar { display: flex; height: 22px; border: 1px solid var(--line); border-radius: 4px; overflow: hidden; background: #fff; margin: 4px 0 2px; }
.bar .seg { height: 100%; border-right: 1px solid #fff; min-width: 1px; }
.seg.tool { background: var(--tool); } .seg.skill { background: var(--skill); } .seg.deferred { background: var(--deferred); }
.seg.frame { background: var(--frame); } .seg.native { background: var(--native); }
.seg.cut { background-image: repeating-linear-gradient(45deg, var(--cut) 0 4px, transparent 4px 8px); }
.legend { display: flex; gap: 12px; font-size: 12px; color: var(--muted); flex-wrap: wrap; }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; }
.pill { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 11px; background: #eef0f3; margin-right: 4px; }
.pill.ok, .pill.allow, .pill.resident, .pill.active { background: #dff3e7; color: #1d6b40; }
.pill.fail, .pill.deny, .pill.denied, .pill.cut { background: #fbe1df; color: #8e2219; }
.pill.ask, .pill.deferred, .pill.shadowed, .pill.restricted, .pill.disabled, .pill.reserved { background: #fff1c2; color: #6b5310; }
tr.cut td { background: #fff5f4; }
mark.cut { background: #fbe1df; color: #8e2219; border-radius: 3px; padding: 0 2px; }
.hash { font-family: ui-monospace, monospace; font-size: 12px; }
.diff .add { color: #1d6b40; background: #e9f7ee; display: block; }
.diff .del { color: #8e2219; background: #fdeeed; display: block; }
.diff .hunk { color: var(--muted); display: block; }
.band { position: relative; height: 26px; background: #eef0f3; border-radius: 4px; margin: 6px 0 18px; }
.band .zone { position: absolute; top: 0; bottom: 0; background: #fff1c2; }
.band .over { position: absolute; top: 0; bottom: 0; right: 0; background: #fbe1df; }
.band .tick { position: absolute; top: -2px; bottom: -2px; width: 2px; background: var(--fg); }
.band .tick span { position: absolute; top: 28px; font-size: 11px; white-space: nowrap; transform: translateX(-50%); color: var(--muted); }
.band .now { position: absolute; top: 3px; bottom: 3px; width: 6px; border-radius: 3px; background: var(--accent); }
form.call label { display: block; margin: 8px 0 2px; font-weight: 600; }
form.call .desc { font-weight: normal; color: var(--muted); font-size: 12px; }
input[type="text"], input[type="number"], select, textarea { font: inherit; padding: 5px 7px; border: 1px solid var(--line); border-radius: 4px; width: 100%; max-width: 640px; background: #fff; }
textarea { font-family: ui-monospace, monospace; font-size: 12px; min-height: 60px; }
button.primary { background: var(--accent); color: #fff; border: 0; border-radius: 4px; padding: 6px 14px; font: inherit; cursor: pointer; margin-top: 10px; }
button.plain { background: #fff; border: 1px solid var(--line); border-radius: 4px; padding: 5px 12px; font: inherit; cursor: pointer; }
.row { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin: 4px 0; }
.row select, .row input { width: auto; }
.row input.wide { flex: 1; max-width: 640px; }
.row button { margin-top: 0; }
.error { color: #8e2219; }
#notices p { margin: 6px 18px; padding: 6px 10px; background: #fff1c2; border-radius: 4px; font-size: 13px; }
#asks:empty { display: none; }
#asks { position: fixed; inset: 0; background: rgba(20, 24, 32, 0.35); display: flex; align-items: center; justify-content: center; }
#asks .dialog { background: #fff; border-radius: 8px; padding: 16px 18px; max-width: 640px; width: 92%; box-shadow: 0 10px 30px rgba(0,0,0,.2); }
#asks .dialog h2 { margin: 0 0 8px; font-size: 15px; }
`;
