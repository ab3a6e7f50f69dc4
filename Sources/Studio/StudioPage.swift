/// The studio page: HTML, CSS and JavaScript in one document, served from the binary (no
/// CDN, no npm; works offline). It talks to the server over one WebSocket: JSON messages
/// up (controls, pointer events with the page's own `event.timeStamp`), state messages and
/// frames (4 bytes of length, a JSON header, a PNG) down. `window.studio` holds what the
/// page shows (the last frame's header and PNG, the state, the panels), for the tests.
enum StudioPage {
  static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>chartscene studio</title>
<link rel="icon" href="data:,">
<style>
:root { --bg:#f4f5f7; --panel:#fff; --fg:#1d2733; --muted:#6b7785; --line:#dde2e8; --accent:#3896d4; --err:#b91c1c; }
body.night { --bg:#151b23; --panel:#1f2833; --fg:#e6edf3; --muted:#8b98a5; --line:#2f3b48; --accent:#5fb0f0; }
* { box-sizing: border-box; }
html, body { margin:0; height:100%; background:var(--bg); color:var(--fg); font:13px/1.4 system-ui, sans-serif; }
#app { display:grid; grid-template-columns: 1fr 320px; grid-template-rows: auto 1fr auto; height:100%; }
header { grid-column: 1 / 3; display:flex; gap:8px; align-items:center; padding:6px 10px; border-bottom:1px solid var(--line); background:var(--panel); flex-wrap:wrap; }
header b { margin-right:8px; }
#stage { position:relative; overflow:auto; display:flex; padding:12px; min-height:0; }
#frame-wrap { position:relative; line-height:0; box-shadow:0 1px 6px rgba(0,0,0,.2); margin:auto; }
#frame { touch-action:none; user-select:none; -webkit-user-drag:none; cursor:crosshair; display:block; }
#error { position:absolute; left:8px; right:8px; bottom:8px; background:rgba(185,28,28,.94); color:#fff; padding:10px 12px; border-radius:8px; font:600 13px/1.35 ui-monospace, monospace; white-space:pre-wrap; line-height:1.35; display:none; }
#lintboxes { position:absolute; left:0; top:0; right:0; bottom:0; pointer-events:none; overflow:hidden; }
.lintbox { position:absolute; border:2px solid #e11d48; background:rgba(225,29,72,.10); border-radius:2px; }
.lintbox span { position:absolute; left:-2px; bottom:100%; background:#e11d48; color:#fff; font:600 10px/14px ui-monospace, monospace; padding:0 4px; border-radius:3px 3px 0 0; white-space:nowrap; }
#lintlist li.placed { cursor:default; }
#lintlist li b { color:#e11d48; margin-right:4px; }
#status { position:absolute; top:8px; left:8px; background:rgba(0,0,0,.6); color:#fff; padding:4px 8px; border-radius:6px; display:none; }
aside { grid-row: 2 / 4; grid-column: 2; border-left:1px solid var(--line); background:var(--panel); overflow:auto; padding:8px 10px; }
footer { grid-column:1; border-top:1px solid var(--line); background:var(--panel); padding:6px 10px; display:flex; gap:6px; align-items:center; flex-wrap:wrap; }
#scrub { flex:1; min-width:200px; }
button, select, input { font:inherit; color:var(--fg); background:var(--bg); border:1px solid var(--line); border-radius:6px; padding:3px 8px; }
button.on { background:var(--accent); color:#fff; }
details { border-bottom:1px solid var(--line); padding:6px 0; }
summary { cursor:pointer; font-weight:600; }
pre { white-space:pre-wrap; word-break:break-all; font:11px/1.35 ui-monospace, monospace; max-height:40vh; overflow:auto; margin:4px 0; }
code#command { display:block; font:11px ui-monospace, monospace; word-break:break-all; background:var(--bg); padding:6px; border-radius:6px; }
#progress { width:100%; }
.row { display:flex; gap:6px; align-items:center; margin:4px 0; flex-wrap:wrap; }
.muted { color:var(--muted); }
#messages { color:var(--err); font-weight:600; }
</style>
</head>
<body>
<div id="app">
<header>
  <b>chartscene studio</b><span id="script" class="muted"></span>
  <label>size <select id="sizepreset">
    <option value="own">the script's own</option>
    <option value="360x640">phone 360×640</option>
    <option value="1280x720">720p 1280×720</option>
    <option value="1920x1080">1080p 1920×1080</option>
    <option value="fit">fit the panel</option>
    <option value="custom">custom…</option>
  </select></label>
  <span id="customsize" style="display:none"><input id="cw" type="number" min="1" max="16384" style="width:70px">×<input id="ch" type="number" min="1" max="16384" style="width:70px"><button id="applysize">set</button></span>
  <label>theme <select id="theme"><option>day</option><option>night</option></select></label>
  <button id="reload" title="r">reload</button>
  <button id="save" title="s">save PNG</button>
  <span id="messages"></span>
</header>
<main id="stage">
  <div id="frame-wrap">
    <img id="frame" alt="the scene" draggable="false">
    <div id="lintboxes"></div>
    <div id="error"></div>
    <div id="status">connecting…</div>
  </div>
</main>
<aside>
  <details open><summary>Record</summary>
    <div class="row"><button id="record">● record</button><span id="recinfo" class="muted"></span></div>
    <code id="command"></code>
    <div class="row"><button id="copy">copy command</button><span id="copied" class="muted"></span></div>
  </details>
  <details open><summary>Render</summary>
    <div class="row"><select id="format"><option>mp4</option><option>gif</option><option>webm</option><option>apng</option><option>png</option></select><button id="render">render</button></div>
    <progress id="progress" max="1" value="0"></progress>
    <div id="renderinfo" class="muted"></div>
    <div id="downloads"></div>
  </details>
  <details open><summary>cs.args</summary>
    <div id="args"></div>
    <div class="row"><button id="addarg">+ arg</button><button id="applyargs">run with these</button></div>
  </details>
  <details id="lintpanel"><summary>Lint (this frame)</summary>
    <div class="row"><button id="lint">lint</button><label><input type="checkbox" id="lintauto"> on every pause</label></div>
    <ul id="lintlist"></ul>
  </details>
  <details id="inspectpanel"><summary>Inspect (this frame)</summary>
    <pre id="inspect"></pre>
  </details>
  <details><summary>Keys</summary>
    <div class="muted">space play/pause · ←/→ one frame · Home play start · r reload · t day/night · s save PNG · i inspect (also printed by the server)</div>
  </details>
</aside>
<footer>
  <button id="home" title="Home: back to the play start">⇤</button>
  <button id="back" title="←">◀︎|</button>
  <button id="play" title="space">▶︎</button>
  <button id="fwd" title="→">|▶︎</button>
  <input id="scrub" type="range" min="0" max="0" step="1" value="0">
  <span id="readout" class="muted">0.000 s · frame 0 / 1</span>
  <button id="setin" title="loop from here">in</button><button id="setout" title="loop to here">out</button><button id="clearloop">no loop</button><span id="loopinfo" class="muted"></span>
  <label>speed <select id="speed"><option>0.25</option><option>0.5</option><option selected>1</option><option>1.5</option><option>2</option></select>×</label>
</footer>
</div>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.search).get("token") || "";
const studio = window.studio = { frames: 0, meta: null, png: null, state: {}, inspect: null, lint: null, messages: [], rendered: [], connected: false };
let ws = null, pressed = false, scrubbing = false, lastInspectAsk = 0;

function send(m) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(m)); }
studio.send = send;
function showMessage(text) { studio.messages.push(text); $("messages").textContent = text; }

function connect() {
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?token=" + encodeURIComponent(token));
  ws.binaryType = "arraybuffer";
  studio.ws = ws;
  ws.onopen = () => { studio.connected = true; $("status").style.display = "none"; send({ type: "hello", dpr: Math.min(4, Math.max(0.25, window.devicePixelRatio || 1)) }); };
  ws.onmessage = (ev) => { if (typeof ev.data === "string") onText(JSON.parse(ev.data)); else onFrame(ev.data); };
  ws.onclose = () => { studio.connected = false; $("status").textContent = "disconnected: reconnecting…"; $("status").style.display = "block"; setTimeout(connect, 1000); };
}

// The same pixels at another time: only the time changes.
function onSameFrame(meta) {
  delete meta.type;
  studio.meta = meta; studio.lastFrameAt = Date.now(); studio.frames++;
  drawLintBoxes();
  if ($("inspectpanel").open && !scrubbing) askInspect();
}

function onFrame(buf) {
  const n = new DataView(buf).getUint32(0);
  const meta = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 4, n)));
  const png = new Uint8Array(buf, 4 + n);
  const img = $("frame");
  const old = img.src;
  img.src = URL.createObjectURL(new Blob([png], { type: "image/png" }));
  if (old) URL.revokeObjectURL(old);
  studio.meta = meta; studio.png = png; studio.lastFrameAt = Date.now(); studio.frames++;
  fitFrame();
  drawLintBoxes();
  if ($("inspectpanel").open && !scrubbing) askInspect();
}

