// The scoreboard asks for itself when the server says the game has changed, not every 2 s.
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
// The board's follower (`#board-follow`) holds the version, the poll and the stream. When the
// server answers with only what a deal changed (templates/scoring/_board_delta.html), its new
// row is appended out of band: a row the board already has (both the scorekeeper's own answer
// and the board's fetch on the stream's word may bring it) is not added twice.
(function () {
  "use strict";

  const FALLBACK_MS = 300000;
  const SILENT_PERIODS = 2.5;
  let stream = null;
  let opened = false;
  let lastAsked = Date.now();
  let heardAt = 0;
  let silentMs = 50000; // until the stream states its period: 2.5 x the server's 20 s

  function heard() {
    heardAt = Date.now();
  }

  function follower() {
    return document.getElementById("board-follow");
  }

  function follow() {
    const shown = follower();
    if (!shown || !shown.dataset.changes || !window.EventSource) return;
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
      const current = follower();
      if (current && Number(event.data) > Number(current.dataset.version)) {
        htmx.trigger(current, "changed");
      }
    };
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

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.target !== follower()) return;
    const cause = event.detail.requestConfig.triggeringEvent;
    const told = cause && cause.type === "changed";
    if (listening() && !told && Date.now() - lastAsked < FALLBACK_MS) {
      event.preventDefault();
      return;
    }
    lastAsked = Date.now();
  });
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    const row = event.detail.fragment.querySelector && event.detail.fragment.querySelector("tr[id]");
    if (row && document.getElementById(row.id)) event.detail.shouldSwap = false;
  });
  document.addEventListener("htmx:afterSettle", follow);
  follow();
})();
