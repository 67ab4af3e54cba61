// The hand checker: what is tapped inside #feedback (a card of the picker, "Hand A"/"Hand B",
// "Clear", "Swap") has htmx render the page's form again. What sits above the picker (the
// hands, which beats which and why) may grow or shrink with it, and Chromium scrolls the page
// when the element that had the focus is swapped out. The page scrolls back by as much, so the
// picker stays where it was and the next card is where the finger expects it. Typing and the
// house rules are left alone: there the field in use, above the picker, must not move.
// See templates/rules/check.html.
(function () {
  "use strict";
  var pickerTop = null;
  function picker() {
    return document.getElementById("picker");
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    var sent = config && config.triggeringEvent;
    var from = sent && (sent.submitter || sent.target);
    var tapped = from && from.closest && from.closest("#feedback");
    pickerTop = tapped && picker() ? picker().getBoundingClientRect().top : null;
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (pickerTop === null || !picker()) return;
    var moved = picker().getBoundingClientRect().top - pickerTop;
    pickerTop = null;
    if (moved) window.scrollBy({ top: moved, behavior: "instant" });
  });
})();