function askInspect() {
  const now = performance.now();
  if (now - lastInspectAsk < 250 && studio.state.playing) return;
  lastInspectAsk = now;
  send({ type: "inspect" });
}

function onText(m) {
  if (m.type === "state") return onState(m);
  if (m.type === "frame") return onSameFrame(m);
  if (m.type === "inspect") { studio.inspect = m; $("inspect").textContent = m.json; return; }
  if (m.type === "lint") { studio.lint = m; showLint(m.findings); return; }
  if (m.type === "message") { showMessage(m.error); return; }
  if (m.type === "saved") { showMessage(""); addDownload(m.name); return; }
  if (m.type === "rendered") { studio.rendered.push(m.name); addDownload(m.name); $("renderinfo").textContent = "wrote " + m.name + " in " + m.seconds.toFixed(1) + " s"; return; }
}

function onState(s) {
  const first = !studio.state.type;
  studio.state = s;
  $("script").textContent = s.script;
  const err = $("error");
  if (s.error) { err.textContent = s.error; err.style.display = "block"; } else { err.style.display = "none"; }
  $("play").textContent = s.playing ? "❚❚" : "▶︎";
  $("play").classList.toggle("on", s.playing);
  const scrub = $("scrub");
  scrub.max = Math.max(0, s.frames - 1);
  if (!scrubbing) scrub.value = s.frame;
  $("readout").textContent = s.t.toFixed(3) + " s · frame " + s.frame + " / " + s.frames + (s.duration > 0 ? "" : " (a still)");
  $("loopinfo").textContent = s.loop ? ("loop " + s.loop[0] + "–" + s.loop[1]) : "";
  $("speed").value = String(s.speed);
  $("theme").value = s.theme;
  document.body.classList.toggle("night", s.theme === "night");
  $("record").textContent = s.recording ? "■ stop (" + s.gestures + " gestures)" : "● record";
  $("record").classList.toggle("on", s.recording);
  $("recinfo").textContent = s.recorded ? "saved " + s.recorded : (s.recording ? "from frame 0" : "");
  $("command").textContent = s.command;
  const r = s.render;
  $("progress").value = r.total > 0 ? r.done / r.total : (r.running ? 0 : (r.finished ? 1 : 0));
  if (r.running) $("renderinfo").textContent = "rendering " + r.name + " " + (r.total ? r.done + "/" + r.total + " frames" : "…");
  if (first) fillArgs(s.args);
  addReadArgs(s.argsRead || []);
  if (!s.playing && $("lintauto").checked) send({ type: "lint" });
}

