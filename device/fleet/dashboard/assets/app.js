// The café dashboard: draws the board that /state.json and /events (server-sent events) give.
// Read-only. Every text from the tables goes in with textContent, never as HTML.
"use strict";

// The token sits in the page's fragment (/#token=...), which the browser never sends:
// the server takes it only as an Authorization header.
const token = new URLSearchParams(location.hash.slice(1)).get("token");
const headers = token ? { Authorization: `Bearer ${token}` } : {};

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function scoreText(player) {
  return player.score === null || player.score === undefined ? "–" : String(player.score);
}

function playersTable(game) {
  const table = el("table", "players");
  for (const player of game.players) {
    const row = el("tr");
    if (player.name === game.turn) row.classList.add("current");
    if (game.winners.includes(player.name)) row.classList.add("winner");
    if (player.out) row.classList.add("out");
    row.append(el("td", "name", player.name), el("td", "score", scoreText(player)));
    table.append(row);
  }
  return table;
}

function tableCard(table) {
  const state = table.state || {};
  const activity = table.online === false ? "offline" : (state.activity || "unknown");
  const card = el("article", `table ${activity}`);
  card.dataset.table = table.name;
  const head = el("div", "head");
  head.append(el("h3", null, table.name), el("span", "activity", activity));
  card.append(head);
  const game = state.game;
  if (game) {
    card.append(el("p", "game", game.title));
    const turn = game.over ? game.headline : (game.turn ? `Turn: ${game.turn}` : "");
    card.append(el("p", "turn", [turn, game.deck && `deck ${game.deck}`].filter(Boolean).join(" · ")));
    card.append(playersTable(game));
    if (!game.over) card.append(el("p", "prompt", game.prompt.text));
  } else {
    card.append(el("p", "game", "No game"));
  }
  for (const [part, text] of Object.entries(state.faults || {})) {
    card.append(el("p", `fault ${part}`, text));
  }
  if (table.missed) card.append(el("p", "fault missed", `${table.missed} events missed`));
  return card;
}

function finishedRow(game) {
  const row = el("tr");
  const scores = game.players.map((p) => `${p.name} ${scoreText(p)}`).join(", ");
  row.append(el("td", null, String(game.at).slice(11, 16)), el("td", null, game.table),
             el("td", null, game.title), el("td", null, game.winners.join(", ") || "none"),
             el("td", null, scores));
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

function draw(board) {
  const online = board.tables.filter((t) => t.online).length;
  const playing = board.tables.filter((t) => t.state && t.state.activity === "playing").length;
  document.getElementById("summary").textContent =
    `${board.tables.length} tables, ${online} online, ${playing} playing · ${board.day}`;
  document.getElementById("tables").replaceChildren(...drawable(board.tables, tableCard));
  document.querySelector("#finished tbody").replaceChildren(...drawable(board.finished, finishedRow));
  document.getElementById("none-finished").hidden = board.finished.length > 0;
  document.body.dataset.version = board.version;
}

function unavailable(why) {
  document.getElementById("summary").textContent = `Not available: ${why}`;
}

// Server-sent events read through fetch (EventSource cannot send a header); reconnects.
async function follow() {
  const reply = await fetch("events", { headers });
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
      if (block.startsWith("data: ")) draw(JSON.parse(block.slice(6)));
    }
  }
}

function keepFollowing() {
  follow().catch(unavailable).finally(() => setTimeout(keepFollowing, 3000));
}

fetch("state.json", { headers })
  .then((reply) => (reply.ok ? reply.json() : Promise.reject(reply.statusText)))
  .then(draw)
  .catch(unavailable);
keepFollowing();
