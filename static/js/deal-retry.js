// A deal typed is never lost: when recording it fails for want of a connection, keep it and
// send it again once the connection is back. Loaded with `defer` by templates/scoring/game.html;
// without JavaScript (or htmx) nothing here runs and the deal form simply posts.
//
// - From the moment the deal form is sent until the server answers, its values are kept in
//   localStorage under the game and the form's one-time token, so closing or reloading the
//   page loses nothing: next time the page shows the same deal number, they come back into the
//   form and are sent.
// - When the request fails (htmx:sendError, or htmx:timeout after the form's hx-request
//   timeout) or the server can't answer (5xx), the page says so in its role="status" notice,
//   leaves every typed value in place, and sends the form again on the `online` event and
//   every few seconds while waiting.
// - Sending again is safe: the form keeps its token, and the server answers a token it has
//   already recorded with that same deal instead of recording another.
(function () {
  "use strict";
  if (!window.htmx) {
    return;
  }

  var PREFIX = "bigtwo:pending-deal:";
  var RETRY_EVERY_MS = 4000;
  var KEEP_FOR_MS = 12 * 60 * 60 * 1000;
  var OFFLINE =
    "No connection — your deal is kept and will be sent when you're back online.";
  var NO_SERVER =
    "The server didn't answer — your deal is kept and will be sent again in a moment.";

  var waiting = false; // a deal failed to send and waits to be sent again
  var timer = null;
  var request = null; // the deal form's last XMLHttpRequest

  function dealForm() {
    return document.getElementById("deal-form");
  }

  // A message in the page's language: the deal form carries them translated (data-say-*), with
  // `{name}` where a value goes; the English here is the fallback.
  function words(name, english, values) {
    var form = dealForm();
    var text = (form && form.dataset[name]) || english;
    Object.keys(values || {}).forEach(function (key) {
      text = text.split("{" + key + "}").join(String(values[key]));
    });
    return text;
  }

  function isDealForm(element) {
    return Boolean(element) && element.id === "deal-form";
  }

  function storage() {
    try {
      return window.localStorage;
    } catch (error) {
      return null; // storage switched off: the values still stay in the form
    }
  }

  function keyOf(form) {
    return PREFIX + form.dataset.game + ":" + form.elements.token.value;
  }

  function cardInputs(form) {
    return Array.prototype.filter.call(form.elements, function (element) {
      return element.tagName === "INPUT" && element.name.indexOf("cards_") === 0;
    });
  }

  function keep(form) {
    var store = storage();
    if (!store) {
      return;
    }
    var values = {};
    cardInputs(form).forEach(function (input) {
      values[input.name] = input.value;
    });
    var entry = {
      number: form.elements.number.value,
      token: form.elements.token.value,
      values: values,
      at: Date.now(),
    };
    try {
      store.setItem(keyOf(form), JSON.stringify(entry));
    } catch (error) {
      // Storage full or refused: the values still stay in the form.
    }
  }

  function forget(form) {
    var store = storage();
    if (store) {
      store.removeItem(keyOf(form));
    }
  }

  // The deals of `game` kept on this phone, newest first. Expired ones (of any game) go.
  function keptDeals(game) {
    var store = storage();
    var found = [];
    if (!store) {
      return found;
    }
    for (var i = store.length - 1; i >= 0; i--) {
      var key = store.key(i);
      if (!key || key.indexOf(PREFIX) !== 0) {
        continue;
      }
      var entry = null;
      try {
        entry = JSON.parse(store.getItem(key));
      } catch (error) {
        entry = null;
      }
      if (!entry || !entry.values || !(Date.now() - entry.at < KEEP_FOR_MS)) {
        store.removeItem(key);
      } else if (key.indexOf(PREFIX + game + ":") === 0) {
        entry.key = key;
        found.push(entry);
      }
    }
    return found.sort(function (a, b) {
      return b.at - a.at;
    });
  }

  // Put `text` in the page's status region (announced by screen readers), once.
  function say(text) {
    var notice = document.getElementById("live-notice");
    if (!notice || notice.textContent.trim() === text) {
      return;
    }
    var message = document.createElement("p");
    message.className = "message message-waiting";
    message.textContent = text;
    notice.replaceChildren(message);
  }

  function startWaiting(text) {
    waiting = true;
    if (text) {
      say(text);
    }
    if (timer === null) {
      timer = window.setInterval(sendAgain, RETRY_EVERY_MS);
    }
  }

  function stopWaiting() {
    waiting = false;
    if (timer !== null) {
      window.clearInterval(timer);
      timer = null;
    }
  }

  function sendAgain() {
    var form = dealForm();
    if (!waiting || !form || navigator.onLine === false) {
      return;
    }
    if (request && request.readyState !== XMLHttpRequest.DONE) {
      return; // still under way
    }
    if (typeof form.requestSubmit === "function") {
      form.requestSubmit();
    } else {
      window.htmx.trigger(form, "submit");
    }
  }

  // The "Went out" button that sent this request, if one did (it only fills in a 0).
  function wentOutButton(event) {
    var config = event.detail.requestConfig;
    var trigger = config && config.triggeringEvent;
    var button = trigger && trigger.submitter;
    return button && button.name === "went_out" ? button : null;
  }

  // Offline, "Went out" does here what the server would: that player 0, no one else at 0.
  function wentOutHere(form, button) {
    cardInputs(form).forEach(function (input) {
      if (input.name === "cards_" + button.value) {
        input.value = "0";
      } else if (input.value.trim() === "0") {
        input.value = "";
      }
    });
  }

  function failed(event, text) {
    var form = event.detail.elt;
    if (!isDealForm(form)) {
      return; // a poll or a preview: the next one will do
    }
    var button = wentOutButton(event);
    if (button) {
      wentOutHere(form, button);
      if (waiting) {
        keep(form);
      } else {
        say(
          words(
            "sayWentOutOffline",
            "No connection right now. The 0 is filled in here; when you tap Record deal, " +
              "the deal is kept until it can be sent."
          )
        );
      }
      return;
    }
    keep(form);
    startWaiting(text);
  }

  // After the page loads and after each swap of the game's live part: bring back a deal kept
  // on this phone if the form is still for its number; let go of any the game has moved past.
  function adopt() {
    var live = document.getElementById("game-live");
    var form = dealForm();
    if (!live || !form) {
      stopWaiting();
      return;
    }
    var pending = null;
    var store = storage();
    keptDeals(form.dataset.game).forEach(function (entry) {
      if (!pending && entry.number === form.elements.number.value) {
        pending = entry;
      } else if (store) {
        store.removeItem(entry.key);
      }
    });
    if (!pending) {
      stopWaiting();
      return;
    }
    if (pending.token !== form.elements.token.value) {
      form.elements.token.value = pending.token;
      cardInputs(form).forEach(function (input) {
        if (Object.prototype.hasOwnProperty.call(pending.values, input.name)) {
          input.value = pending.values[input.name];
        }
      });
      if (!waiting) {
        say(
          words(
            "sayRestored",
            "Deal {number} as typed before wasn't sent yet: it is back in the form and on its way.",
            { number: pending.number }
          )
        );
      }
    }
    startWaiting("");
    sendAgain();
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (!isDealForm(form)) {
      return;
    }
    request = event.detail.xhr;
    if (!wentOutButton(event)) {
      keep(form);
    }
  });

  document.addEventListener("htmx:sendError", function (event) {
    failed(event, words("sayOffline", OFFLINE));
  });
  document.addEventListener("htmx:timeout", function (event) {
    failed(event, words("sayOffline", OFFLINE));
  });

  // The server answered (htmx fires this before swapping the answer in).
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var form = event.detail.elt;
    if (!isDealForm(form) || wentOutButton(event)) {
      return;
    }
    var xhr = event.detail.xhr;
    if (xhr.status === 0 || xhr.status >= 500) {
      failed(event, words("sayNoServer", NO_SERVER));
    } else if (xhr.getResponseHeader("HX-Redirect")) {
      stopWaiting(); // off to log in again: the deal stays kept for when the page is back
    } else if (xhr.status >= 400) {
      stopWaiting();
      say(
        words(
          "sayRefused",
          "Your deal couldn't be sent (error {status}). Reload the page: what you typed is " +
            "kept and will be sent again.",
          { status: xhr.status }
        )
      );
    } else {
      forget(form); // recorded, or refused with the reason shown: either way, answered
      stopWaiting();
    }
  });

  // Typing while a deal waits: keep what is typed now.
  document.addEventListener("input", function (event) {
    var form = dealForm();
    if (waiting && form && form.contains(event.target)) {
      keep(form);
    }
  });

  document.addEventListener("htmx:load", function (event) {
    var element = event.detail.elt;
    if (element === document.body || (element && element.id === "game-live")) {
      adopt();
    }
  });

  window.addEventListener("online", sendAgain);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      sendAgain();
    }
  });
})();