function addDownload(name) {
  const a = document.createElement("a");
  a.href = "/out/" + encodeURIComponent(name) + "?token=" + encodeURIComponent(token);
  a.textContent = name; a.download = name; a.className = "download";
  const div = document.createElement("div"); div.appendChild(a);
  $("downloads").prepend(div);
}

// The findings as a list, numbered; those the server placed are also boxes over the frame.
function showLint(findings) {
  const ul = $("lintlist"); ul.textContent = "";
  if (!findings.length) { const li = document.createElement("li"); li.textContent = "nothing found"; ul.appendChild(li); }
  findings.forEach((f, i) => {
    const li = document.createElement("li");
    if (f.rect) { const b = document.createElement("b"); b.textContent = String(i + 1); li.appendChild(b); li.className = "placed"; }
    li.appendChild(document.createTextNode(f.message));
    ul.appendChild(li);
  });
  if (findings.length) $("lintpanel").open = true;
  drawLintBoxes();
}

// Boxes where the findings are, over the frame they were found in (scene pixels scaled to
// the frame as shown: the panel's size, whatever the device pixel ratio); none over
// another frame.
function drawLintBoxes() {
  const box = $("lintboxes"), l = studio.lint, m = studio.meta;
  box.textContent = "";
  studio.lintBoxes = [];
  if (!l || !m || Math.abs(l.t - m.t) > 1e-9 || l.width !== m.width || l.height !== m.height) return;
  const k = $("frame").clientWidth / m.width;
  l.findings.forEach((f, i) => {
    if (!f.rect) return;
    const [x, y, w, h] = f.rect, d = document.createElement("div");
    d.className = "lintbox";
    d.style.left = (x * k - 2) + "px"; d.style.top = (y * k - 2) + "px";
    d.style.width = (w * k + 4) + "px"; d.style.height = (h * k + 4) + "px";
    d.title = f.message;
    const tag = document.createElement("span"); tag.textContent = String(i + 1); d.appendChild(tag);
    box.appendChild(d);
    studio.lintBoxes.push({ message: f.message, rect: f.rect });
  });
}

