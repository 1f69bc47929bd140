// The café dashboard on a wall screen: draws what /state.json and /events (server-sent
// events) give, in the language of ?lang= (else the dashboard's). Read-only. Every word
// comes from the server's catalogs (/words.json and each board); every text goes in with
// textContent, never as HTML.
"use strict";

// The token sits in the page's fragment (/#token=...), which the browser never sends:
// the server takes it only as an Authorization header.
const token = new URLSearchParams(location.hash.slice(1)).get("token");
const headers = token ? { Authorization: `Bearer ${token}` } : {};
const asked = new URLSearchParams(location.search).get("lang");
const query = asked ? `?lang=${encodeURIComponent(asked)}` : "";
let words = {};
let lastBoard = null;
let boardAt = 0;          // when the last board came, on the page's monotonic clock (ms)

function say(key, args = {}) {
  return (words[key] || "").replace(/\{(\w+)\}/g, (_, name) => String(args[name] ?? ""));
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// The tables' arrows ("Golden Clam -> Ann") kept whole: a line may break after a hyphen.
function whole(text) {
  return text.replace(/->/g, "-\u2060>");
}

function clockTime(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return "";
  return `${String(when.getHours()).padStart(2, "0")}:${String(when.getMinutes()).padStart(2, "0")}`;
}

// "25 min", "1 h 05"
function spoken(seconds) {
  const minutes = Math.max(0, Math.floor(seconds / 60));
  if (minutes < 60) return say("minutes", { n: minutes });
  return say("hours", { h: Math.floor(minutes / 60), m: String(minutes % 60).padStart(2, "0") });
}

// seconds the server counted (the table's own count, on monotonic clocks), plus the time
// since the board came when `running`; an older table sends no count: then from one of its
// wall-clock times to another (or to now)
function lasted(seconds, running, from, to) {
  if (typeof seconds === "number") {
    return spoken(seconds + (running ? (performance.now() - boardAt) / 1000 : 0));
  }
  if (!from) return "";
  const start = new Date(from).getTime();
  const end = to ? new Date(to).getTime() : Date.now();
  if (Number.isNaN(start) || Number.isNaN(end)) return "";
  return spoken((end - start) / 1000);
}

function scoreText(player) {
  return player.score === null || player.score === undefined ? "–" : String(player.score);
}

function playersTable(game) {
  const table = el("table", "players");
  for (const player of game.players) {
    const row = el("tr");
    if (player.name === game.turn && !game.over) row.classList.add("current");
    if (game.winners.includes(player.name)) row.classList.add("winner");
    if (player.out) row.classList.add("out");
    row.append(el("td", "name", player.name), el("td", "score", scoreText(player)));
    table.append(row);
  }
  return table;
}

// a card sized for a room away: the name and what the table does, the game and how long it
// has lasted, the seats (▶ whose turn), what the last event said, how long people have sat
function tableCard(table) {
  const card = el("article", `table ${table.activity}`);
  card.dataset.table = table.name;
  card.append(line("head", el("h3", null, table.name),
                   el("span", "activity", say(`activity.${table.activity}`))));
  if (table.activity === "offline") {
    card.append(el("p", "since", say("offline_since", { time: clockTime(table.offline_since) })));
  }
  const game = table.game;
  const { seated, started, ended, game_s, seated_s } = table.times;
  const running = table.activity === "playing" && !ended;
  if (game) {
    card.append(line("title", el("p", "game", game.title),
                     el("span", "length", lasted(game_s, running, started, ended))));
    card.append(playersTable(game));
    const said = game.over ? game.headline : table.last;
    if (said) card.append(el("p", "last", whole(said)));
    if (seated && table.activity !== "offline") {
      card.append(el("p", "times", say("at_table", { time: lasted(seated_s, true, seated) })));
    }
  } else if (table.activity !== "offline") {
    card.append(el("p", "game", say("no_game")));
  }
  for (const text of table.faults) card.append(el("p", "fault", text));
  if (table.missed_words) card.append(el("p", "fault missed", table.missed_words));
  return card;
}

function line(className, ...parts) {
  const node = el("div", className);
  node.append(...parts);
  return node;
}

// "21:40 · table-3 · 25 min · Palourde", then the result in the table's words
function finishedRow(game) {
  const row = el("li", "finished");
  const length = lasted(game.seconds, false, game.started, game.at);
  const what = el("p", "what");
  [clockTime(game.at), game.table, length, game.title].filter(Boolean).forEach((part, n) => {
    if (n) what.append(" · ");
    what.append(el("span", null, part));
  });
  row.append(what);
  const winners = game.winners.length ? `★ ${game.winners.join(", ")}` : say("no_winner");
  row.append(el("p", "result", whole(game.headline || winners)));
  return row;
}

// "Ann  3 wins": the day's leaderboard
function leaderRow(leader) {
  const row = el("li", "leader");
  row.append(el("span", "name", leader.name), el("span", "wins", leader.wins_words));
  return row;
}

// Every item that draws, and none that does not: one odd table never blanks the others.
function drawable(items, drawOne) {
  const drawn = [];
  for (const item of items) {
    try { drawn.push(drawOne(item)); } catch (error) { console.warn("skipped", item, error); }
  }
  return drawn;
}

function useWords(given, language) {
  words = given;
  document.documentElement.lang = language;
  document.title = say("title");
  for (const node of document.querySelectorAll("[data-word]")) node.textContent = say(node.dataset.word);
}

function banner(text) {
  const node = document.getElementById("banner");
  node.textContent = text || "";
  node.hidden = !text;
}

function draw(board) {
  lastBoard = board;
  useWords(board.words, board.language);
  document.getElementById("summary").textContent = board.counted.join(" · ");
  document.getElementById("clock").textContent = clockTime(new Date().toISOString());
  banner(board.broker.up ? "" : say("broker_down", { time: clockTime(board.broker.since) }));
  document.getElementById("tables").replaceChildren(...drawable(board.tables, tableCard));
  document.getElementById("finished").replaceChildren(...drawable(board.finished, finishedRow));
  document.getElementById("none-finished").hidden = board.finished.length > 0;
  document.getElementById("leaders").replaceChildren(...drawable(board.leaders, leaderRow));
  document.getElementById("leaderboard").hidden = board.leaders.length === 0;
  fit();
  document.body.dataset.version = board.version;
}

// The least the type goes down to when the tables fill the screen: still read from a few metres.
const SMALLEST_TYPE = 0.9;     // vw

// Everything on the screen, nothing cut: the type the screen's width gives, smaller only as
// far as the tables need to fit; then the newest finished games that fit beside them (at
// least three), and the type smaller again if even those do not.
function fit() {
  const root = document.documentElement;
  root.style.fontSize = "";
  let size = parseFloat(getComputedStyle(root).fontSize);
  const smallest = Math.min(size, Math.max(12, innerWidth * SMALLEST_TYPE / 100));
  const smaller = () => {
    size = Math.max(smallest, size * 0.95);
    root.style.fontSize = `${size}px`;
  };
  const bottom = (id) => document.getElementById(id).getBoundingClientRect().bottom + size;
  while (bottom("tables") > innerHeight && size > smallest) smaller();
  const rows = [...document.querySelectorAll("#finished li")];
  const aside = () => Math.max(bottom("finished"), bottom("leaderboard"));
  while (rows.length > 3 && aside() > innerHeight) rows.pop().hidden = true;
  while (root.scrollHeight > innerHeight && size > smallest) smaller();
}

function unavailable(why) {
  banner(say("unavailable", { why }));
}

// Server-sent events read through fetch (EventSource cannot send a header); reconnects.
async function follow() {
  const reply = await fetch(`events${query}`, { headers });
  if (!reply.ok) throw new Error(reply.statusText);
  const reader = reply.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith("data: ")) {
        const board = JSON.parse(block.slice(6));
        boardAt = performance.now();
        draw(board);
      }
    }
  }
}

function keepFollowing() {
  follow().catch(unavailable).finally(() => setTimeout(keepFollowing, 3000));
}

fetch(`words.json${query}`)
  .then((reply) => reply.json())
  .then((given) => { if (!lastBoard) { useWords(given.words, given.language); banner(say("waiting")); } })
  .catch(() => {})
  .finally(keepFollowing);
// the times at the tables go on between changes; a new screen size lays the page out again
setInterval(() => { if (lastBoard) draw(lastBoard); }, 30000);
addEventListener("resize", () => { if (lastBoard) draw(lastBoard); });
