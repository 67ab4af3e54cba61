// A whole game without a signal: offline, each deal is kept on this phone (localStorage, under
// this user and game, a day at most), scored from the rule set's scoring sheet the page carries
// (rules/scoring_sheet.py: the engine's rules as data, not a copy of them) and shown on the
// scoreboard as not yet sent. When the signal returns they go in order, each with its own
// token, so each lands once. The README's "Playing without a signal" says what the scorekeeper
// sees; scoring/presenters/offline.py which rules the phone scores.
(() => {
  "use strict";
  const own = document.getElementById("offline-game");
  const store = (() => {
    try {
      return window.localStorage;
    } catch (error) {
      return null; // switched off: static/js/deal-retry.js keeps one deal in the form
    }
  })();
  if (!own || !store || !window.htmx) {
    return;
  }
  const { game, user, names, sheet, record } = JSON.parse(own.textContent);
  const PREFIX = "bigtwo:waiting:";
  const KEY = `${PREFIX}${user}:${game}`;
  const DAY = 864e5;
  const PAGES = "game-pages"; // the service worker's copies of game pages (templates/pwa/sw.js)
  let deals = []; // waiting, in order: { number, token, values (as the form sends them), at }
  let editing = null; // the waiting deal back in the form, by index
  let conflict = null; // the server's answer to deals[0] while the scorekeeper chooses
  let sending = false;

  const $ = (id) => document.getElementById(id);
  const form = () => $("deal-form");
  const sum = (list) => list.reduce((a, b) => a + b, 0);
  // The page's data-say-<name> (translated), `{key}` filled in from `values`.
  const said = (name, values = {}) =>
    Object.entries(values).reduce((text, [key, value]) => text.split(`{${key}}`).join(value),
      $("offline-words").dataset[name]);
  function make(tag, text = "", className = "", attributes = {}) {
    const element = document.createElement(tag);
    element.textContent = text;
    element.className = className;
    Object.entries(attributes).forEach(([name, value]) => element.setAttribute(name, value));
    return element;
  }
  const uuid = () =>
    "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) =>
      (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16));

  function load() {
    for (let i = store.length - 1; i >= 0; i--) {
      const key = store.key(i);
      if (key?.startsWith(PREFIX)) {
        let kept = [];
        try {
          kept = JSON.parse(store.getItem(key)).filter((deal) => Date.now() - deal.at < DAY);
        } catch (error) {}
        kept.length ? store.setItem(key, JSON.stringify(kept)) : store.removeItem(key);
      }
    }
    deals = JSON.parse(store.getItem(KEY) || "[]");
  }

  function save() {
    try {
      deals.length ? store.setItem(KEY, JSON.stringify(deals)) : store.removeItem(KEY);
    } catch (error) {} // full: still shown, and sent while the page is open
  }

  // --- Scoring, from the sheet ---------------------------------------------------------------
  const count = (text) => (/^\s*\d+\s*$/.test(text ?? "") ? Number(text) : NaN);
  const seatsOf = (values, field, blank) =>
    names.map((_, seat) => count(values[`${field}_${seat}`] || blank));

  function facts(values) {
    return { cards: seatsOf(values, "cards"), twos: seatsOf(values, "twos", "0"), onTwos: values.out_on_twos === "on" };
  }

  // What the engine checks of cards left and twos (rules/deal_checks.py), from the sheet.
  function fits({ cards, twos, onTwos }) {
    const { most, most_in_all: inAll, most_once: once } = sheet.cards_left;
    return cards.every((n) => n <= most) && cards.filter((n) => n === 0).length === 1 &&
      (inAll === null || sum(cards) <= inAll) && (!once || cards.filter((n) => n === most).length < 2) &&
      twos.every((n, seat) => n <= Math.min(cards[seat], 4)) &&
      sum(twos) <= (sheet.twos?.in_the_deck ?? 0) - (onTwos ? 1 : 0);
  }

  function penalties({ cards, twos, onTwos }) {
    const rule = sheet.twos;
    return cards.map((n, seat) =>
      sheet.penalties[n] * (rule && onTwos ? rule.out_on_twos : 1) * (rule?.per_two_held ?? 1) ** twos[seat]);
  }

  // The waiting deals on the server's totals: each one's penalties, running totals and where
  // the game stands (rules/penalties.py, `outcome`: a tie for lowest plays on).
  function played() {
    const state = JSON.parse($("board-state").textContent);
    let totals = state.totals;
    return deals.map((deal) => {
      const points = penalties(facts(deal.values));
      totals = totals.map((total, seat) => total + points[seat]);
      const finish = sheet.finish;
      const reached = finish.kind === "target" ? Math.max(...totals) >= finish.target
        : finish.kind === "deals" && deal.number >= finish.deals;
      const lowest = names.filter((_, seat) => totals[seat] === Math.min(...totals));
      return { deal, points, totals, reached, lowest, over: reached && lowest.length === 1 };
    });
  }

  // --- The form --------------------------------------------------------------------------------
  const fields = (f) => [...f.elements].filter((e) => /^(cards|twos)_\d$|^out_on_twos$/.test(e.name));

  function valuesOf(f) {
    return Object.fromEntries(fields(f).filter((e) => !e.disabled)
      .map((e) => [e.name, e.type === "checkbox" ? (e.checked ? "on" : "") : e.value]));
  }

  function fillIn(f, number, token, values = {}) {
    f.elements.number.value = number;
    f.elements.token.value = token;
    f.querySelector(".deal-no").textContent = said("sayDeal", { number });
    for (const e of fields(f)) {
      e.type === "checkbox" ? (e.checked = values[e.name] === "on") : (e.value = values[e.name] ?? "");
    }
    fields(f)[0].dispatchEvent(new Event("input", { bubbles: true })); // "Went out" and the twos
  }

  const nextNumber = () => (deals.length ? deals.at(-1).number + 1 : JSON.parse($("board-state").textContent).next);

  // Record deal, offline or behind waiting deals (and what static/js/deal-retry.js couldn't
  // send): kept, shown, and sent when it can be.
  function keep(f) {
    const values = valuesOf(f);
    const dealFacts = facts(values);
    if (dealFacts.cards.some(Number.isNaN) || dealFacts.twos.some(Number.isNaN) || !fits(dealFacts)) {
      notice([make("p", said("sayCheck", { number: f.elements.number.value, most: sheet.cards_left.most }), "", { role: "alert" })]);
      return false;
    }
    const changed = editing === null ? null : deals[editing];
    if (changed) {
      const was = changed.values;
      changed.values = values;
      const ends = played().findIndex((row) => row.over);
      if (ends >= 0 && ends < deals.length - 1) {
        changed.values = was;
        notice([make("p", said("sayEndsEarly", { number: deals[ends].number }), "", { role: "alert" })]);
        return false;
      }
    } else {
      if (!deals.length) {
        snapshot(); // the page as the server last drew it, for opening it again offline
      }
      deals.push({ number: Number(f.elements.number.value), token: f.elements.token.value, values, at: Date.now() });
    }
    editing = null;
    save();
    fillIn(f, nextNumber(), uuid());
    render();
    send();
    return true;
  }

  function snapshot() {
    const page = new Response(`<!DOCTYPE html>${document.documentElement.outerHTML}`, {
      headers: { "Content-Type": "text/html; charset=utf-8", Date: new Date().toUTCString() },
    });
    window.caches?.open(PAGES).then((cache) => cache.put(location.pathname, page)).catch(() => {});
  }

  // --- What the scorekeeper sees -----------------------------------------------------------------
  function notice(parts) {
    const box = make("div", "", "message message-waiting waiting");
    box.append(...parts);
    $("live-notice").replaceChildren(box);
  }

  function button(text, action, value = "") {
    return make("button", text, "button", { type: "button", "data-waiting": action, value });
  }

  function cells(tr, row) {
    row.points.forEach((points, seat) => {
      const td = tr.insertCell();
      const won = count(row.deal.values[`cards_${seat}`]) === 0;
      td.className = won ? "went-out-cell" : "";
      td.append(make("span", won ? "0" : `+${points}`, "pen"), make("span", `= ${row.totals[seat]}`, "run"));
    });
    return tr;
  }

  function scoreboard() {
    let table = document.querySelector("#game-board .scores");
    if (!table) {
      table = make("table", "", `scores seats-${names.length}`);
      const head = table.createTHead().insertRow();
      [said("sayDealHeading"), ...names].forEach((name) => head.append(make("th", name, "", { scope: "col" })));
      table.createTBody();
      const wrap = make("div", "", "table-wrap waiting");
      wrap.append(table);
      document.querySelector("#game-board .scoreboard h2").after(wrap);
    }
    return table;
  }

  function render() {
    const board = $("game-board");
    const f = form();
    if (!board) {
      return;
    }
    board.querySelectorAll(".waiting").forEach((element) => element.remove());
    board.querySelectorAll(".scoreboard > p, .banner-tied, #undo-area").forEach((e) => (e.hidden = deals.length > 0));
    const rows = played();
    const last = rows.at(-1);
    if (f && deals.length && editing === null && Number(f.elements.number.value) !== nextNumber()) {
      fillIn(f, nextNumber(), uuid());
    }
    if (f) {
      f.hidden = Boolean(last?.over);
    }
    if (!last) {
      $("live-notice").querySelector(".waiting")?.remove();
      return;
    }
    const table = scoreboard();
    rows.forEach((row, index) => {
      const tr = table.tBodies[0].insertRow();
      tr.className = "waiting";
      const th = make("th", "", "", { scope: "row" });
      th.append(button(`${row.deal.number} ✎`, "edit", index), make("span", said("sayNotSent"), "meta"));
      th.firstChild.setAttribute("aria-label", said("sayEdit", { number: row.deal.number }));
      tr.append(th);
      cells(tr, row);
    });
    const total = (table.tFoot || table.createTFoot()).insertRow();
    total.className = "waiting";
    total.append(make("th", said("sayTotalNotSent"), "", { scope: "row" }));
    last.totals.forEach((sum, seat) => total.append(make("td", `${sum}`, last.lowest.includes(names[seat]) ? "lowest" : "")));
    const lowest = Math.min(...last.totals);
    if (last.reached) {
      const banner = make("section", "", `banner waiting banner-${last.over ? "finished" : "tied"}`);
      banner.append(make("h2", last.over ? said("sayWins", { name: last.lowest[0], total: lowest })
        : said("sayTied", { names: last.lowest.join(", "), total: lowest })), make("p", said("sayOverNotSent")));
      board.prepend(banner);
    }
    if (!conflict) {
      const parts = [make("p", said(deals.length === 1 ? "sayOne" : "sayMany", { count: deals.length }))];
      if (editing !== null) {
        parts.push(make("p", said("sayEditing", { number: deals[editing].number })));
      }
      const actions = make("p", "", "button-row");
      actions.append(button(said("sayUndo", { number: last.deal.number }), "undo"));
      notice([...parts, actions]);
    }
  }

  // Both versions of the deal, side by side, and the three ways out.
  function showConflict() {
    const deal = deals[0];
    const { row, state, reason } = conflict;
    const parts = [make("p", row ? said("sayConflict", { number: deal.number }) : reason)];
    if (row) {
      const table = make("table", "", `scores seats-${names.length}`);
      const head = table.createTHead().insertRow();
      ["", ...names].forEach((name) => head.append(make("th", name, "", { scope: "col" })));
      row.cells[0].replaceWith(make("th", said("sayServers"), "", { scope: "row" }));
      table.createTBody().append(row);
      const mine = cells(table.tBodies[0].insertRow(), { deal, ...played()[0] });
      mine.prepend(make("th", said("sayMine"), "", { scope: "row" }));
      const wrap = make("div", "", "table-wrap");
      wrap.append(table);
      parts.push(wrap);
    }
    const actions = make("p", "", "button-row");
    if (row) {
      actions.append(button(said("sayKeep", { number: deal.number }), "keep"));
    }
    if (state && !state.finished && state.next !== deal.number) {
      actions.append(button(said("sayPut", { number: state.next }), "put", state.next));
    }
    actions.append(button(said(deals.length > 1 ? "sayDropAll" : "sayDrop"), "drop"));
    notice([...parts, actions]);
  }

  // --- Sending -------------------------------------------------------------------------------------
  async function send() {
    if (sending || conflict || editing !== null || !deals.length || navigator.onLine === false) {
      return;
    }
    sending = true;
    try {
      while (deals.length && !conflict) {
        const deal = deals[0];
        const body = new URLSearchParams({ ...deal.values, number: deal.number, token: deal.token });
        const token = JSON.parse(document.body.getAttribute("hx-headers"))["x-csrftoken"];
        const response = await fetch(record, {
          method: "POST", body, headers: { "HX-Request": "true", "X-CSRFToken": token },
          signal: AbortSignal.timeout(10000),
        });
        if (!response.ok || response.redirected || response.headers.get("HX-Redirect")) {
          break; // a server error, or logged out: tried again in a moment, or after logging in
        }
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        const refusal = page.querySelector("[role=alert]");
        if (!refusal) {
          deals.shift(); // recorded, now or by an earlier send whose answer was lost
          save();
          continue;
        }
        const row = [...page.querySelectorAll("#game-board tbody tr")]
          .find((tr) => parseInt(tr.cells[0].textContent, 10) === deal.number);
        const state = JSON.parse(page.getElementById("board-state")?.textContent || "null");
        conflict = { row, state, reason: refusal.textContent.trim() };
      }
    } catch (error) {
      // No connection after all: tried again when it returns.
    } finally {
      sending = false;
    }
    if (conflict) {
      render();
      showConflict();
    } else if (!deals.length) {
      refresh();
    }
  }

  // The game's live part as the server now has it (htmx:load then adds what still waits).
  const refresh = () => window.htmx.ajax("GET", location.pathname, { target: "#game-live", swap: "outerHTML" });

  document.addEventListener("click", (event) => {
    const action = event.target.closest?.("[data-waiting]");
    const f = form();
    if (!action || sending) {
      return;
    }
    const choice = action.dataset.waiting;
    if (choice === "edit" || choice === "undo") {
      const index = choice === "edit" ? Number(action.value) : deals.length - 1;
      const deal = deals[index];
      if (choice === "undo") {
        deals.pop();
        editing = null;
      } else {
        editing = index;
      }
      save();
      render();
      if (f) {
        // An undone deal comes back into the form, as the server's undo does; not sent.
        fillIn(f, deal.number, choice === "undo" ? uuid() : deal.token, deal.values);
        f.hidden = false;
        fields(f)[0].focus();
      }
      return;
    }
    if (choice === "put") {
      deals.forEach((deal, index) => (deal.number = Number(action.value) + index));
      deals[0].token = uuid(); // the refused one's token may be spent
    } else {
      deals = choice === "keep" ? deals.slice(1) : [];
    }
    conflict = null;
    save();
    refresh().then(send);
  });

  document.addEventListener("submit", (event) => {
    const f = form();
    if (event.target === f && (navigator.onLine === false || deals.length || editing !== null || conflict)) {
      event.preventDefault();
      event.stopImmediatePropagation(); // not htmx's: it would send it now, out of turn
      keep(f);
    }
  }, true);

  // static/js/deal-retry.js hands over a deal htmx couldn't send.
  window.bigtwoOffline = { take: keep };

  document.addEventListener("htmx:load", (event) => {
    if (["game-live", "game-board"].includes(event.detail.elt.id)) {
      render();
      if (conflict) {
        showConflict();
      }
    }
  });
  window.addEventListener("online", send);
  window.setInterval(send, 5000);
  load();
  render();
  send();
  // This page's scripts beside it, for opening it offline (the browser has them already).
  const scripts = [...document.scripts].map((script) => script.src).filter(Boolean);
  window.caches?.open(PAGES).then((cache) => cache.addAll(scripts)).catch(() => {});
})();