function fillArgs(args) {
  const box = $("args"); box.textContent = "";
  for (const [k, v] of args) addArg(k, v);
}
// A field per key: those given (--arg, or set here) and those the script read but was not
// given (empty: the script's own fallback; fill one in and the script runs with it).
function addArg(k, v, absent) {
  const row = document.createElement("div"); row.className = "row arg" + (absent ? " absent" : "");
  row.innerHTML = '<input class="k" placeholder="key" style="width:90px">=<input class="v" placeholder="value" style="width:130px"><button>×</button>';
  row.querySelector(".k").value = k || ""; row.querySelector(".v").value = v || "";
  if (absent) { row.querySelector(".k").readOnly = true; row.querySelector(".v").placeholder = "not given (the script's default)"; row.title = "the script reads cs.args." + k; }
  row.querySelector(".v").addEventListener("change", () => { if (row.querySelector(".k").value.trim()) runArgs(); });
  row.querySelector("button").onclick = () => { row.remove(); runArgs(); };
  $("args").appendChild(row);
  return row;
}
function addReadArgs(keys) {
  const have = new Set([...document.querySelectorAll("#args .arg .k")].map((i) => i.value.trim()));
  for (const k of keys) if (!have.has(k)) addArg(k, "", true);
}
// The fields as --arg pairs (a field of a key the script read, left empty, stays not given).
function argPairs() {
  return [...document.querySelectorAll("#args .arg")].filter((r) => !(r.classList.contains("absent") && r.querySelector(".v").value === ""))
    .map((r) => [r.querySelector(".k").value.trim(), r.querySelector(".v").value]).filter((a) => a[0]);
}
function runArgs() { send({ type: "args", args: argPairs() }); }

// The frame is shown at its scene size, smaller when the panel is smaller (the pointer is
// mapped back to scene pixels either way).
function fitFrame() {
  const m = studio.meta; if (!m) return;
  const st = $("stage"), k = Math.min(1, (st.clientWidth - 24) / m.width, (st.clientHeight - 24) / m.height);
  const img = $("frame");
  img.style.width = Math.max(1, m.width * k) + "px";
  img.style.height = Math.max(1, m.height * k) + "px";
  drawLintBoxes();
}

// The frame: pointer events in scene pixels, with the page's own times.
function scenePoint(e) {
  const img = $("frame"), r = img.getBoundingClientRect(), m = studio.meta;
  if (!m || !r.width) return null;
  return { x: (e.clientX - r.left) * m.width / r.width, y: (e.clientY - r.top) * m.height / r.height };
}
function pointer(phase, e, extra) {
  const p = scenePoint(e); if (!p) return;
  send(Object.assign({ type: "pointer", phase, x: p.x, y: p.y, ts: e.timeStamp }, extra || {}));
}
const frame = $("frame");
frame.addEventListener("pointerdown", (e) => { if (e.button !== 0) return; pressed = true; frame.setPointerCapture(e.pointerId); pointer("down", e); e.preventDefault(); });
frame.addEventListener("pointermove", (e) => { if (pressed) pointer("move", e); });
frame.addEventListener("pointerup", (e) => { if (!pressed) return; pressed = false; pointer("up", e); });
frame.addEventListener("pointercancel", (e) => { if (!pressed) return; pressed = false; pointer("up", e); });
frame.addEventListener("wheel", (e) => {
  e.preventDefault();
  const k = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 400 : 0.4;
  pointer("wheel", e, { dx: e.deltaX * k, dy: e.deltaY * k });
}, { passive: false });

