// Finishing order, tapped in: "Out next" gives that player the first place nobody has yet (a
// second tap takes it back), and when that leaves one player without a place, they get the
// last. What the server does for the button without JavaScript (with_out_next in
// scoring/forms/deal_values.py), here with no request. A deal being sent (waiting-deals.js locks
// it) takes no taps.
(() => {
  "use strict";
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.("[name=out_next]");
    const form = button?.form;
    if (!form) {
      return;
    }
    event.preventDefault();
    if (form.classList.contains("deal-locked")) {
      return;
    }
    const places = [...form.querySelectorAll("select[name^=place_]")];
    const free = () => places.map((_, i) => `${i + 1}`).filter((p) => !places.some((s) => s.value === p));
    const mine = form.elements[`place_${button.value}`];
    mine.value = mine.value ? "" : free()[0];
    const left = places.filter((select) => !select.value);
    if (mine.value && left.length === 1) {
      left[0].value = free()[0];
    }
    for (const select of places) {
      const tap = form.querySelector(`[name=out_next][value="${select.name.slice(6)}"]`);
      tap.classList.toggle("is-out", select.value === "1");
    }
    mine.dispatchEvent(new Event("input", { bubbles: true })); // for the penalty preview
  });
})();
