// The table's page: the OLED live, its texts whole, its four buttons. Table data is only
// ever put into the page as text (textContent), never as markup.
"use strict";

const HOLD_MS = 1000;          // as long as the table's own hold (buttons.hold_seconds)
const $ = (id) => document.getElementById(id);
let stream = null;
// The newest frame drawn: a press's answer and the stream's event race each other, and
// the older of the two must not cover the newer (the table's frames are numbered in turn)
let shown = -1;
// The table's words in its language (device/texts/web_*.py), put in the page when served
const WORDS = JSON.parse($("words").textContent);

function say(key, args = {}) {
  return (WORDS[key] || key).replace(/\{(\w+)\}/g, (all, name) => String(args[name] ?? all));
}

async function call(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const reply = await fetch(path, {credentials: "same-origin", ...options});
  let data = {};
  try { data = await reply.json(); } catch (e) { data = {}; }
  return {status: reply.status, data};
}

function show(part) {
  $("join").hidden = part !== "join";
  $("table").hidden = part !== "table";
}

function paragraphs(parent, blocks) {
  parent.replaceChildren(...blocks.map((lines) => {
    const p = document.createElement("p");
    p.textContent = lines.join("\n");
    return p;
  }));
}

function draw(view) {
  if (!view || view.version === undefined || view.version < shown) return;
  if (view.language && view.language !== document.documentElement.lang) {
    location.reload();                 // the table's language changed: its page follows
    return;
  }
  $("oled").src = "/api/frame.png?v=" + view.version;
  $("prompt-title").hidden = !view.prompt;
  $("prompt").textContent = view.prompt || "";
  paragraphs($("texts"), view.texts || []);
  const rows = (view.players || []).map((player) => {
    const tr = document.createElement("tr");
    if (player.name === view.turn) tr.className = "turn";
    if (player.out) tr.className = "out";
    const name = document.createElement("td");
    name.textContent = player.name;
    const score = document.createElement("td");
    score.className = "score";
    score.textContent = player.score === null ? "" : String(player.score);
    tr.append(name, score);
    return tr;
  });
  $("players").tBodies[0].replaceChildren(...rows);
  $("players-title").hidden = rows.length === 0;
  const last = (view.last || []).map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  });
  $("last").replaceChildren(...last);
  $("last-title").hidden = last.length === 0;
  followSetup(view);
  shown = view.version;
  document.body.dataset.version = String(view.version);
}

function listNames(names) {
  $("names").replaceChildren(...names.map((name) => {
    const li = document.createElement("li");
    li.textContent = name;
    return li;
  }));
  drawSeats();
}

async function loadNames() {
  const {status, data} = await call("/api/players");
  if (status === 200) listNames(data.players || []);
}

async function addName(name) {
  const {status, data} = await call("/api/players", {name});
  $("name-error").textContent = status === 200 ? "" : (data.error || say("web.not_added"));
  if (status === 200) { $("name").value = ""; listNames(data.players || []); seat(name); }
}

function follow() {
  if (stream) stream.close();
  stream = new EventSource("/api/events");
  stream.onmessage = (event) => draw(JSON.parse(event.data));
  stream.onerror = async () => {
    const {status} = await call("/api/screen");
    if (status === 401) { stream.close(); stream = null; show("join"); }
  };
}

async function enter() {
  const {status, data} = await call("/api/screen");
  if (status === 401) { show("join"); return; }
  show("table");
  shown = -1;                          // a table started again numbers its frames anew
  draw(data);
  follow();
  loadNames();
}

async function join(code) {
  const {status, data} = await call("/api/join", {code});
  if (status === 200) { $("join-error").textContent = ""; await enter(); return true; }
  $("join-error").textContent = data.error || say("web.no_answer");
  show("join");
  return false;
}

async function press(button, held) {
  const {status, data} = await call("/api/input", {line: (held ? "hold " : "press ") + button});
  if (status === 401) { show("join"); return; }
  $("input-error").textContent = status === 200 ? "" : (data.error || say("web.not_taken"));
  if (status === 200) draw(data.screen);
}

function wire() {
  wireSetup();
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    join($("code").value.trim());
  });
  $("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    addName($("name").value.trim());
  });
  for (const button of document.querySelectorAll("#buttons button")) {
    let down = 0;
    button.addEventListener("pointerdown", () => { down = Date.now(); });
    button.addEventListener("click", () => {
      const name = button.dataset.button;
      const held = down && Date.now() - down >= HOLD_MS && (name === "select" || name === "back");
      down = 0;
      press(name, held);
    });
  }
}

async function start() {
  wire();
  const code = new URLSearchParams(location.hash.slice(1)).get("code");
  if (code) {
    history.replaceState(null, "", location.pathname);   // the code leaves the address bar
    if (await join(code)) return;
  }
  await enter();
}

start();
