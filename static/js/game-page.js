// The script of a game's pages (a member's game page and the shared live view): the board
// following the game, and the deal form's typing helpers, which need no request. One file, so the
// game page's first load makes one request for both and compresses them together; the queue every
// deal typed goes through is static/js/waiting-deals.js, loaded after this.
//
// --- The board following the game: the scoreboard asks for itself when the server says the
// game has changed, not every 2 s.
//
// The board names a stream (`data-changes`: a member's game page's, or the shared live view's;
// scoring/views/streams.py) that sends the game's version when it opens and each time it
// changes, and "alive" when it has been quiet a while (every 20 s, a period it states). While
// the stream is open and has spoken lately, the board's own poll (htmx, "every 2s") is held
// back but for one every 5 minutes, in case a word was missed; a version newer than the
// board's fires its "changed" trigger, the same request a poll with news makes. A stream that
// stays open but says nothing for two and a half periods is taken for dead (a connection lost
// without a word, as when the phone changes networks): the board polls again and a new stream
// is opened. While the stream is down (a flaky network, or the server ending it: EventSource
// reconnects by itself) the poll goes on as before; a stream refused (signed out, a live view
// link stopped, too many open) is not asked again until the page is.
//
// A deal that adds a row comes as the stream's `delta` event: its version, then what the deal
// changed on the board (templates/scoring/_board_delta_stream.html). A board showing the
// version just before takes it without asking: its parts, the stale-form notice among them on a
// member's page, swapped in out of band, and the follower brought to the new version as a fetch
// would have left it. During a write of the page's own, offline, on a board further behind, or
// on a member's page with no deal form, the event is a version like any other.
//
// The board's follower (`#board-follow`) holds the version, the poll and the stream. When the
// server answers with only what a deal changed (templates/scoring/_board_delta.html), or the
// stream brings it, its new row is appended and its history line put first, out of band: a row
// or a line the board already has (the scorekeeper's own answer, a fetch and the stream may each
// bring it) is not added twice.
//
// The page's own writes (a deal recorded, an undo, a choice between two deals: htmx posts)
// answer with the board as they left it, follower included. While one is under way the board
// doesn't ask for itself: the stream's word of that very change would fetch it a second time,
// and the write's answer would replace the follower that asked, leaving that fetch's parts
// nowhere to go. A newer version the stream said meanwhile is asked for once the write is
// back. A fetch whose follower was replaced while it was under way is dropped: the page
// already shows something newer. Nor does the board ask, or hold a stream open, while the
// phone knows it is offline.
(function () {
  "use strict";

  const FALLBACK_MS = 300000;
  const SILENT_PERIODS = 2.5;
  let stream = null;
  let opened = false;
  let lastAsked = Date.now();
  let heardAt = 0;
  let silentMs = 50000; // until the stream states its period: 2.5 x the server's 20 s
  let writing = 0; // the page's own writes under way
  let newest = 0; // the newest version the stream has said

  function heard() {
    heardAt = Date.now();
  }

  function follower() {
    return document.getElementById("board-follow");
  }

  function follow() {
    const shown = follower();
    if (!shown || !shown.dataset.changes || !window.EventSource || !navigator.onLine) return;
    if (stream && (stream.readyState !== EventSource.CLOSED || !opened)) return;
    stream = new EventSource(shown.dataset.changes);
    stream.onopen = function () {
      opened = true;
      heard();
    };
    stream.addEventListener("alive", function (event) {
      heard();
      const period = Number(event.data);
      if (period > 0) silentMs = period * 1000 * SILENT_PERIODS;
    });
    stream.onmessage = function (event) {
      heard();
      told(Number(event.data));
    };
    stream.addEventListener("delta", function (event) {
      heard();
      const cut = event.data.indexOf("\n");
      const version = Number(event.data.slice(0, cut));
      take(version, event.data.slice(cut + 1));
      told(version);
    });
  }

  // The stream said `version`: asked for if newer than the board's, unless a write is under way.
  function told(version) {
    newest = Math.max(newest, version);
    if (!writing) catchUp();
  }

  // A deal's delta from the stream, taken by a board at the version just before, with no write
  // of the page's own under way and online: the follower moved on to `version` (its `v=`,
  // `data-version` and the deal form's `shown`), and the parts swapped in out of band, the
  // stale-form notice among them on a member's page. A member's page with no deal form (no
  // `deal=`) has no notice to show: it fetches the board instead.
  function take(version, html) {
    const current = follower();
    if (!current || current.dataset.version != version - 1 || writing || !navigator.onLine) return;
    const asked = current.getAttribute("hx-get");
    if (!/[?&]deal=|^\/live\//.test(asked)) return;
    current.setAttribute("hx-get", asked.replace(/([?&]v=)\d+/, "$1" + version));
    current.dataset.version = version;
    const shown = current.querySelector("[name=shown]");
    if (shown) shown.value = version;
    htmx.process(current); // htmx asks at the address it read when it took the follower in hand
    htmx.swap(current, html, { swapStyle: "none" });
  }

  // Whether the stream is open and has spoken lately. One silent too long is closed and
  // another opened; meanwhile the board polls.
  function listening() {
    if (!stream || stream.readyState !== EventSource.OPEN) return false;
    if (Date.now() - heardAt < silentMs) return true;
    stream.close();
    stream = null;
    opened = false;
    follow();
    return false;
  }

  // Ask for the board if the stream has said a version newer than the one it shows.
  function catchUp() {
    const current = follower();
    if (current && newest > Number(current.dataset.version)) htmx.trigger(current, "changed");
  }

  const isWrite = (event) => event.detail.requestConfig.verb !== "get";
  document.addEventListener("htmx:beforeSend", function (event) {
    if (isWrite(event)) writing++;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (isWrite(event) && writing) writing--;
  });
  // A deal the queue sends (static/js/waiting-deals.js) is a write too: its answer brings the board.
  document.addEventListener("deal:sending", () => writing++);
  document.addEventListener("deal:answered", () => writing && writing--);
  // An answer to a follower no longer on the page is let go, and so is the current deal form
  // fetched for one that was typed in meanwhile (`renew`).
  document.addEventListener("htmx:beforeSwap", function (event) {
    const asker = event.detail.requestConfig.elt;
    const typing = asker === renewing && document.querySelector(TYPED);
    if ((asker.id === "board-follow" && !asker.isConnected) || typing) event.detail.shouldSwap = false;
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.target !== follower()) return;
    if (writing || !navigator.onLine) {
      event.preventDefault();
      return;
    }
    const cause = event.detail.requestConfig.triggeringEvent;
    const told = cause && cause.type === "changed";
    if (listening() && !told && Date.now() - lastAsked < FALLBACK_MS) {
      event.preventDefault();
      return;
    }
    lastAsked = Date.now();
  });
  // The stale-form notice comes above "Record deal", maybe as a thumb presses it: the page
  // scrolls by what came, so the button stays under the thumb and the tap lands on it (pushed
  // down, the release would be elsewhere and the deal not sent). One below the screen is left.
  let recordAt = null;
  const recordTop = () => document.querySelector("#deal-form .primary")?.getBoundingClientRect().top;
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    const fragment = event.detail.fragment;
    const added = fragment.querySelector && fragment.querySelector("tr[id], li[id]");
    if (added && document.getElementById(added.id)) event.detail.shouldSwap = false;
    if (event.detail.target.id === "board-stale") recordAt = recordTop();
  });
  // Fired again for each part of the answer swapped after it: acted on once.
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.target.id !== "board-stale" || recordAt === null) return;
    if (recordAt < innerHeight) scrollBy({ top: recordTop() - recordAt, behavior: "instant" });
    recordAt = null;
  });
  // A member's deal form the game has moved past (the board brought the stale-form notice into
  // it): one nothing was typed in is replaced by the current one, by the notice's own link, and
  // that answer let go if typing began meanwhile; one typed in (an input in it since it came: a
  // tap that fills a box sends one too) or sent stays as it is, the notice above "Record deal".
  let renewing = null;
  const TYPED = "#deal-form:is([data-typed], .deal-locked)";
  document.addEventListener("input", (event) => event.target.form?.setAttribute("data-typed", ""));
  function renew() {
    const link = document.querySelector("#deal-form .stale-form a");
    if (link && link !== renewing && !writing && !document.querySelector(TYPED)) {
      renewing = link;
      link.click();
    }
  }

  // Once an answer has settled (a follower swapped in takes htmx's triggers only then): a
  // version the stream said during a write is asked for.
  document.addEventListener("htmx:afterSettle", function () {
    follow();
    if (!writing) catchUp();
    renew();
  });
  // Offline, a stream would only try again and again: closed, and (one that had opened)
  // opened again once back.
  window.addEventListener("offline", () => stream?.close());
  window.addEventListener("online", follow);
  follow();

  // --- The deal form (#deal-form) as it is typed in, with no request: who is marked out, the hint
  // of what comes next, the keyboard's Next and Done, "Went out" (a submit button without
  // scripts, which the server answers; "Out next" is static/js/deal-order.js's). A deal being sent
  // (static/js/waiting-deals.js locks it) takes no taps.
  const dealForm = () => document.getElementById("deal-form");
  const isLocked = (form) => form.classList.contains("deal-locked");
  const counts = (form) => [...form.querySelectorAll("input[name^=cards_], input[name^=points_]")];
  const seatOf = (input) => input.name.split("_")[1];
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
      if (twos && input.name.startsWith("cards_")) twos.closest(".deal-twos").hidden = twos.disabled = out;
      if (out) won.push(nameIn(input));
    }
    const hint = document.getElementById("deal-hint");
    if (hint) { // a dragon wins before a card is played: nothing is left to type
      const next = won.length === 1 && !form.elements.dragon?.value && hint.dataset.sayWentOut;
      const said = next ? next.split("{name}").join(won[0]) : hint.dataset.sayStart;
      if (hint.textContent !== said) hint.textContent = said; // said again, a screen reader would say it again
    }
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
    const all = form && event.key === "Enter" && !event.isComposing && !isLocked(form) ? boxes(form) : [];
    if (all.includes(event.target)) {
      event.preventDefault();
      const stop = nextStop(all, event.target);
      stop ? stop.focus() : form.querySelector("[type=submit]").click();
    }
  });

  // What the server does for "Went out": that player 0, anyone else at 0 cleared (one player
  // goes out); then on to the next empty box round the table, or to Record deal.
  function wentOut(form, button) {
    const out = counts(form).find((input) => seatOf(input) === button.value);
    for (const input of counts(form)) {
      const was = input.value;
      input.value = input === out ? "0" : was.trim() === "0" ? "" : was;
      input.value === was || input.dispatchEvent(new Event("input", { bubbles: true })); // the preview
    }
    (nextStop(boxes(form), out) || form.querySelector(".primary")).focus();
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest?.("#deal-form [name=went_out]");
    if (button) {
      event.preventDefault(); // no request: the server's "Went out" is for pages without scripts
      isLocked(button.form) || wentOut(button.form, button);
    }
  });

  // As the page loads and each swap, and as a box is typed in (or filled in by the queue), before
  // the queue reads the form as typed (the winner's twos box gone).
  document.addEventListener("htmx:load", () => dealForm() && markOut(dealForm()));
  document.addEventListener("input", (event) => dealForm()?.contains(event.target) && markOut(dealForm()));
})();
