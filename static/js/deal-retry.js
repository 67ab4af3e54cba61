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
  const inputs = (form, prefix) =>
    [...form.elements].filter((e) => e.tagName === "INPUT" && e.name.startsWith(prefix));
  // The deal as typed: cards left, twos held, "went out on twos".
  const dealFields = (form) =>
    [...inputs(form, "cards_"), ...inputs(form, "twos_"), ...inputs(form, "out_on_twos")];

  function valuesOf(form) {
    const values = {};
    for (const input of dealFields(form)) {
      values[input.name] = input.type === "checkbox" ? (input.checked ? "on" : "") : input.value;
    }
    return values;
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
      if (input.type === "checkbox") {
        flag(input, "aria-readonly", locked); // and clicks on it are cancelled, below
      } else {
        input.readOnly = locked;
      }
    }
    // Still focusable: a tap on one says why it does nothing.
    form.querySelectorAll("[name=went_out]").forEach((button) => flag(button, "aria-disabled", locked));
  }

  function make(tag, text, className = "") {
    const element = document.createElement(tag);
    element.textContent = text;
    element.className = className;
    return element;
  }

  // "Deal 4 is waiting to be sent: Ann 0, Ben 3, Cy 5, Dee 9.", as the form will send it.
  function waitingText(form) {
    const parts = [...form.querySelectorAll(".deal-row")].map((row) => {
      const twos = row.querySelector("[name^=twos_]")?.value.trim();
      const count = row.querySelector("[name^=cards_]").value.trim() || "–";
      const said = `${row.querySelector(".deal-name").textContent.trim()} ${count}`;
      const held = row.querySelector(".deal-twos")?.firstChild.textContent.trim(); // "twos held"
      return twos && twos !== "0" ? `${said} (${held} ${twos})` : said;
    });
    if (form.elements.out_on_twos?.checked) {
      parts.push(words("sayOutOnTwos", "went out on twos"));
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
    message.append(...(reason ? [make("p", reason)] : []), make("p", waitingText(form)), actions);
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
      for (const input of dealFields(form)) {
        input.value = input.type === "checkbox" ? input.value : "";
        input.checked = false;
      }
      markOut(form);
      const number = form.elements.number.value;
      const discarded =
        "Deal {number} is discarded on this phone and won't be sent. If it had already reached the server, it shows on the scoreboard, where it can be undone.";
      notice().append(make("p", words("sayDiscarded", discarded, { number }), "message"));
    }
    inputs(form, "cards_")[0].focus();
  }

  // Show whose "Went out" is at 0, as the server draws it.
  function markOut(form) {
    for (const input of inputs(form, "cards_")) {
      const button = form.querySelector(`[name=went_out][value="${input.name.slice(6)}"]`);
      button?.classList.toggle("is-out", input.value.trim() === "0");
    }
  }

  // What the server does for "Went out", here: that player 0, anyone else at 0 cleared (one
  // player goes out); then on to the next empty box round the table, or to Record deal.
  function wentOut(form, button) {
    const boxes = inputs(form, "cards_");
    const at = boxes.findIndex((input) => input.name === `cards_${button.value}`);
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
      const button = target.closest("[name=went_out]");
      if (button || (target.name === "out_on_twos" && isLocked(form))) {
        event.preventDefault(); // no request: the server's "Went out" is for pages without JS
        if (isLocked(form)) {
          showWaiting(form, "");
        } else if (button) {
          wentOut(form, button);
        }
      }
    }
  });

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
    for (const input of dealFields(form)) {
      const value = pending.values[input.name] ?? "";
      input.value = input.type === "checkbox" ? input.value : value;
      input.checked = value === "on";
    }
    markOut(form);
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
