const which = process.argv[2];
const { grep } = await import(`${which}/dist/src/tools/grep.js`);
const root = which;
const ctx = { cwd: root, workspace: root, config: {}, signal: new AbortController().signal };
const times = [];
for (let i = 0; i < 7; i++) { const t = performance.now(); const v = await grep({ pattern: "function", path: "node_modules" }, ctx); times.push(performance.now() - t); if (i===0) console.log(v.matches.length, v.totalMatches, new Set(v.matches.map(m=>m.path)).size); }
times.sort((a,b)=>a-b); console.log(which, times.map(t=>t.toFixed(0)).join(" "));
