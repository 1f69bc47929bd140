// The café's house rules and language per table: the form offers each game's options as its
// rules declare them (api/defaults) and sends a table what staff chose (api/defaults/set),
// which the table takes at its next game. Names and values go on the page as text only.
"use strict";

let house = null;            // what api/defaults said last: the tables, the games, the languages

function houseInput(option, value) {
  let input;
  if (option.kind === "bool" || option.kind === "choice") {
    input = element("select");
    const values = option.kind === "bool" ? [true, false] : option.choices;
    values.forEach((choice, n) => {
      const o = element("option", option.kind === "bool" ? (choice ? "on" : "off") : option.choice_labels[n]);
      o.value = JSON.stringify(choice);
      input.append(o);
    });
    input.value = JSON.stringify(value);
  } else {
    input = element("input");
    input.type = option.kind === "int" ? "number" : "text";
    if (option.minimum !== null) { input.min = option.minimum; }
    if (option.maximum !== null) { input.max = option.maximum; }
    input.value = String(value);
  }
  input.dataset.option = option.key;
  return input;
}

// the value an input holds, typed as its option's rules take it (the dashboard checks it)
function houseValue(option, input) {
  if (option.kind === "bool" || option.kind === "choice") { return JSON.parse(input.value); }
  if (option.kind === "int" && /^-?\d+$/.test(input.value.trim())) { return Number(input.value); }
  return input.value;
}

function houseOptions() {
  const game = house.games.find((g) => g.id === $("house-game").value);
  const table = house.tables.find((t) => t.name === $("house-table").value);
  const set = (table && game && table.games[game.id]) || {};
  $("house-options").replaceChildren(...(game ? game.options : []).map((option) => {
    const label = element("label", `${option.label} `);
    label.append(houseInput(option, option.key in set ? set[option.key] : option.default));
    return label;
  }));
}

// another table chosen: its language as last sent, and its options
function houseTable() {
  const table = house.tables.find((t) => t.name === $("house-table").value);
  $("house-language").value = (table && table.language) || "";
  houseOptions();
}

// an option's name as the table's menus give it, its key where the rules no longer have it
function houseLabel(gameId, key) {
  const game = house.games.find((g) => g.id === gameId);
  const option = game && game.options.find((o) => o.key === key);
  return option ? option.label : key;
}

function optionNode(text, value) {
  const o = element("option", text);
  o.value = value;
  return o;
}

async function houseRules() {
  house = await call("api/defaults");
  choices("house-table", house.tables.map((t) => t.name));
  const game = $("house-game").value;
  $("house-game").replaceChildren(optionNode("(the language only)", ""),
                                  ...house.games.map((g) => optionNode(g.title, g.id)));
  $("house-game").value = house.games.some((g) => g.id === game) ? game : "";
  $("house-language").replaceChildren(optionNode("as the table's staff chose", ""),
                                      ...house.languages.map((l) => optionNode(l, l)));
  houseTable();
  $("house-sent").replaceChildren(...house.tables.map((table) => {
    const li = element("li");
    li.dataset.table = table.name;
    const games = Object.entries(table.games).map(([id, options]) =>
      `${id}: ${Object.entries(options).map(([k, v]) => `${houseLabel(id, k)} ${v}`).join(", ")}`);
    li.append(element("span", table.name, "name"),
              element("span", ` · ${games.join("; ") || "the rules' own"} · ${table.language || "its own language"}`));
    return li;
  }));
  $("house-form").hidden = !house.tables.length;
}

async function sendHouseRules() {
  const game = house.games.find((g) => g.id === $("house-game").value);
  const options = {};
  for (const option of game ? game.options : []) {
    const value = houseValue(option, $("house-options").querySelector(`[data-option="${option.key}"]`));
    if (value !== option.default) { options[option.key] = value; }
  }
  const done = await call("api/defaults/set", {table: $("house-table").value, game: game ? game.id : "",
                                               options, language: $("house-language").value});
  const sent = done.shared ? " for its next game" : `; not sent: ${done.not_shared}`;
  await houseRules();                   // the list shows what was sent before the line says it
  say(`House rules set for ${done.table}${sent}`, Boolean(done.shared));
}
