// The café's back office. Everything from a table or a staffer (names, titles, labels) is
// put on the page as text only (textContent), never as HTML; each row's text is isolated
// (CSS unicode-bidi) so a name's right-to-left override cannot turn its neighbours around.
"use strict";

let csrf = null;
const $ = (id) => document.getElementById(id);

function say(text, done = false) {
  $("message").textContent = text || "";
  $("message").className = done ? "done" : "";
}

async function call(path, body) {
  const options = {credentials: "same-origin", headers: {}};
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.headers["X-CSRF-Token"] = csrf || "";
    options.body = JSON.stringify(body);
  }
  const reply = await fetch(path, options);
  const data = await reply.json().catch(() => ({}));
  if (reply.status === 401 && path !== "api/login") { show(false); }
  if (!reply.ok) { throw new Error(data.error || `error ${reply.status}`); }
  return data;
}

// what a change's answer says of the tables: sent to them, or why not
function told(done) {
  if (done.shared) { return "; sent to every table"; }
  if (done.not_shared) { return `; not sent to the tables: ${done.not_shared}`; }
  return "";
}

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) { node.textContent = String(text); }
  if (className) { node.className = className; }
  return node;
}

function button(text, action) {
  const node = element("button", text, "small");
  node.type = "button";
  node.addEventListener("click", () => action().catch((error) => say(error.message)));
  return node;
}

function show(inside) {
  $("login").hidden = inside;
  $("office").hidden = !inside;
  $("logout").hidden = !inside;
  if (!inside) { csrf = null; }
}

async function leaderboard() {
  const game = $("board-game").value.trim(), period = $("board-period").value;
  const query = new URLSearchParams({period});
  if (game) { query.set("game", game); }
  const data = await call(`api/leaderboard?${query}`);
  const rows = data.rows.map((row) => {
    const tr = element("tr");
    tr.dataset.player = row.player;
    for (const cell of [row.rank, row.player, row.games, row.wins, `${Math.round(row.win_rate * 100)}%`]) {
      tr.append(element("td", cell));
    }
    return tr;
  });
  $("leaders").replaceChildren(...rows);
}

async function players() {
  const data = await call("api/players");
  choices("claim-player", data.players.map((player) => player.name));
  $("players").replaceChildren(...data.players.map((player) => {
    const li = element("li");
    li.dataset.player = player.name;
    li.append(element("span", player.name, "name"),
              element("span", ` · ${player.cards.length} card(s)`),
              button("Rename", async () => {
                const to = prompt(`New name for ${player.name}`);
                if (to === null) { return; }
                const done = await call("api/players/rename", {name: player.name, to});
                say(`Renamed ${player.name}${told(done)}`, true);
                await players();
              }),
              button("Give a card", async () => {
                const uid = prompt(`The UID of ${player.name}'s card (as the reader or tabletop cards shows it)`);
                if (uid === null) { return; }
                const done = await call("api/players/card", {uid, name: player.name});
                say(`${player.name} has the card ${uid.trim().toUpperCase()}${told(done)}`, true);
                await players();
              }),
              button("Remove", async () => {
                const done = await call("api/players/remove", {name: player.name});
                say(`Removed ${player.name}${told(done)}`, true);
                await players();
              }));
    return li;
  }));
}

function choices(id, names) {
  const kept = $(id).value;
  $(id).replaceChildren(...names.map((name) => { const o = element("option", name); o.value = name; return o; }));
  if (names.includes(kept)) { $(id).value = kept; }
}

// a card given by a tap at a table: the requests still waiting, and the cards tables sent back
let looking = null;
async function claims() {
  let data;
  try { data = await call("api/cards"); } catch (error) { $("claim-form").hidden = true; return; }
  const waiting = data.waiting.filter((w) => !data.offers.some((o) => o.table === w.table));
  $("claims").replaceChildren(
    ...waiting.map((w) => element("li", `${w.table} waits for a tap of ${w.player}'s new card`)),
    ...data.offers.map((offer) => {
      const li = element("li");
      li.dataset.offer = offer.uid;
      li.append(element("span", offer.table, "name"), element("span", " sent the card "),
                element("span", offer.uid, "uid"), element("span", " for "), element("span", offer.player, "name"),
                button("Give it", async () => {
                  const done = await call("api/cards/confirm", {table: offer.table, uid: offer.uid});
                  say(`${done.name} has the card ${offer.uid}${told(done)}`, true);
                  await Promise.all([players(), claims()]);
                }));
      return li;
    }));
  clearTimeout(looking);
  if (waiting.length) { looking = setTimeout(() => claims().catch(() => {}), 2000); }
}

async function staff() {
  const data = await call("api/staff");
  $("staff").replaceChildren(...data.staff.map((card) => {
    const li = element("li");
    li.dataset.uid = card.uid;
    li.append(element("span", card.label, "label"), element("span", ` · ${card.uid}`, "uid"),
              button("Revoke", async () => {
                const done = await call("api/staff/revoke", {uid: card.uid});
                say(`Revoked the card ${card.uid}${told(done)}`, true);
                await staff();
              }));
    return li;
  }));
}

async function decks() {
  const data = await call("api/decks");
  if (!data.decks.length) { $("decks").replaceChildren(element("li", "No deck here yet (tabletop deck learn).")); return; }
  $("decks").replaceChildren(...data.decks.map((deck) => {
    const li = element("li", `${deck.name} · ${deck.family} · ${deck.tags} tags` +
                             (deck.missing.length ? ` · ${deck.missing.length} missing` : " · complete"));
    li.append(button("Share with every table", async () => {
      const done = await call("api/decks/share", {name: deck.name});
      say(`Deck ${deck.name}${told(done).replace("; ", ": ")}`, Boolean(done.shared));
    }));
    return li;
  }));
}

