// The scoreboard asks for itself when the server says the game has changed, not every 2 s.
//
// A member's board names a stream (`data-changes`, scoring/live_changes.py) that sends the
// game's version each time it changes. While that stream is open, the board's own poll (htmx,
// "every 2s") is held back except every 30 s, in case a word was missed; a version newer than
// the board's fires its "changed" trigger, the same request a poll with news makes. While the
// stream is down (a flaky network: EventSource reconnects by itself) the poll goes on as
// before, and where the server has no streams (it answers 204 and EventSource gives up) nothing
// changes at all. A stream that worked and was later refused (its pass grew old) is opened
// again from the next board, which carries a fresh pass.
(function () {
  "use strict";

  const FALLBACK_MS = 30000;
  let stream = null;
  let opened = false;
  let lastAsked = Date.now();

  function board() {
    return document.getElementById("game-board");
  }

  function follow() {
    const shown = board();
    if (!shown || !shown.dataset.changes || !window.EventSource) return;
    if (stream && (stream.readyState !== EventSource.CLOSED || !opened)) return;
    stream = new EventSource(shown.dataset.changes);
    stream.onopen = function () {
      opened = true;
    };
    stream.onmessage = function (event) {
      const current = board();
      if (current && Number(event.data) > Number(current.dataset.version)) {
        htmx.trigger(current, "changed");
      }
    };
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.target !== board()) return;
    const cause = event.detail.requestConfig.triggeringEvent;
    const told = cause && cause.type === "changed";
    const streaming = stream && stream.readyState === EventSource.OPEN;
    if (streaming && !told && Date.now() - lastAsked < FALLBACK_MS) {
      event.preventDefault();
      return;
    }
    lastAsked = Date.now();
  });
  document.addEventListener("htmx:afterSettle", follow);
  follow();
})();
