// Every deal typed goes through one queue: why, beside this script's tag in templates/scoring/game.html.
(() => {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const own = $("offline-game");
  if (!window.htmx || !own) return;
  // `points`, `finish`, `next`: read instead of rules of its own (null where it can't score them).
  const { game, user, names, record, points, finish, next: after } = JSON.parse(own.textContent);
  const PREFIX = "bigtwo:waiting:";
  const KEY = `${PREFIX}${user}:${game}`;
  const OLD = `bigtwo:pending-deal:${game}:`; // the one deal the script before this one kept
  const KEEP_FOR_MS = 864e5;
  const PAGES = "game-pages"; // the service worker's copies of game pages (templates/pwa/sw.js)
  const TAPS = "[name=went_out], [name=out_next]";
  const FACT = /^(cards|twos|points|place)_\d$|^(winner|out_on_twos|last_play_twos|pays|dragon)$/;
  let store = null; // switched off: the deals wait while the page is open
  try {
    store = localStorage;
  } catch {}
  let deals = []; // waiting, in order: { number, token, values (as the form sends them), at }
  let clash = null; // a deal the server offered back beside another phone's, until a choice is made
  let mine = null; // a player's own figure (own counts), kept as a deal is and sent first: `to` its form's address
  let editing = null; // the waiting deal back in the form, by index
  let conflict = null; // the server's answer to deals[0] while the scorekeeper chooses
  let blocked = null; // { why, status }: why the deals don't go
  let sending = null; // the AbortController of the send under way
  let ownFigures = false; // the form's figures are the phone's

  const dealForm = () => $("deal-form");
  const filled = (text, values = {}) =>
    Object.entries(values).reduce((said, [key, value]) => said.split(`{${key}}`).join(value), text);
  const words = (name, values) => filled(dealForm().dataset[name], values);
  const said = (name, values) => filled($("offline-words").dataset[name], values);
  const uuid = () =>
    "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) =>
      (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16));
  const boardState = () => JSON.parse($("board-state").textContent);
  const piece = (selector) => $("waiting-rows").content.querySelector(selector).cloneNode(true);

  function make(tag, textContent = "", className = "", attributes = {}, ...children) {
    const element = Object.assign(document.createElement(tag), { textContent, className });
    Object.entries(attributes).forEach(([name, value]) => element.setAttribute(name, value));
    element.append(...children);
    return element;
  }
  const buttonRow = (buttons) => make("p", "", "button-row", {}, ...buttons);

  // --- Kept on this phone: one key per user and game, a day at most
  function load() {
    let old = null;
    for (let i = store ? store.length - 1 : -1; i >= 0; i--) {
      const key = store.key(i);
      let kept = [];
      try {
        kept = [JSON.parse(store.getItem(key))].flat().filter((deal) => Date.now() - deal.at < KEEP_FOR_MS);
      } catch {}
      old = key.startsWith(OLD) ? (kept[0] ?? old) : old; // read into the queue once
      if (key.startsWith(OLD) || (/^bigtwo:(waiting|pending-deal):/.test(key) && !kept.length)) {
        store.removeItem(key);
      } else if (key.startsWith(PREFIX)) {
        store.setItem(key, JSON.stringify(kept));
      }
    }
    const all = JSON.parse(store?.getItem(KEY) || "[]");
    if (old?.values && !all.some((deal) => deal.token === old.token)) {
      const { number, token, ...values } = old.values;
      all.push({ ...old, number: Number(number), values });
    }
    clash = all.find((deal) => deal.clash) ?? null;
    mine = all.find((deal) => deal.own) ?? null;
    deals = all.filter((deal) => !deal.clash && !deal.own).sort((a, b) => a.number - b.number);
    save();
  }

  function save() {
    const kept = [clash, mine, ...deals].filter(Boolean);
    try {
      kept.length ? store?.setItem(KEY, JSON.stringify(kept)) : store?.removeItem(KEY);
    } catch {} // full: still shown, and sent while the page is open
  }

  // --- The form
  const dealFields = (form) => [...form.elements].filter((e) => FACT.test(e.name) && e.type !== "submit");
  // As the form sends them (the winner's twos box is disabled).
  const typed = (form) => Object.fromEntries([...new FormData(form)].filter(([name]) => FACT.test(name)));
  // A choice (tick, radio, list) can't be read-only: taps and keys on it are cancelled instead.
  const isChoice = (e) => e.tagName === "SELECT" || e.type === "checkbox" || e.type === "radio";
  const isLocked = (form) => form.classList.contains("deal-locked");
  const entryOf = (form) =>
    ({ number: Number(form.elements.number.value), token: form.elements.token.value, values: typed(form), at: Date.now() });

  // Back into the form: `values` as kept, or (`values` null) the form as it first came.
  function fillIn(form, values, number, token) {
    if (number) {
      [form.elements.number.value, form.elements.token.value] = [number, token];
      points && (form.querySelector(".deal-no").textContent = said("sayDeal", { number }));
    }
    for (const input of dealFields(form)) {
      const value = values?.[input.name] ?? "";
      const radio = input.type === "radio" && (values ? value === input.value : input.defaultChecked);
      input.type === "radio" || input.type === "checkbox" ? (input.checked = radio || value === "on") : (input.value = value);
    }
    dealFields(form)[0].dispatchEvent(new Event("input", { bubbles: true })); // its marks (game-page.js's `markOut`)
  }

  // Held: read-only, not disabled (left out of the post); the taps still focusable, to say why.
  const flag = (element, on) => (on ? element.setAttribute("aria-disabled", "true") : element.removeAttribute("aria-disabled"));
  function lock(form, locked) {
    form.classList.toggle("deal-locked", locked);
    dealFields(form).forEach((input) => (isChoice(input) ? flag(input, locked) : (input.readOnly = locked)));
    form.querySelectorAll(TAPS).forEach((button) => flag(button, locked));
  }

  // --- One deal at a time, held in the form, where the phone can't score the rules
  const shown = (choice) => (choice?.tagName === "SELECT" ? choice.value && choice.selectedOptions[0].text : choice?.value);

  // "Deal 4 is waiting to be sent: Ann 0, Ben 3, Cy 5, Dee 9.", with whatever else it says.
  function waitingText(form) {
    const parts = [...form.querySelectorAll(".deal-row")].map((row) => {
      const twos = row.querySelector("[name^=twos_]:enabled")?.value.trim();
      const box = row.querySelector("[name^=cards_], [name^=points_], [name^=place_], [name=winner]");
      // Pusoy Dos: only who went out, as the choice is named.
      if (box.type === "radio") return row.querySelector("[name=winner]:checked")?.getAttribute("aria-label") ?? "";
      const text = `${row.querySelector(".deal-name").textContent.trim()} ${(box.tagName === "SELECT" ? shown(box) : box.value.trim()) || "–"}`;
      const held = row.querySelector(".deal-twos")?.firstChild.textContent.trim(); // "twos held"
      return twos && twos !== "0" ? `${text} (${held} ${twos})` : text;
    }).filter(Boolean);
    parts.push(...(form.elements.out_on_twos?.checked ? [words("sayOutOnTwos")] : []));
    for (const extra of form.querySelectorAll(".deal-last-play, .deal-pays, .deal-dragon")) {
      const chosen = shown(extra.querySelector("select, :checked"));
      const label = extra.querySelector("legend, label").textContent.trim().replace(/[?？]$/, "");
      parts.push(...(chosen ? [`${label}: ${chosen}`] : []));
    }
    return words("sayWaiting", { number: form.elements.number.value, deal: parts.join(", ") });
  }

  // Why (else the why said before), what waits and the choices; not again if already said.
  function showWaiting(form, reason) {
    const before = $("live-notice").querySelector(".message-waiting");
    const actions = ["Change", "Discard"].map((action) => make("button", words(`say${action}`), "button", { type: "button", "data-deal": action }));
    const lines = [reason, waitingText(form), form.dataset.sayOneOnly].filter(Boolean).map((line) => make("p", line));
    const message = make("div", "", "message message-waiting", {}, ...lines, buttonRow(actions));
    if ((reason || !before) && before?.textContent !== message.textContent) $("live-notice").replaceChildren(message);
  }

  // "Change it" / "Discard it": the send under way called off (the token keeps the next safe).
  function letGo(form, discard) {
    sending?.abort();
    deals = [];
    save();
    lock(form, false);
    if (discard) fillIn(form, null);
    const discarded = discard ? [make("p", words("sayDiscarded", { number: form.elements.number.value }), "message")] : [];
    $("live-notice").replaceChildren(...discarded);
    dealFields(form)[0].focus();
  }

  // --- The waiting deals scored from what the server rendered: a lookup, no rule of the phone's
  const count = (text) => (/^\s*\d+\s*$/.test(text ?? "") ? Number(text) : NaN);
  const seatsOf = (values, field, blank) => names.map((_, seat) => count(values[`${field}_${seat}`] || blank));
  const facts = (values) =>
    ({ cards: seatsOf(values, "cards"), twos: seatsOf(values, "twos", "0"), onTwos: values.out_on_twos === "on" });
  // One seat's penalty; undefined where the table has none (a count the engine refuses).
  const cost = (cards, twos, onTwos) => points[onTwos ? 1 : 0]?.[cards]?.[twos] ?? undefined;
  const penalties = ({ cards, twos, onTwos }) => cards.map((n, seat) => cost(n, twos[seat], onTwos));
  const fits = (dealFacts) =>
    dealFacts.cards.filter((n) => n === 0).length === 1 && !penalties(dealFacts).includes(undefined);

  // "Next: …": by the winner, then (where it matters) the first of the seats left holding the most.
  function nextAfter(deal) {
    const { cards } = facts(deal.values);
    const told = after[cards.indexOf(0)];
    return typeof told === "string" ? told : told.reduce((a, b) => (cards[b[0]] > cards[a[0]] ? b : a))[1];
  }

  // The waiting deals, each on the totals before it: the server's, or `from`.
  function played(from = boardState().totals) {
    let totals = from;
    return deals.map((deal) => {
      const points = penalties(facts(deal.values));
      totals = totals.map((total, seat) => total + points[seat]);
      const reached = Math.max(...totals) >= (finish.target ?? Infinity) || deal.number >= (finish.deals ?? Infinity);
      const lowest = names.filter((_, seat) => totals[seat] === Math.min(...totals));
      return { deal, points, totals, reached, lowest, over: reached && (lowest.length === 1 || !finish.ties_play_on) };
    });
  }

  const nextNumber = () => (deals.length ? deals.at(-1).number + 1 : boardState().next);
  const offline = () => navigator.onLine === false; // unknown counts as online
  const saysOwn = () => Boolean(points) && (deals.length > 0 || editing !== null || offline());

  // Each player's "on 21", or "+6 → 27" as a count is typed, while deals wait (or no signal).
  function showFigures(form, anyway = false) {
    if (!points || !(anyway || ownFigures || saysOwn())) return;
    ownFigures = saysOwn();
    const before = editing ?? deals.length;
    const totals = before ? played()[before - 1].totals : boardState().totals;
    const { cards, twos, onTwos } = facts(typed(form));
    names.forEach((_, seat) => {
      const points = cost(cards[seat], twos[seat], onTwos);
      $(`preview-${seat}`).textContent = points === undefined ? said("sayOn", { total: totals[seat] })
        : cards[seat] === 0 ? said("sayWentOutZero") : `+${points} → ${totals[seat] + points}`;
    });
  }

  // --- Record deal: held in the form and sent at once (online, none waiting), else in the rows
  function take(form) {
    const entry = entryOf(form);
    if (!points || (!deals.length && editing === null && !offline())) {
      deals = [entry];
      save();
      lock(form, true);
      return offline() ? answered(entry, null) : send();
    }
    const before = deals;
    deals = editing === null ? [...deals.filter((deal) => deal.token !== entry.token), entry]
      : deals.map((deal, index) => (index === editing ? { ...deal, values: entry.values } : deal));
    const ends = played().findIndex((row) => row.over);
    const why = !fits(facts(entry.values)) ? said("sayCheck", { number: entry.number, most: points[0].length - 1 })
      : ends >= 0 && ends < deals.length - 1 && said("sayEndsEarly", { number: deals[ends].number });
    if (why) {
      deals = before;
      return notice([make("p", why, "", { role: "alert" })]);
    }
    editing = null;
    intoRows(form);
    send();
  }

  // The form goes on to the next deal: what it held waits in the rows.
  function intoRows(form) {
    if (deals.length === 1 && editing === null) snapshot(); // the page as the server last drew it, for opening it offline
    save();
    lock(form, false);
    fillIn(form, {}, nextNumber(), uuid());
    render();
  }

  // Shown only to the account it was made for (X-Signed-In-As: templates/pwa/sw.js).
  function snapshot() {
    const signedInAs = $("offline-words").dataset.signedInAs;
    const page = new Response(`<!DOCTYPE html>${document.documentElement.outerHTML}`, {
      headers: { "Content-Type": "text/html; charset=utf-8", Date: new Date().toUTCString(), "X-Signed-In-As": signedInAs },
    });
    window.caches?.open(PAGES).then((cache) => cache.put(location.pathname, page)).catch(() => {});
  }

  // --- What the scorekeeper sees of the queue
  const notice = (parts) => $("live-notice").replaceChildren(make("div", "", "message message-waiting waiting", {}, ...parts));

  const button = (text, action, value = "") => make("button", text, "button", { type: "button", "data-waiting": action, value });

  // What a cell says of its seat, as the server's row does (`cell_notes`, scoring/presenters/board.py).
  function note({ cards, twos, onTwos }, seat) {
    if (cards[seat] === 0) return said(onTwos ? "sayWentOutOnTwos" : "sayWentOut");
    const left = said("sayLeft", { count: cards[seat] });
    return twos[seat] ? `${left}, ${said("sayTwos").split("|")[twos[seat] - 1]}` : left;
  }

  // The template's row of a waiting deal, filled in: each penalty, what it says, the running total.
  function row({ deal, points, totals }, index) {
    const tr = piece("tbody:not(.waiting) tr");
    const dealFacts = facts(deal.values);
    const edit = tr.querySelector("button");
    edit.value = index;
    edit.textContent = `${deal.number} ✎`;
    edit.setAttribute("aria-label", said("sayEdit", { number: deal.number }));
    [...tr.cells].slice(1).forEach((td, seat) => {
      const won = dealFacts.cards[seat] === 0;
      td.className = won ? "went-out-cell" : "";
      const [pen, meta, run] = td.children;
      pen.textContent = won ? "0" : `+${points[seat]}`;
      meta.textContent = note(dealFacts, seat);
      run.textContent = `= ${totals[seat]}`;
    });
    return tr;
  }

  // The template's scoreboard without rows: for the first deals, or the conflict's two.
  function emptyTable() {
    const wrap = piece(".table-wrap");
    wrap.querySelectorAll("tbody, tfoot").forEach((part) => part.remove());
    return wrap;
  }

  function render() {
    const board = $("game-board");
    const form = dealForm();
    if (!board || !points) return;
    board.querySelectorAll(".waiting").forEach((element) => element.remove());
    // The tie banner sits above the deal form, outside the board.
    $("game-live").querySelectorAll(".scoreboard > p, .banner-tied, #undo-area, .next-deal").forEach((e) => (e.hidden = deals.length > 0));
    const last = played().at(-1);
    if (form && deals.length && editing === null && Number(form.elements.number.value) !== nextNumber()) {
      fillIn(form, {}, nextNumber(), uuid());
    }
    if (form) {
      form.hidden = Boolean(last?.over);
      showFigures(form);
    }
    if (!last) return $("live-notice").querySelector(".waiting")?.remove();
    if (!last.over) $("board-next")?.prepend(make("p", nextAfter(last.deal), "next-deal waiting"));
    if (!board.querySelector(".scores")) board.querySelector(".scoreboard h2").after(emptyTable());
    // Below the sent deals, under one label: each row keeps to the height of a sent one.
    const table = board.querySelector(".scores");
    const waiting = piece("tbody.waiting");
    waiting.append(...played().map(row));
    table.createTBody().replaceWith(waiting);
    const total = piece("tfoot tr");
    [...total.cells].slice(1).forEach((td, seat) => {
      td.textContent = last.totals[seat];
      td.className = last.lowest.includes(names[seat]) ? "lowest" : "";
    });
    (table.tFoot || table.createTFoot()).append(total);
    if (last.reached) {
      const banner = piece(".banner");
      const lowest = { name: last.lowest[0], names: last.lowest.join(", "), total: Math.min(...last.totals) };
      banner.classList.add(`banner-${last.over ? "finished" : "tied"}`);
      banner.querySelector("h2").textContent = said(last.over ? "sayWins" : "sayTied", lowest);
      board.prepend(banner);
    }
    conflict ? showConflict() : showQueue(last);
  }

  // How many wait, why they don't go, the one being changed, and "Undo".
  function showQueue(last) {
    const logIn = blocked?.status === 0 ? [" ", make("a", said("sayLogIn"), "", { href: $("offline-words").dataset.login })] : [];
    notice([
      make("p", said(deals.length === 1 ? "sayOne" : "sayMany", { count: deals.length })),
      ...(blocked ? [make("p", said(blocked.why, blocked), "", {}, ...logIn)] : []),
      ...(editing !== null ? [make("p", said("sayEditing", { number: deals[editing].number }))] : []),
      buttonRow([button(said("sayUndo", { number: last.deal.number }), "undo")]),
    ]);
  }

  // Another phone recorded deals[0]'s number first: both, for the scorekeeper to choose.
  function showConflict() {
    const deal = deals[0];
    const { row: theirs, state, reason } = conflict;
    const parts = [make("p", theirs ? said("sayConflict", { number: deal.number }) : reason)];
    const actions = [];
    if (theirs) {
      const wrap = emptyTable();
      wrap.className = "table-wrap";
      wrap.querySelector("th").textContent = "";
      theirs.cells[0].replaceWith(make("th", said("sayServers"), "", { scope: "row" }));
      // Mine where the server's is: on the same totals, whatever the board has taken since.
      const mine = row({ deal, ...played(conflict.before)[0] });
      mine.className = "";
      mine.cells[0].replaceWith(make("th", said("sayMine"), "", { scope: "row" }));
      wrap.querySelector("table").createTBody().append(theirs, mine);
      parts.push(wrap);
      actions.push(button(said("sayKeep", { number: deal.number }), "keep"));
    }
    if (state && !state.finished && state.next !== deal.number) actions.push(button(said("sayPut", { number: state.next }), "put", state.next));
    actions.push(button(said(deals.length > 1 ? "sayDropAll" : "sayDrop"), "drop"));
    notice([...parts, buttonRow(actions)]);
  }

  // --- Sending: the first waiting deal (or, `again`, the one offered back, as the page reloads)
  async function send(again = false) {
    const form = dealForm();
    const deal = again ? clash : (mine ?? deals[0]);
    // One deal given back to the form by "Change it" goes when Record deal is tapped again.
    const due = again || deal?.own || points || (form && isLocked(form));
    if (!deal || !due || sending || conflict || editing !== null || offline()) return;
    const controller = (sending = new AbortController());
    const timeout = setTimeout(() => controller.abort(), 8000);
    let response = null;
    let text = "";
    document.dispatchEvent(new Event("deal:sending")); // the board waits for its answer: game-page.js
    try {
      // With the version the board shows, the answer to a deal held in the form is what it changed.
      const shown = held(deal) ? { shown: document.querySelector("[name=shown]")?.value ?? "" } : {};
      const body = new URLSearchParams({ ...deal.values, number: deal.number, token: deal.token, ...shown });
      const csrf = JSON.parse(document.body.getAttribute("hx-headers"))["x-csrftoken"];
      response = await fetch(deal.to ?? record, { method: "POST", body, headers: { "HX-Request": "true", "X-CSRFToken": csrf }, signal: controller.signal });
      text = await response.text();
    } catch {
      response = null; // no answer: tried again in a moment
    }
    clearTimeout(timeout);
    sending = null;
    document.dispatchEvent(new Event("deal:answered"));
    if ([deals[0], clash, mine].includes(deal)) answered(deal, response, text); // not let go of meanwhile
    else if (mine) send(); // changed while it went: the change goes now
  }

  // The deal the form holds, locked, whose answer replaces it (or offered back, sent again).
  const held = (deal) => deal.own || !points || deal === clash || (deal === deals[0] && dealForm() && isLocked(dealForm()));

  // The server's word on a deal (`response` null for none): its `status` 0 for the log-in page.
  function answered(deal, response, text = "") {
    const form = dealForm();
    const status = response && (response.redirected || response.headers.has("HX-Redirect") ? 0 : response.status);
    const failed = status === null || status === 0 || status >= 400;
    if (failed && deal.own) return tellOwn(status);
    if (failed && status !== null && status < 500) blocked = { why: status ? "sayBlocked" : "saySignedOut", status };
    const locked = form && isLocked(form);
    if (failed && points && !(locked && !fits(facts(deal.values)))) {
      locked ? intoRows(form) : render();
    } else if (failed && form && status !== 0) { // held: one the rows can't score too
      const why = status === null ? "sayOffline" : status >= 500 ? "sayNoServer" : "sayRefused";
      showWaiting(form, words(why, { status }));
    }
    if (failed) return;
    blocked = null;
    const page = new DOMParser().parseFromString(text, "text/html");
    const refusal = page.querySelector("[role=alert]");
    if (held(deal)) {
      // The answer replaces the form, and alone says what became of the deal; offered back beside
      // another phone's, the deal stays kept until a choice is made.
      clash = deal.own ? clash : page.getElementById("deal-clash") && { ...deal, clash: true };
      mine = deal === mine ? null : mine;
      deals = deals.filter((kept) => kept.token !== deal.token);
      save();
      const { headers } = response;
      htmx.swap(headers.get("HX-Retarget") || "#game-live", text, { swapStyle: headers.get("HX-Reswap") || "outerHTML" });
    } else if (!refusal) {
      deals.shift(); // recorded, now or by an earlier send whose answer was lost
      save();
      deals.length ? send() : refresh();
    } else {
      const theirs = [...page.querySelectorAll("#game-board tbody tr")]
        .find((tr) => parseInt(tr.cells[0].textContent, 10) === deal.number);
      theirs?.removeAttribute("id"); // the board's own row of it, when it comes, goes by that id
      const state = JSON.parse(page.getElementById("board-state")?.textContent || "null");
      // The totals before the server's deal: its running totals less its penalties.
      const figure = (td, part) => Number(td.querySelector(part).textContent.replace(/\D/g, ""));
      const before = theirs && [...theirs.cells].slice(1).map((td) => figure(td, ".run") - figure(td, ".pen"));
      conflict = { row: theirs, state, before, reason: refusal.textContent.trim() };
      render();
    }
  }

  // --- A player's own figure (own-counts.js), to its form's address: a changed one gets a new token
  document.addEventListener("own:keep", (event) => {
    const { detail } = event;
    const same = mine?.token === detail.token;
    if (!same || JSON.stringify(detail.values) !== JSON.stringify(mine.values)) mine = { ...detail, token: same ? uuid() : detail.token, at: Date.now() };
    event.preventDefault(); // taken
    save();
    tellOwn();
    send();
  });
  // What became of it: `status` the server's refusal (0: the log-in page), else none.
  const tellOwn = (status = null) => document.dispatchEvent(new CustomEvent("own:kept", { detail: { mine, status } }));

  // The game's live part as the server now has it (htmx:load then adds what still waits).
  const refresh = () => htmx.ajax("GET", location.pathname, { target: "#game-live", swap: "outerHTML" });

  document.addEventListener("submit", (event) => {
    const form = dealForm();
    if (event.target === form) {
      event.preventDefault();
      event.stopImmediatePropagation(); // not htmx's: the queue sends it
      isLocked(form) ? points || showWaiting(form, "") : take(form);
    }
  }, true);

  // No penalty preview while the phone says the figures, nor offline; one that can't come, it says.
  const fromForm = (event) => dealForm()?.contains(event.detail.elt);
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (fromForm(event) && (offline() || saysOwn())) event.preventDefault();
  });
  const previewLost = (event) => fromForm(event) && showFigures(dealForm(), true);
  document.addEventListener("htmx:sendError", previewLost);
  document.addEventListener("htmx:timeout", previewLost);

  // After the page loads and each swap of the game's live part: the queue against the page. What
  // the page said as it loaded ("Deal 1 changed.") is over after a swap: the answer says what is now.
  function adopt(loaded) {
    const form = dealForm();
    const deal = deals[0];
    if (!loaded) document.querySelector("main > .messages")?.remove();
    if (clash && !$("deal-clash") && !loaded) clash = null; // the choice was made
    if (!points && form && deal && deal.number !== Number(form.elements.number.value)) {
      deals = []; // the game has moved past it
    } else if (!points && form && deal && !isLocked(form)) {
      fillIn(form, deal.values, deal.number, deal.token);
      lock(form, true);
      showWaiting(form, loaded ? words("sayRestored", { number: deal.number }) : "");
    }
    save();
    render();
    tellOwn();
    send(loaded && Boolean(clash)); // reloaded before a choice was made: sent again, it brings it back
  }

  document.addEventListener("htmx:load", (event) => {
    const element = event.detail.elt;
    // The deal area comes alone when a deal's answer brings only what it changed on the board.
    if (element === document.body || element?.id === "game-live" || element?.id === "deal-area") {
      adopt(element === document.body);
    } else if (element.closest?.("#game-board")) {
      render(); // a part of the board swapped alone (what one deal changed) drops the waiting rows
    }
  });

  // --- Taps and keys
  document.addEventListener("click", (event) => {
    const form = dealForm();
    const target = event.target;
    const letGoOf = target.closest?.("[data-deal]");
    const waiting = target.closest?.("[data-waiting]");
    if (form && letGoOf) {
      letGo(form, letGoOf.dataset.deal === "Discard");
    } else if (waiting && !sending) {
      choose(form, waiting.dataset.waiting, waiting.value);
    } else if (form?.contains(target) && isLocked(form) && (target.closest(TAPS) || isChoice(target))) {
      event.preventDefault(); // "Went out" and "Out next" unlocked: static/js/game-page.js, deal-order.js
      showWaiting(form, "");
    }
  });

  // A waiting deal changed or undone (back into the form, not sent), or the conflict's choice.
  function choose(form, choice, value) {
    if (choice === "edit" || choice === "undo") {
      const index = choice === "edit" ? Number(value) : deals.length - 1;
      const deal = deals[index];
      editing = choice === "edit" ? index : null;
      deals = choice === "undo" ? deals.slice(0, -1) : deals;
      save();
      render();
      if (form) {
        fillIn(form, deal.values, deal.number, choice === "undo" ? uuid() : deal.token);
        form.hidden = false;
        dealFields(form)[0].focus();
      }
      return;
    }
    if (choice === "put") {
      deals.forEach((deal, index) => (deal.number = Number(value) + index));
      deals[0].token = uuid(); // the refused one's token may be spent
    } else {
      deals = choice === "keep" ? deals.slice(1) : [];
    }
    conflict = null;
    save();
    refresh().then(() => send());
  }

  // A press opens a list, a key changes a choice: not while held; a box held says why.
  for (const name of ["mousedown", "keydown", "focusin"]) {
    document.addEventListener(name, (event) => {
      const form = dealForm();
      const target = event.target;
      const cancelled = name === "focusin" ? target.readOnly : isChoice(target) && event.key !== "Tab";
      if (form?.contains(target) && isLocked(form) && cancelled) {
        name === "focusin" || event.preventDefault();
        showWaiting(form, "");
      }
    });
  }

  // As a count is typed (once game-page.js has marked who is out), and as the queue fills the form in.
  document.addEventListener("input", (event) => dealForm()?.contains(event.target) && showFigures(dealForm()));

  // One timer, one set of listeners: the first waiting deal goes when it can.
  window.addEventListener("online", () => send());
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && send());
  setInterval(() => send(), 4000);
  load();
  // This page's scripts beside it, for opening it offline (the browser has them already).
  const scripts = [...document.scripts].map((script) => script.src).filter(Boolean);
  window.caches?.open(PAGES).then((cache) => cache.addAll(scripts)).catch(() => {});
})();
