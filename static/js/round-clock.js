// A round's clock, on any element with data-closes-at="<ISO 8601 time>": the game page's
// (templates/scoring/_round_clock.html), or a night page's or a TV board's carrying the same.
// Until that time, its [data-clock-left] says the minutes left (its data-say-left, "{minutes} min
// left", in the page's language); from then on, its [data-clock-before] (the "Round ends at"
// line) is hidden and its [data-clock-after] (the "Last deal" notice) shown, without a reload.
// The deal form's hint ([data-say-time-up], scoring/presenters/deal_hint.py) then says the game
// ends with this deal, now and whenever static/js/game-page.js puts its first words back.
// Checked every 5 s, on showing the page, and on content htmx swaps in. The phone's clock only
// shows it: the server decides which deal is the last by its own.
(() => {
  "use strict";
  const tick = () => {
    for (const clock of document.querySelectorAll("[data-closes-at]")) {
      const left = Date.parse(clock.dataset.closesAt) - Date.now();
      for (const line of clock.querySelectorAll("[data-clock-before]")) line.hidden = left <= 0;
      for (const line of clock.querySelectorAll("[data-clock-after]")) line.hidden = left > 0;
      const say = clock.querySelector("[data-clock-left]");
      const text = left > 0 && clock.dataset.sayLeft
        ? ` · ${clock.dataset.sayLeft.replace("{minutes}", Math.ceil(left / 60000))}` : "";
      if (say && say.textContent !== text) say.textContent = text;
      const hint = document.querySelector("[data-say-time-up]");
      if (hint && left <= 0) {
        if (hint.textContent === hint.dataset.sayStart) hint.textContent = hint.dataset.sayTimeUp;
        hint.dataset.sayStart = hint.dataset.sayTimeUp;
        delete hint.dataset.sayTimeUp;
      }
    }
  };
  tick();
  setInterval(tick, 5000);
  document.addEventListener("visibilitychange", tick);
  document.addEventListener("htmx:load", tick);
})();