// per game, the tables that told their decks and hold no complete one of its family
async function lacking() {
  const data = await call("api/decks/lacking");
  const rows = data.games.filter((game) => game.without.length).map((game) => {
    const li = element("li");
    li.dataset.game = game.game;
    li.append(element("span", game.title, "title"), element("span", ` (${game.family} deck): `),
              element("span", game.without.join(", "), "tables"));
    return li;
  });
  if (data.untold.length) { rows.push(element("li", `Decks not told by: ${data.untold.join(", ")}`)); }
  $("lacking").replaceChildren(...(rows.length ? rows : [element("li", "No table lacks a game's deck.")]));
}

function gameLine(game) {
  // each name in its own span: an override in one name turns that name only
  const li = element("li");
  li.append(element("span", `${game.day} · ${game.table} · `), element("span", game.title || game.game, "title"),
            element("span", " · "));
  game.players.forEach((player, n) => {
    li.append(element("span", player.name, "who"));
    li.append(element("span", (player.winner ? " (won)" : "") + (n < game.players.length - 1 ? ", " : "")));
  });
  return li;
}

async function recent() {
  const data = await call("api/history");
  $("games").replaceChildren(...data.games.slice(0, 20).map((game) => {
    const li = gameLine(game);
    for (const player of game.players) {
      li.append(button(player.name, () => playerPage(player.name)));
    }
    return li;
  }));
}

async function playerPage(name) {
  const page = await call(`api/player?${new URLSearchParams({name})}`);
  $("player-page").hidden = false;
  $("player-title").textContent = page.player;
  $("player-summary").textContent = `${page.games} games, ${page.wins} wins, last played ${page.last_played || "never"}: ` +
    page.per_game.map((g) => `${g.game} ${g.wins}/${g.games}`).join(", ");
  $("player-games").replaceChildren(...page.recent.map(gameLine));
}

// a table's OLED: 1,024 bytes, rows of 16, the leftmost pixel the high bit; drawn pixel by
// pixel on a canvas the page scales up without smoothing
function oled(screen) {
  const canvas = document.createElement("canvas");
  canvas.width = 128;
  canvas.height = 64;
  canvas.className = "oled";
  const bits = atob(screen), picture = canvas.getContext("2d").createImageData(128, 64);
  for (let n = 0; n < 128 * 64; n++) {
    const lit = (bits.charCodeAt(n >> 3) >> (7 - (n & 7))) & 1;
    picture.data.set(lit ? [255, 255, 255, 255] : [0, 0, 0, 255], n * 4);
  }
  canvas.getContext("2d").putImageData(picture, 0, 0);
  return canvas;
}

async function tables() {
  const data = await call("api/tables");
  $("claim-tables").replaceChildren(...data.tables.map((table) => { const o = element("option"); o.value = table.name; return o; }));
  if (!data.tables.length) { $("tables").replaceChildren(element("li", "No table heard from yet.")); return; }
  $("tables").replaceChildren(...data.tables.map((table) => {
    const li = element("li");
    li.dataset.table = table.name;
    const doing = table.offline_since ? `offline since ${table.offline_since.slice(11, 16)}` : table.activity;
    li.append(element("span", table.name, "name"), element("span", ` · ${doing}`));
    if (table.game) { li.append(element("span", " · "), element("span", table.game, "title")); }
    for (const fault of table.faults) { li.append(element("span", " · "), element("span", fault, "fault")); }
    if (table.version) { li.append(element("span", " · "), element("span", table.version, "version")); }
    if (table.screen) { li.append(oled(table.screen)); }
    return li;
  }));
}

async function everything() {
  await Promise.all([tables(), leaderboard(), players(), staff(), decks(), lacking(), recent(), claims(),
                     houseRules()]);
  document.body.dataset.ready = String(Number(document.body.dataset.ready || 0) + 1);
}

function form(id, action) {
  $(id).addEventListener("submit", (event) => {
    event.preventDefault();
    action().catch((error) => say(error.message));
  });
}

form("login-form", async () => {
  const data = await call("api/login", {password: $("password").value});
  $("password").value = "";
  csrf = data.csrf;
  say("");
  show(true);
  await everything();
});
form("leaderboard-form", leaderboard);
form("house-form", sendHouseRules);
$("house-table").addEventListener("change", houseTable);
$("house-game").addEventListener("change", houseOptions);
form("player-form", async () => {
  const added = await call("api/players/add", {name: $("player-name").value});
  $("player-name").value = "";
  say(`Added ${added.name}${told(added)}`, true);
  await players();
});
form("claim-form", async () => {
  const asked = await call("api/cards/ask", {name: $("claim-player").value, table: $("claim-table").value});
  say(`${asked.asked} shows "Tap the card for ${asked.player}" for ${asked.for_s / 60} minutes: ` +
      "tap the new card there, then give it here", true);
  await claims();
});
form("staff-form", async () => {
  const added = await call("api/staff/add", {uid: $("staff-uid").value, label: $("staff-label").value});
  $("staff-uid").value = "";
  $("staff-label").value = "";
  say(`Added the staff card ${added.uid}${told(added)}`, true);
  await staff();
});
$("logout").addEventListener("click", () => call("api/logout", {}).then(() => show(false))
  .catch((error) => say(error.message)));

(async () => {
  try {
    const session = await call("api/session");
    csrf = session.csrf;
    show(true);
    await everything();
  } catch (error) {
    show(false);
  }
})();
