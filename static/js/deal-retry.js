// A deal typed is never lost, nor changed behind the scorekeeper's back: kept on the phone
// until the server has it, locked while it is sent or waits, sent again when it can be (the
// form's one-time token makes that safe), and "Went out" done here. The whole design is in the
// comment on the deal form in templates/scoring/game.html. Without JS nothing here runs.
(() => {
  "use strict";
  if (!window.htmx) {
    return;
  }
  const PREFIX = "bigtwo:pending-deal:";
  const KEEP_FOR_MS = 12 * 60 * 60 * 1000;
  const OFFLINE = "No connection — your deal is kept and will be sent when you're back online.";
  let timer = null; // resending every few seconds
  let request = null; // the deal form's last XMLHttpRequest
  let previewed = ""; // what the last penalty preview was asked for

  const dealForm = () => document.getElementById("deal-form");
  const notice = () => document.getElementById("live-notice");
  const isLocked = (form) => form.classList.contains("deal-locked");
  const inFlight = () => request !== null && request.readyState !== XMLHttpRequest.DONE;

  // The form's data-say-<name> (translated; or the English), `{key}` filled in from `values`.
  function words(name, english, values = {}) {
    const text = dealForm()?.dataset[name] || english;
    return Object.keys(values).reduce((said, key) => said.split(`{${key}}`).join(values[key]), text);
  }

  function storage() {
    try {
      return window.localStorage;
    } catch (error) {
      return null; // switched off: the values still stay in the form
    }
  }

  const keyOf = (form) => `${PREFIX}${form.dataset.game}:${form.elements.token.value}`;
  // The deal as typed: each row's figure and twos, and the facts of the whole deal.
  const FACT = /^(cards|twos|points|place)_\d$|^(out_on_twos|last_play_twos|pays|dragon)$/;
  const dealFields = (form) => [...form.elements].filter((e) => FACT.test(e.name) && e.type !== "submit");
  // Each row's number box, where "Went out" puts the 0.
  const counts = (form) => [...form.querySelectorAll("input[name^=cards_], input[name^=points_]")];
  const seatOf = (input) => input.name.split("_")[1];
  // A choice (tick, radio, list) can't be read-only: taps and keys on it are cancelled instead.
  const isChoice = (e) => e.tagName === "SELECT" || e.type === "checkbox" || e.type === "radio";

  function valuesOf(form) {
    const values = {};
    for (const input of dealFields(form)) {
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

  function keep(form) {
    const { number, token } = form.elements;
    const entry = { number: number.value, token: token.value, values: valuesOf(form), at: Date.now() };
    try {
      storage().setItem(keyOf(form), JSON.stringify(entry));
    } catch (error) {
      // No storage, or full: the values still stay in the form.
    }
  }

  const forget = (form) => storage()?.removeItem(keyOf(form));

  // The deals of `game` kept on this phone, newest first. Expired ones (of any game) go.
  function keptDeals(game) {
    const store = storage();
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
  // A list's chosen entry, or a radio's value.
  const shown = (choice) =>
    choice?.tagName === "SELECT" ? choice.value && choice.selectedOptions[0].text : choice?.value;

  function make(tag, text, className = "") {
    const element = document.createElement(tag);
    element.textContent = text;
    element.className = className;
    return element;
  }

  // "Deal 4 is waiting to be sent: Ann 0, Ben 3, Cy 5, Dee 9.", as the form will send it, with
  // whatever else it says ("Pays for the table: Ben").
  function waitingText(form) {
    const parts = [...form.querySelectorAll(".deal-row")].map((row) => {
      const twos = row.querySelector("[name^=twos_]:enabled")?.value.trim();
      const box = row.querySelector("[name^=cards_], [name^=points_], [name^=place_]");
      const count = (box.tagName === "SELECT" ? shown(box) : box.value.trim()) || "–";
      const said = `${row.querySelector(".deal-name").textContent.trim()} ${count}`;
      const held = row.querySelector(".deal-twos")?.firstChild.textContent.trim(); // "twos held"
      return twos && twos !== "0" ? `${said} (${held} ${twos})` : said;
    });
    if (form.elements.out_on_twos?.checked) {
      parts.push(words("sayOutOnTwos", "went out on twos"));
    }
    for (const extra of form.querySelectorAll(".deal-last-play, .deal-pays, .deal-dragon")) {
      const chosen = shown(extra.querySelector("select, :checked"));
      const label = extra.querySelector("legend, label").textContent.trim().replace(/[?？]$/, "");
      if (chosen) {
        parts.push(`${label}: ${chosen}`);
      }
    }
    return words("sayWaiting", "Deal {number} is waiting to be sent: {deal}.", {
      number: form.elements.number.value,
      deal: parts.join(", "),
    });
  }

  // Why (else the why said before), what waits and the choices; not again if already said:
  // a retry every few seconds mustn't repeat it, or take the focus away.
  function showWaiting(form, reason) {
    const shown = notice().querySelector(".message-waiting");
    if (!reason && shown) {
      return;
    }
    const message = make("div", "", "message message-waiting");
    const actions = make("p", "", "button-row");
    for (const [action, english] of [["Change", "Change it"], ["Discard", "Discard it"]]) {
      const button = make("button", words(`say${action}`, english), "button");
      button.type = "button";
      button.dataset.deal = action;
      actions.append(button);
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

  // "Change it" / "Discard it": stop sending (a send under way too: the token keeps the next
  // one safe whether or not it arrived); give the form back, as typed or emptied.
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
      const number = form.elements.number.value;
      const discarded =
        "Deal {number} is discarded on this phone and won't be sent. If it had already reached the server, it shows on the scoreboard, where it can be undone.";
      notice().append(make("p", words("sayDiscarded", discarded, { number }), "message"));
    }
    dealFields(form)[0].focus();
  }

  // Show whose "Went out" is at 0, as the server draws it; the winner's twos box goes (a 0).
  function markOut(form) {
    for (const input of counts(form)) {
      const out = input.value.trim() === "0";
      form.querySelector(`[name=went_out][value="${seatOf(input)}"]`)?.classList.toggle("is-out", out);
      const twos = form.elements[`twos_${seatOf(input)}`];
      if (twos && input.name.startsWith("cards_")) {
        twos.closest(".deal-twos").hidden = twos.disabled = out;
      }
    }
  }

  // What the server does for "Went out", here: that player 0, anyone else at 0 cleared (one
  // player goes out); then on to the next empty box round the table, or to Record deal.
  function wentOut(form, button) {
    const boxes = counts(form);
    const at = boxes.findIndex((input) => seatOf(input) === button.value);
    boxes.forEach((input, index) => {
      const was = input.value;
      input.value = index === at ? "0" : was.trim() === "0" ? "" : was;
      if (input.value !== was) {
        input.dispatchEvent(new Event("input", { bubbles: true })); // for the penalty preview
      }
    });
    const round = boxes.map((_, step) => boxes[(at + 1 + step) % boxes.length]);
    (round.find((input) => !input.value.trim()) || form.querySelector(".primary")).focus();
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
        // No request: the server's "Went out" is for pages without JS ("Out next" is done by
        // static/js/deal-order.js).
        event.preventDefault();
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

  // After the page loads and after each swap of the game's live part: bring back a deal kept
  // on this phone if the form is still for its number; let go of any the game has moved past.
  function adopt(loaded) {
    const form = dealForm();
    let pending = null;
    for (const entry of form ? keptDeals(form.dataset.game) : []) {
      if (!pending && entry.number === form.elements.number.value) {
        pending = entry;
      } else {
        storage().removeItem(entry.key);
      }
    }
    if (!pending) {
      stopWaiting();
      return;
    }
    form.elements.token.value = pending.token;
    fillIn(form, pending.values);
    const restored = "Deal {number} as typed before wasn't sent yet: it is back in the form and on its way.";
    startWaiting(form, loaded ? words("sayRestored", restored, { number: pending.number }) : "");
    sendAgain();
  }

  document.addEventListener("htmx:beforeRequest", (event) => {
    const form = dealForm();
    if (form && event.detail.elt === form) {
      request = event.detail.xhr;
      keep(form);
      lock(form, true);
    } else if (form?.contains(event.detail.elt)) {
      previewed = JSON.stringify(valuesOf(form));
    }
  });

  // A penalty preview asked for while another is on its way is dropped (hx-sync): once that
  // one is back and htmx has let go of it (hence the timeout), ask again if the typing moved on.
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

  function failed(event, reason) {
    const form = dealForm();
    if (form && event.detail.elt === form) {
      // Where the phone can score the rules, static/js/offline-game.js takes it into its queue.
      const key = keyOf(form);
      if (window.bigtwoOffline?.take(form)) {
        storage()?.removeItem(key);
        stopWaiting();
        lock(form, false);
        return;
      }
      keep(form);
      startWaiting(form, reason);
    }
  }

  for (const name of ["htmx:sendError", "htmx:timeout"]) {
    document.addEventListener(name, (event) => failed(event, words("sayOffline", OFFLINE)));
  }

  // The server answered (htmx fires this before swapping the answer in).
  document.addEventListener("htmx:beforeOnLoad", (event) => {
    const form = dealForm();
    const status = event.detail.xhr.status;
    if (!form || event.detail.elt !== form) {
      return;
    }
    if (status === 0 || status >= 500) {
      const noServer = "The server didn't answer — your deal is kept and will be sent again in a moment.";
      failed(event, words("sayNoServer", noServer));
    } else if (event.detail.xhr.getResponseHeader("HX-Redirect")) {
      stopWaiting(); // off to log in again: the deal stays kept for when the page is back
    } else if (status >= 400) {
      stopWaiting();
      const refused =
        "Your deal couldn't be sent (error {status}). Reload the page: what you typed is kept and will be sent again.";
      showWaiting(form, words("sayRefused", refused, { status }));
    } else {
      // Recorded, or refused with its reason (role="alert"): the answer replaces the form and
      // the notice, and alone says what became of the deal.
      forget(form);
      stopWaiting();
      lock(form, false);
    }
  });

  document.addEventListener("htmx:load", (event) => {
    const element = event.detail.elt;
    if (element === document.body || element?.id === "game-live") {
      adopt(element === document.body);
    }
  });

  window.addEventListener("online", sendAgain);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      sendAgain();
    }
  });
})();