// The scrubber.
const scrub = $("scrub");
scrub.addEventListener("input", () => { scrubbing = true; const fps = studio.state.fps || 60; send({ type: "seek", t: Number(scrub.value) / fps }); });
scrub.addEventListener("change", () => { scrubbing = false; });
$("play").onclick = () => send({ type: studio.state.playing ? "pause" : "play" });
$("back").onclick = () => send({ type: "step", by: -1 });
$("fwd").onclick = () => send({ type: "step", by: 1 });
$("home").onclick = () => send({ type: "home" });
$("setin").onclick = () => { const s = studio.state; const out = s.loop ? s.loop[1] : s.frames - 1; send({ type: "loop", in: s.frame, out: Math.max(s.frame, out) }); };
$("setout").onclick = () => { const s = studio.state; const a = s.loop ? s.loop[0] : 0; send({ type: "loop", in: Math.min(a, s.frame), out: s.frame }); };
$("clearloop").onclick = () => send({ type: "loop", in: null });
$("speed").onchange = () => send({ type: "speed", x: Number($("speed").value) });
$("theme").onchange = () => send({ type: "theme", name: $("theme").value });
$("reload").onclick = () => send({ type: "reload" });
$("save").onclick = () => send({ type: "save" });
$("record").onclick = () => send({ type: "record", on: !studio.state.recording });
$("copy").onclick = async () => {
  const text = studio.state.command || "";
  studio.copied = text;
  try { await navigator.clipboard.writeText(text); $("copied").textContent = "copied"; }
  catch (e) { const r = document.createRange(); r.selectNodeContents($("command")); getSelection().removeAllRanges(); getSelection().addRange(r); $("copied").textContent = "selected: press Ctrl-C"; }
};
$("render").onclick = () => { $("messages").textContent = ""; send({ type: "render", format: $("format").value }); };
$("addarg").onclick = () => addArg("", "");
$("applyargs").onclick = runArgs;
$("lint").onclick = () => send({ type: "lint" });
$("inspectpanel").addEventListener("toggle", () => { if ($("inspectpanel").open) send({ type: "inspect" }); });

// Sizes: presets, custom, or the panel's own size (laid out again as --size does).
function fitSize() { const s = $("stage"); return [Math.max(1, Math.floor(s.clientWidth - 24)), Math.max(1, Math.floor(s.clientHeight - 24))]; }
$("sizepreset").onchange = () => {
  const v = $("sizepreset").value;
  $("customsize").style.display = v === "custom" ? "inline" : "none";
  if (v === "own") send({ type: "size", width: null });
  else if (v === "fit") { const [w, h] = fitSize(); send({ type: "size", width: w, height: h }); }
  else if (v !== "custom") { const [w, h] = v.split("x").map(Number); send({ type: "size", width: w, height: h }); }
};
$("applysize").onclick = () => send({ type: "size", width: Number($("cw").value), height: Number($("ch").value) });
let fitTimer = 0;
new ResizeObserver(() => {
  fitFrame();
  if ($("sizepreset").value !== "fit") return;
  clearTimeout(fitTimer);
  fitTimer = setTimeout(() => { const [w, h] = fitSize(); send({ type: "size", width: w, height: h }); }, 150);
}).observe($("stage"));

// The keys of --live.
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
  const s = studio.state;
  switch (e.key) {
    case " ": send({ type: s.playing ? "pause" : "play" }); break;
    case "ArrowLeft": send({ type: "step", by: -1 }); break;
    case "ArrowRight": send({ type: "step", by: 1 }); break;
    case "Home": send({ type: "home" }); break;
    case "r": send({ type: "reload" }); break;
    case "t": send({ type: "theme", name: s.theme === "night" ? "day" : "night" }); break;
    case "s": send({ type: "save" }); break;
    case "i": $("inspectpanel").open = true; send({ type: "inspect" }); send({ type: "print-inspect" }); break;
    default: return;
  }
  e.preventDefault();
});
connect();
</script>
</body>
</html>
"""#
}
