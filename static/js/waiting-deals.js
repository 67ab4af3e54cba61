// A deal typed is never lost: why, beside this script's tag in templates/scoring/game.html.
(() => {
  "use strict";
  if (!window.htmx) {
    return;
  }
  const $ = (id) => document.getElementById(id);
  const dealForm = () => $("deal-form");
  const notice = () => $("live-notice");
  const store = (() => {
    try {
      return window.localStorage;
    } catch (error) {
      return null; // switched off: the values still stay in the form, one deal at a time
    }
  })();
  const filled = (text, values = {}) =>
    Object.entries(values).reduce((said, [key, value]) => said.split(`{${key}}`).join(value), text);
  const words = (name, values) => filled(dealForm().dataset[name], values);

  function make(tag, text = "", className = "", attributes = {}) {
    const element = document.createElement(tag);
    element.textContent = text;
    element.className = className;
    Object.entries(attributes).forEach(([name, value]) => element.setAttribute(name, value));
    return element;
  }

  const FACT = /^(cards|twos|points|place)_\d$|^(winner|out_on_twos|last_play_twos|pays|dragon)$/;
  const dealFields = (form) => [...form.elements].filter((e) => FACT.test(e.name) && e.type !== "submit");
  const counts = (form) => [...form.querySelectorAll("input[name^=cards_], input[name^=points_]")];
  const seatOf = (input) => input.name.split("_")[1];
  // A choice (tick, radio, list) can't be read-only: taps and keys on it are cancelled instead.
  const isChoice = (e) => e.tagName === "SELECT" || e.type === "checkbox" || e.type === "radio";

  function valuesOf(form, inputs = dealFields(form)) {
    const values = {};
    for (const input of inputs) {
      if (input.type === "checkbox") {
        values[input.name] = input.checked ? "on" : "";
      } else if (input.type !== "radio" || input.checked) {
        values[input.name] = input.value;
      }
    }
    return values;
  }

  // Back into the form: `values` as kept, or (`values` null) the form as it first came.
  function fillIn(form, values) {
    for (const input of dealFields(form)) {
      const value = values ? (values[input.name] ?? "") : "";
      if (input.type === "radio") {
        input.checked = values ? value === input.value : input.defaultChecked;
      } else if (input.type === "checkbox") {
        input.checked = value === "on";
      } else {
        input.value = value;
      }
    }
    markOut(form);
  }

  const nameIn = (element) => element.closest(".deal-row").querySelector(".deal-name").textContent.trim();

  // Show whose "Went out" is at 0 (aria-pressed), as the server draws it, and the hint what
  // comes next (scoring/presenters/deal_hint.py); the winner's twos box goes (a 0); each box's
  // Enter key says Next or Done as it will act (`nextStop`).
  function markOut(form) {
    const won = [...form.querySelectorAll("[name=winner]:checked")].map(nameIn); // Pusoy Dos
    for (const input of counts(form)) {
      const out = input.value.trim() === "0";
      const button = form.querySelector(`[name=went_out][value="${seatOf(input)}"]`);
      button?.classList.toggle("is-out", out);
      button?.setAttribute("aria-pressed", out);
      const twos = form.elements[`twos_${seatOf(input)}`];
      if (twos && input.name.startsWith("cards_")) {
        twos.closest(".deal-twos").hidden = twos.disabled = out;
      }
      if (out) {
        won.push(nameIn(input));
      }
    }
    const hint = $("deal-hint");
    if (hint) { // a dragon wins before a card is played: nothing is left to type
      const next = won.length === 1 && !form.elements.dragon?.value && hint.dataset.sayWentOut;
      const said = next ? next.split("{name}").join(won[0]) : hint.dataset.sayStart;
      if (hint.textContent !== said) { // said again, a screen reader would say it again
        hint.textContent = said;
      }
    }
    // The keyboard's key says what Enter will do there (the server's, without scripts, that the
    // last box records).
    const all = boxes(form);
    all.forEach((box) => box.setAttribute("enterkeyhint", nextStop(all, box, true) ? "next" : "done"));
  }

  // The keyboard's Enter: on to the next empty box round the table, the seats before the winner's
  // included (a twos box, which may stay empty, only right after its player's count; one hidden
  // with its player's 0 is none), or, with none left empty, Record deal. `typed`: the box Enter
  // is pressed in counts as typed in, as it will be when the keyboard shows its key.
  const boxes = (form) => [...form.querySelectorAll(".deal-rows input[type=number]:enabled")];
  function nextStop(all, box, typed) {
    const at = all.indexOf(box) + 1;
    const round = [...all.slice(at), ...all.slice(0, at)]; // from the next box round to this one
    const empty = (other) => !(typed && other === box) && !other.value.trim();
    return round.find((other) => empty(other) && (other === all[at] || !/^twos/.test(other.name)));
  }

  document.addEventListener("keydown", (event) => {
    const form = dealForm();
    const asked = form && event.key === "Enter" && !event.isComposing && !isLocked(form);
    const all = asked ? boxes(form) : [];
    if (all.includes(event.target)) {
      event.preventDefault();
      const stop = nextStop(all, event.target);
      stop ? stop.focus() : form.querySelector("[type=submit]").click();
    }
  });

  const offline = queue();

  // --- One deal kept in the form
  const PREFIX = "bigtwo:pending-deal:";
  const KEEP_FOR_MS = 12 * 60 * 60 * 1000;
  let timer = null; // resending every few seconds
  let request = null; // the deal form's last XMLHttpRequest
  let previewed = ""; // what the last penalty preview was asked for

  const isLocked = (form) => form.classList.contains("deal-locked");
  const inFlight = () => request !== null && request.readyState !== XMLHttpRequest.DONE;
  const keyOf = (form) => `${PREFIX}${form.dataset.game}:${form.elements.token.value}`;

  function keep(form, clash) {
    const { number, token } = form.elements;
    // With its number and token: a deal offered back beside another phone's is sent again as it
    // was when the page is reloaded before a choice is made (`adopt`).
    const values = valuesOf(form, [...dealFields(form), number, token]);
    const entry = { number: number.value, token: token.value, values, at: Date.now(), clash };
    try {
      store.setItem(keyOf(form), JSON.stringify(entry));
    } catch (error) {
      // No storage, or full: the values still stay in the form.
    }
  }

  const forget = (form) => store?.removeItem(keyOf(form));

  // The deals of `game` kept on this phone, newest first. Expired ones (of any game) go.
  function keptDeals(game) {
    const found = [];
    for (let i = store ? store.length - 1 : -1; i >= 0; i--) {
      const key = store.key(i);
      if (!key?.startsWith(PREFIX)) {
        continue;
      }
      let entry = null;
      try {
        entry = JSON.parse(store.getItem(key));
      } catch (error) {}
      if (!entry?.values || !(Date.now() - entry.at < KEEP_FOR_MS)) {
        store.removeItem(key);
      } else if (key.startsWith(`${PREFIX}${game}:`)) {
        found.push({ ...entry, key });
      }
    }
    return found.sort((a, b) => b.at - a.at);
  }

  const flag = (element, attribute, on) =>
    on ? element.setAttribute(attribute, "true") : element.removeAttribute(attribute);

  function lock(form, locked) {
    form.classList.toggle("deal-locked", locked);
    for (const input of dealFields(form)) {
      if (isChoice(input)) {
        flag(input, "aria-disabled", locked);
      } else {
        input.readOnly = locked;
      }
    }
    // Still focusable: a tap on one says why it does nothing.
    form.querySelectorAll(TAPS).forEach((button) => flag(button, "aria-disabled", locked));
  }

  const TAPS = "[name=went_out], [name=out_next]";
  const shown = (choice) =>
    choice?.tagName === "SELECT" ? choice.value && choice.selectedOptions[0].text : choice?.value;

  function waitingText(form) {
    const parts = [...form.querySelectorAll(".deal-row")].map((row) => {
      const twos = row.querySelector("[name^=twos_]:enabled")?.value.trim();
      const box = row.querySelector("[name^=cards_], [name^=points_], [name^=place_], [name=winner]");
      const name = row.querySelector(".deal-name").textContent.trim();
      if (box.type === "radio") { // Pusoy Dos: only who went out, as the choice is named
        return row.querySelector("[name=winner]:checked")?.getAttribute("aria-label") ?? "";
      }
      const count = (box.tagName === "SELECT" ? shown(box) : box.value.trim()) || "–";
      const said = `${name} ${count}`;
      const held = row.querySelector(".deal-twos")?.firstChild.textContent.trim(); // "twos held"
      return twos && twos !== "0" ? `${said} (${held} ${twos})` : said;
    }).filter(Boolean);
    if (form.elements.out_on_twos?.checked) {
      parts.push(words("sayOutOnTwos"));
    }
    for (const extra of form.querySelectorAll(".deal-last-play, .deal-pays, .deal-dragon")) {
      const chosen = shown(extra.querySelector("select, :checked"));
      const label = extra.querySelector("legend, label").textContent.trim().replace(/[?？]$/, "");
      if (chosen) {
        parts.push(`${label}: ${chosen}`);
      }
    }
    return words("sayWaiting", { number: form.elements.number.value, deal: parts.join(", ") });
  }

  function showWaiting(form, reason) {
    const shown = notice().querySelector(".message-waiting");
    if (!reason && shown) {
      return;
    }
    const message = make("div", "", "message message-waiting");
    const actions = make("p", "", "button-row");
    for (const action of ["Change", "Discard"]) {
      actions.append(make("button", words(`say${action}`), "button", { type: "button", "data-deal": action }));
    }
    // Under house rules the phone can't score, it says why the next deal has to wait.
    const oneOnly = form.dataset.sayOneOnly ? [make("p", form.dataset.sayOneOnly)] : [];
    message.append(...(reason ? [make("p", reason)] : []), make("p", waitingText(form)), ...oneOnly, actions);
    if (shown?.textContent !== message.textContent) {
      notice().replaceChildren(message);
    }
  }

  function startWaiting(form, reason) {
    lock(form, true);
    showWaiting(form, reason);
    timer ??= window.setInterval(sendAgain, 4000);
  }

  function stopWaiting() {
    window.clearInterval(timer);
    timer = null;
  }

  function sendAgain() {
    const form = dealForm();
    if (timer !== null && form && navigator.onLine !== false && !inFlight()) {
      // Not requestSubmit(): htmx sends the button last clicked, which could be a "Went out".
      form.querySelector("[type=submit]").click();
    }
  }

  function letGo(form, discard) {
    if (inFlight()) {
      request.abort();
      request = null;
    }
    stopWaiting();
    forget(form);
    lock(form, false);
    notice().replaceChildren();
    if (discard) {
      fillIn(form, null);
      notice().append(make("p", words("sayDiscarded", { number: form.elements.number.value }), "message"));
    }
    dealFields(form)[0].focus();
  }

  function wentOut(form, button) {
    const out = counts(form).find((input) => seatOf(input) === button.value);
    counts(form).forEach((input) => {
      const was = input.value;
      input.value = input === out ? "0" : was.trim() === "0" ? "" : was;
      if (input.value !== was) {
        input.dispatchEvent(new Event("input", { bubbles: true })); // for the penalty preview
      }
    });
    (nextStop(boxes(form), out) || form.querySelector(".primary")).focus();
  }

  document.addEventListener("click", (event) => {
    const form = dealForm();
    const target = event.target;
    const action = target.closest?.("[data-deal]");
    if (form && action) {
      letGo(form, action.dataset.deal === "Discard");
    } else if (form?.contains(target)) {
      const button = target.closest(TAPS);
      if (button || (isChoice(target) && isLocked(form))) {
        event.preventDefault(); // no request: the server's "Went out" is for pages without JS
        if (isLocked(form)) {
          showWaiting(form, "");
        } else if (button?.name === "went_out") {
          wentOut(form, button);
        }
      }
    }
  });

  // A list opens on a press, and a key changes a list or a radio: not while the deal is sent.
  for (const name of ["mousedown", "keydown"]) {
    document.addEventListener(name, (event) => {
      const form = dealForm();
      const target = event.target;
      if (form?.contains(target) && isLocked(form) && isChoice(target) && event.key !== "Tab") {
        event.preventDefault();
        showWaiting(form, "");
      }
    });
  }

  // Tapping a box of the deal being sent says why it takes no typing.
  document.addEventListener("focusin", (event) => {
    const form = dealForm();
    if (form?.contains(event.target) && isLocked(form) && event.target.readOnly) {
      showWaiting(form, "");
    }
  });

  document.addEventListener("input", (event) => {
    const form = dealForm();
    if (form?.contains(event.target)) {
      markOut(form);
    }
  });

  function adopt(loaded) {
    const form = dealForm();
    if (form) {
      markOut(form);
    }
    let pending = null;
    for (const entry of form ? keptDeals(form.dataset.game) : []) {
      if (!pending && entry.number === form.elements.number.value) {
        pending = entry;
      } else if (loaded && entry.clash) {
        // The page reloaded before a choice was made: sent again, the deal brings the choice back.
        window.htmx.ajax("POST", form.action, { target: "#game-live", swap: "outerHTML", values: entry.values });
      } else {
        store.removeItem(entry.key);
      }
    }
    if (!pending) {
      stopWaiting();
      return;
    }
    form.elements.token.value = pending.token;
    fillIn(form, pending.values);
    startWaiting(form, loaded ? words("sayRestored", { number: pending.number }) : "");
    sendAgain();
  }

  // Known to be offline, the phone asks nothing: the deal waits as if its send had failed.
  document.addEventListener("htmx:beforeRequest", (event) => {
    const form = dealForm();
    const elt = event.detail.elt;
    if (!form?.contains(elt)) {
      return;
    }
    if (!navigator.onLine) {
      event.preventDefault();
      if (elt === form) {
        failed(event, "sayOffline");
      }
    } else if (elt === form) {
      request = event.detail.xhr;
      keep(form);
      lock(form, true);
    } else {
      previewed = JSON.stringify(valuesOf(form));
    }
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    const form = dealForm();
    const rows = event.detail.elt;
    if (rows !== form && form?.contains(rows) && event.detail.successful) {
      window.setTimeout(() => {
        if (form.isConnected && !isLocked(form) && JSON.stringify(valuesOf(form)) !== previewed) {
          window.htmx.ajax("GET", rows.getAttribute("hx-get"), { source: rows, swap: "none" })
            .catch(() => {}); // offline: the next typing asks again
        }
      }, 0);
    }
  });

  // The deal form's send failed: `reason` names the form's data-say-<name> that says why.
  function failed(event, reason) {
    const form = dealForm();
    if (form && event.detail.elt === form) {
      const key = keyOf(form);
      if (offline?.take(form)) {
        store.removeItem(key);
        stopWaiting();
        lock(form, false);
        return;
      }
      keep(form);
      startWaiting(form, words(reason));
    }
  }

  for (const name of ["htmx:sendError", "htmx:timeout"]) {
    document.addEventListener(name, (event) => failed(event, "sayOffline"));
  }

  // The server answered (htmx fires this before swapping the answer in).
  document.addEventListener("htmx:beforeOnLoad", (event) => {
    const form = dealForm();
    const status = event.detail.xhr.status;
    if (!form || event.detail.elt !== form) {
      return;
    }
    if (status === 0 || status >= 500) {
      failed(event, "sayNoServer");
    } else if (event.detail.xhr.getResponseHeader("HX-Redirect")) {
      stopWaiting(); // off to log in again: the deal stays kept for when the page is back
    } else if (status >= 400) {
      stopWaiting();
      showWaiting(form, words("sayRefused", { status }));
    } else {
      // Recorded, or refused with its reason (role="alert"): the answer alone says which. Offered
      // back beside the deal another phone recorded first, it stays kept until a choice is made.
      /id="deal-clash"/.test(event.detail.xhr.responseText) ? keep(form, true) : forget(form);
      stopWaiting();
      lock(form, false);
    }
  });

  document.addEventListener("htmx:load", (event) => {
    const element = event.detail.elt;
    // The deal area comes alone when a deal's answer brings only what it changed on the board.
    if (element === document.body || element?.id === "game-live" || element?.id === "deal-area") {
      adopt(element === document.body);
    }
    // The answer to a deal, an undo or "Get the form" says what is now: what the page said when
    // it was loaded ("Deal 1 changed.") is over, and would sit above "Deal 7 recorded.".
    if (element?.id === "game-live" || element?.id === "deal-area") {
      document.querySelector("main > .messages")?.remove();
    }
  });

  window.addEventListener("online", sendAgain);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      sendAgain();
    }
  });

  // --- A queue of waiting deals: a whole game without a signal
  function queue() {
    const own = $("offline-game");
    if (!own || !store) {
      return null;
    }
    // `after`: "Next: Ann deals; …" by the winner of the last deal (then its loser, where the lead
    // rule asks): scoring/presenters/offline.py, `next_deal_words`.
    const { game, user, names, sheet, record, next: after } = JSON.parse(own.textContent);
    const PREFIX = "bigtwo:waiting:";
    const KEY = `${PREFIX}${user}:${game}`;
    const DAY = 864e5;
    const PAGES = "game-pages"; // the service worker's copies of game pages (templates/pwa/sw.js)
    let deals = []; // waiting, in order: { number, token, values (as the form sends them), at }
    let editing = null; // the waiting deal back in the form, by index
    let conflict = null; // the server's answer to deals[0] while the scorekeeper chooses
    let sending = false;
    let blocked = null; // { why, status }: see game.html

    const sum = (list) => list.reduce((a, b) => a + b, 0);
    const said = (name, values) => filled($("offline-words").dataset[name], values);
    const uuid = () =>
      "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) =>
        (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16));
    const boardState = () => JSON.parse($("board-state").textContent);

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

    // --- Scoring, from the sheet
    const count = (text) => (/^\s*\d+\s*$/.test(text ?? "") ? Number(text) : NaN);
    const seatsOf = (values, field, blank) => names.map((_, seat) => count(values[`${field}_${seat}`] || blank));

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

    // One seat's penalty: its cards left on the scale, doubled as the twos rules say.
    const cost = (cards, twos, onTwos) =>
      sheet.penalties[cards] * (sheet.twos && onTwos ? sheet.twos.out_on_twos : 1) * (sheet.twos?.per_two_held ?? 1) ** twos;
    const penalties = ({ cards, twos, onTwos }) => cards.map((n, seat) => cost(n, twos[seat], onTwos));

    // Who lost a deal (`ScoredDeal.loser`, rules/deal_score.py): the most cards left, and of
    // seats tied, the first after the winner.
    function loser(cards, winner) {
      let most = (winner + 1) % cards.length;
      for (let step = 2; step < cards.length; step++) {
        const seat = (winner + step) % cards.length;
        most = cards[seat] > cards[most] ? seat : most;
      }
      return most;
    }

    function nextAfter(deal) {
      const { cards } = facts(deal.values);
      const winner = cards.indexOf(0);
      const said = after[winner];
      return typeof said === "string" ? said : said[loser(cards, winner)];
    }

    // The waiting deals, each on the totals before it: the server's, or `from`.
    function played(from = boardState().totals) {
      let totals = from;
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

    // --- The form
    // As the form sends them: the winner's twos box is disabled.
    const typed = (f) => valuesOf(f, dealFields(f).filter((e) => !e.disabled));

    function fillInDeal(f, number, token, values = {}) {
      f.elements.number.value = number;
      f.elements.token.value = token;
      f.querySelector(".deal-no").textContent = said("sayDeal", { number });
      fillIn(f, values);
      dealFields(f)[0].dispatchEvent(new Event("input", { bubbles: true })); // "Went out" and the twos
    }

    const nextNumber = () => (deals.length ? deals.at(-1).number + 1 : boardState().next);

    // Each player's "on 21", or "+6 → 27" as a count is typed. The server's preview knows only
    // the deals it has: while any wait (or one is changed, or there is no signal) the phone
    // says them, on the totals before the form's deal, and asks the server nothing.
    let ownFigures = false;
    const saysOwn = () => deals.length > 0 || editing !== null || navigator.onLine === false;

    function showFigures(f, anyway = false) {
      if (!(anyway || ownFigures || saysOwn())) {
        return;
      }
      ownFigures = saysOwn();
      const before = editing ?? deals.length;
      const totals = before ? played()[before - 1].totals : boardState().totals;
      const values = typed(f);
      names.forEach((_, seat) => {
        const cards = count(values[`cards_${seat}`]);
        const twos = count(values[`twos_${seat}`] || "0");
        const points = cards <= sheet.cards_left.most && twos <= Math.min(cards, 4) // false for NaN
          ? cost(cards, twos, values.out_on_twos === "on") : null;
        $(`preview-${seat}`).textContent = points === null ? said("sayOn", { total: totals[seat] })
          : cards === 0 ? said("sayWentOutZero") : `+${points} → ${totals[seat] + points}`;
      });
    }

    document.addEventListener("input", (event) => {
      const f = dealForm();
      if (f?.contains(event.target)) {
        showFigures(f);
      }
    });
    // The server's preview, asked for as a count is typed: not while the phone says the figures
    // (it would leave out the waiting deals); when it can't come, the phone says them.
    for (const name of ["htmx:beforeRequest", "htmx:sendError", "htmx:timeout"]) {
      document.addEventListener(name, (event) => {
        const f = dealForm();
        if (!f?.contains(event.detail.elt) || event.detail.elt === f) {
          return;
        }
        if (name !== "htmx:beforeRequest") {
          showFigures(f, true);
        } else if (saysOwn()) {
          event.preventDefault();
        }
      });
    }

    function keep(f) {
      const values = typed(f);
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
      fillInDeal(f, nextNumber(), uuid());
      render();
      send();
      return true;
    }

    function snapshot() {
      const page = new Response(`<!DOCTYPE html>${document.documentElement.outerHTML}`, {
        // Shown offline only to the account it was made for (X-Signed-In-As: templates/pwa/sw.js).
        headers: { "Content-Type": "text/html; charset=utf-8", Date: new Date().toUTCString(), "X-Signed-In-As": $("offline-words").dataset.signedInAs },
      });
      window.caches?.open(PAGES).then((cache) => cache.put(location.pathname, page)).catch(() => {});
    }

    // --- What the scorekeeper sees
    function notice(parts) {
      const box = make("div", "", "message message-waiting waiting");
      box.append(...parts);
      $("live-notice").replaceChildren(box);
    }

    const button = (text, action, value = "") => make("button", text, "button", { type: "button", "data-waiting": action, value });

    // What a cell says of its seat, as the server's row does (`cell_notes`, scoring/presenters/board.py).
    function note({ cards, twos, onTwos }, seat) {
      if (cards[seat] === 0) {
        return said(onTwos ? "sayWentOutOnTwos" : "sayWentOut");
      }
      const left = said("sayLeft", { count: cards[seat] });
      return twos[seat] ? `${left}, ${said("sayTwos").split("|")[twos[seat] - 1]}` : left;
    }

    function cells(tr, row) {
      const dealFacts = facts(row.deal.values);
      row.points.forEach((points, seat) => {
        const td = tr.insertCell();
        const won = dealFacts.cards[seat] === 0;
        td.className = won ? "went-out-cell" : "";
        td.append(make("span", won ? "0" : `+${points}`, "pen"), make("span", note(dealFacts, seat), "meta"),
          make("span", `= ${row.totals[seat]}`, "run"));
      });
      return tr;
    }

    function scoresTable(corner) {
      const table = make("table", "", `scores seats-${names.length}`);
      const head = table.createTHead().insertRow();
      [corner, ...names].forEach((name) => head.append(make("th", name, "", { scope: "col" })));
      table.createTBody();
      return table;
    }

    function wrapped(table, className) {
      const wrap = make("div", "", className);
      wrap.append(table);
      return wrap;
    }

    function scoreboard() {
      let table = document.querySelector("#game-board .scores");
      if (!table) {
        table = scoresTable(said("sayDealHeading"));
        document.querySelector("#game-board .scoreboard h2").after(wrapped(table, "table-wrap waiting"));
      }
      return table;
    }

    function render() {
      const board = $("game-board");
      const f = dealForm();
      if (!board) {
        return;
      }
      board.querySelectorAll(".waiting").forEach((element) => element.remove());
      // The tie banner sits above the deal form, outside the board.
      $("game-live").querySelectorAll(".scoreboard > p, .banner-tied, #undo-area, .next-deal").forEach((e) => (e.hidden = deals.length > 0));
      const rows = played();
      const last = rows.at(-1);
      if (f && deals.length && editing === null && Number(f.elements.number.value) !== nextNumber()) {
        fillInDeal(f, nextNumber(), uuid());
      }
      if (f) {
        f.hidden = Boolean(last?.over);
        showFigures(f);
      }
      if (!last) {
        $("live-notice").querySelector(".waiting")?.remove();
        return;
      }
      if (!last.over) {
        $("board-next")?.prepend(make("p", nextAfter(last.deal), "next-deal waiting"));
      }
      const table = scoreboard();
      // Below the sent deals, under one label: each row keeps to the height of a sent one.
      const waiting = table.createTBody();
      waiting.className = "waiting";
      const labelRow = waiting.insertRow();
      labelRow.className = "waiting";
      const label = labelRow.insertCell();
      label.colSpan = names.length + 1;
      label.className = "waiting-label";
      label.textContent = said("sayNotSent");
      rows.forEach((row, index) => {
        const tr = waiting.insertRow();
        tr.className = "waiting";
        const th = make("th", "", "", { scope: "row" });
        const edit = make("button", `${row.deal.number} ✎`, "", { type: "button", "data-waiting": "edit", value: index });
        edit.setAttribute("aria-label", said("sayEdit", { number: row.deal.number }));
        th.append(edit, make("span", said("sayNotSent"), "visually-hidden"));
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
        if (blocked) {
          const why = make("p", said(blocked.why, blocked));
          if (blocked.status === 0) {
            why.append(" ", make("a", said("sayLogIn"), "", { href: $("offline-words").dataset.login }));
          }
          parts.push(why);
        }
        if (editing !== null) {
          parts.push(make("p", said("sayEditing", { number: deals[editing].number })));
        }
        const actions = make("p", "", "button-row");
        actions.append(button(said("sayUndo", { number: last.deal.number }), "undo"));
        notice([...parts, actions]);
      }
    }

    function showConflict() {
      const deal = deals[0];
      const { row, state, reason } = conflict;
      const parts = [make("p", row ? said("sayConflict", { number: deal.number }) : reason)];
      if (row) {
        const table = scoresTable("");
        row.cells[0].replaceWith(make("th", said("sayServers"), "", { scope: "row" }));
        table.tBodies[0].append(row);
        // Mine where the server's is: on the same totals, whatever the board has taken since.
        const mine = cells(table.tBodies[0].insertRow(), { deal, ...played(conflict.before)[0] });
        mine.prepend(make("th", said("sayMine"), "", { scope: "row" }));
        parts.push(wrapped(table, "table-wrap"));
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

    // --- Sending
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
          const status = response.redirected || response.headers.get("HX-Redirect") ? 0 : response.status;
          if (status === 0 || (status >= 400 && status < 500)) {
            if (blocked?.status !== status) {
              blocked = { why: status ? "sayBlocked" : "saySignedOut", status };
              render();
            }
            break;
          }
          if (!response.ok) {
            break;
          }
          blocked = null;
          const page = new DOMParser().parseFromString(await response.text(), "text/html");
          const refusal = page.querySelector("[role=alert]");
          if (!refusal) {
            deals.shift(); // recorded, now or by an earlier send whose answer was lost
            save();
            continue;
          }
          const row = [...page.querySelectorAll("#game-board tbody tr")]
            .find((tr) => parseInt(tr.cells[0].textContent, 10) === deal.number);
          row?.removeAttribute("id"); // the board's own row of it, when it comes, goes by that id
          const state = JSON.parse(page.getElementById("board-state")?.textContent || "null");
          // The totals before the server's deal: its running totals less its penalties.
          const figure = (td, part) => Number(td.querySelector(part).textContent.replace(/\D/g, ""));
          const before = row && [...row.cells].slice(1).map((td) => figure(td, ".run") - figure(td, ".pen"));
          conflict = { row, state, before, reason: refusal.textContent.trim() };
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
      const f = dealForm();
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
          fillInDeal(f, deal.number, choice === "undo" ? uuid() : deal.token, deal.values);
          f.hidden = false;
          dealFields(f)[0].focus();
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
      const f = dealForm();
      if (event.target === f && (navigator.onLine === false || deals.length || editing !== null || conflict)) {
        event.preventDefault();
        event.stopImmediatePropagation(); // not htmx's: it would send it now, out of turn
        keep(f);
      }
    }, true);

    document.addEventListener("htmx:load", (event) => {
      // A part of the board swapped alone (what one deal changed) drops the waiting rows in it.
      if (event.detail.elt.id === "game-live" || event.detail.elt.closest?.("#game-board")) {
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
    return { take: keep };
  }
})();
