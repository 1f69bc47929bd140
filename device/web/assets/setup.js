// The setup on the phone: the game, its house rules, the seats and who starts, each change
// sent at once as a setup line (POST /api/setup) that the table's wizard takes as a step, so
// the OLED follows; the table's buttons can take over, and the page follows them back.
// Table data is only ever put into the page as text, never as markup.
"use strict";

const setupState = {on: null, seats: [], told: "", range: [1, 99], drawnGame: null, asked: -1};

function item(text, className) {
  const li = document.createElement("li");
  if (text !== undefined) li.textContent = text;
  if (className) li.className = className;
  return li;
}

function small(text, className) {
  const span = document.createElement("span");
  span.textContent = text;
  span.className = className;
  return span;
}

async function tell(line) {
  const {status, data} = await call("/api/setup", {line});
  if (status === 401) { show("join"); return false; }
  $("setup-error").textContent = status === 200 ? "" : (data.error || say("web.not_taken"));
  if (status !== 200) return false;
  draw(data.screen);
  drawSetup(data);
  return true;
}

async function loadSetup() {
  const {status, data} = await call("/api/setup");
  if (status === 200) drawSetup(data);
}

// Each new view with no game on: the setup as the table has it now (its buttons may have moved it)
function followSetup(view) {
  $("setup").hidden = Boolean(view.game);
  if (!view.game && view.version !== setupState.asked) {
    setupState.asked = view.version;
    loadSetup();
  }
}

function drawSetup(data) {
  const on = data.setup;
  setupState.on = on;
  drawGames(data.games || [], on ? on.game : null);
  $("rules-part").hidden = !on;
  if (on && setupState.drawnGame !== on.game) drawRules(on);
  if (on) setRules(on);
  setupState.drawnGame = on ? on.game : null;
  if (on) {
    setupState.range = on.players;
    const seated = on.seated.join(" ");
    if (seated && seated !== setupState.told) {       // the table's own choice of seats
      setupState.seats = on.seated.slice();
      setupState.told = seated;
    }
  }
  drawFirst(on);
  $("start").hidden = !on;
  drawSeats();
}

function drawGames(games, chosen) {
  $("games").replaceChildren(...games.map((game) => {
    const li = item(undefined, game.id === chosen ? "game chosen" : "game");
    li.dataset.game = game.id;
    const [low, high] = game.players;
    li.append(small(game.name, "name"), small(say("web.players_range", {low, high}), "count"),
              small(game.pitch, "pitch"));
    li.addEventListener("click", () => chooseGame(game.id));
    return li;
  }));
}

// The game chosen on the page: the names typed before it go to its seats at once
async function chooseGame(id) {
  if (await tell("game " + id) && setupState.on && !setupState.on.seated.length
      && setupState.seats.length) seatsChanged();
}

function drawRules(on) {
  $("rules").replaceChildren(...on.rules.map((rule) => {
    const li = item(undefined, "rule");
    const label = document.createElement("label");
    label.textContent = rule.name;
    let input;
    if (rule.numbers) {
      input = document.createElement("input");
      input.type = "number";
      input.inputMode = "numeric";
      [input.min, input.max] = rule.numbers.map(String);
    } else {
      input = document.createElement("select");
      for (const [value, shown] of rule.values) {
        const option = document.createElement("option");
        option.value = value;
        option.textContent = shown;
        input.append(option);
      }
    }
    input.dataset.rule = rule.key;
    input.addEventListener("change", () => tell(`option ${rule.key}=${input.value.trim()}`)
      .then((taken) => { if (!taken) setRules(setupState.on); }));
    label.append(input);
    li.append(label, small(rule.meaning, "meaning"));
    return li;
  }));
}

function setRules(on) {
  for (const rule of on.rules) {
    const input = document.querySelector(`[data-rule="${rule.key}"]`);
    if (input && document.activeElement !== input) input.value = rule.value;
  }
}

function move(from, to) {
  const seats = setupState.seats;
  if (to < 0 || to >= seats.length || from === to) return;
  seats.splice(to, 0, seats.splice(from, 1)[0]);
  seatsChanged();
}

function drawSeats() {
  const seats = setupState.seats;
  const [low, high] = setupState.range;
  $("seat-range").textContent = setupState.on ? say("web.seat_range", {low, high}) : "";
  $("seats").replaceChildren(...seats.map((name, index) => {
    const li = item(undefined, "seat");
    li.dataset.seat = String(index);
    const up = document.createElement("button");
    up.type = "button"; up.textContent = "\u25B2"; up.className = "up";
    up.setAttribute("aria-label", say("web.seat_up", {name}));
    up.addEventListener("click", () => move(index, index - 1));
    const down = document.createElement("button");
    down.type = "button"; down.textContent = "\u25BC"; down.className = "down";
    down.setAttribute("aria-label", say("web.seat_down", {name}));
    down.addEventListener("click", () => move(index, index + 1));
    const out = document.createElement("button");
    out.type = "button"; out.textContent = "\u2715"; out.className = "out";
    out.setAttribute("aria-label", say("web.seat_out", {name}));
    out.addEventListener("click", () => { seats.splice(index, 1); seatsChanged(); });
    const handle = small(name, "name");
    li.append(handle, up, down, out);
    dragged(handle, li, index);
    return li;
  }));
  for (const li of $("names").children) li.classList.toggle("seated", seats.includes(li.textContent));
}

// A seat dragged by its name (a finger or a mouse) onto another seat takes its place
function dragged(handle, li, index) {
  handle.addEventListener("pointerdown", (event) => {
    handle.setPointerCapture(event.pointerId);
    li.classList.add("dragging");
  });
  handle.addEventListener("pointerup", (event) => {
    li.classList.remove("dragging");
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const onto = under && under.closest("#seats li");
    if (onto) move(index, Number(onto.dataset.seat));
  });
  handle.addEventListener("pointercancel", () => li.classList.remove("dragging"));
}

// The seats as they are now go to the table once their count is one the game takes
function seatsChanged() {
  drawSeats();
  const [low, high] = setupState.range;
  const seats = setupState.seats;
  if (setupState.on && seats.length >= low && seats.length <= high) {
    setupState.told = seats.join(" ");
    tell("players " + setupState.told);
  }
}

function seat(name) {
  if (!setupState.seats.includes(name)) {
    setupState.seats.push(name);
    seatsChanged();
  }
}

function drawFirst(on) {
  const asks = Boolean(on && on.asks_first && on.seated.length);
  $("first-part").hidden = !asks;
  if (!asks) return;
  $("first-title").textContent = on.asks_first;
  $("first").replaceChildren(...on.seated.map((name) => {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    return option;
  }));
  $("first").value = on.first || on.seated[0];
}

function wireSetup() {
  $("first").addEventListener("change", () => tell("first " + $("first").value));
  $("start").addEventListener("click", () => tell("start"));
  $("names").addEventListener("click", (event) => {
    const li = event.target.closest("li");
    if (li) seat(li.textContent);
  });
}
