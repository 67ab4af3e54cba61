// A game played with own counts (loaded only on its page; the site's own words: templates/scoring/_own_facts.html).
(() => {
  "use strict";
  const $ = (id) => document.getElementById(id);

  // A player's own figure goes through the phone's one offline queue (waiting-deals.js), which
  // keeps it until the server has it; without the queue (no storage, no script), htmx sends it.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.id !== "own-form") return;
    const { number, token, csrfmiddlewaretoken, ...values } = Object.fromEntries(new FormData(form, event.submitter));
    const own = { own: true, number: Number(number), token, values, to: form.action };
    if (!document.dispatchEvent(new CustomEvent("own:keep", { detail: own, cancelable: true }))) {
      event.preventDefault();
      event.stopImmediatePropagation(); // not htmx's: the queue sends it
    }
  }, true);

  // While it waits, said beside the form, its figure in the box; `status`: the server's refusal.
  document.addEventListener("own:kept", ({ detail: { mine, status } }) => {
    const form = $("own-form");
    $("own-waiting")?.remove();
    if (!form || !mine) return;
    const why = status === null || status >= 500 ? "sayWaiting" : status ? "sayBlocked" : "saySignedOut";
    const said = Object.entries({ ...mine, status }).reduce((text, [key, value]) => text.split(`{${key}}`).join(value), form.dataset[why]);
    if (form.elements.figure) form.elements.figure.value = mine.values.figure ?? "";
    const line = Object.assign(document.createElement("p"), { id: "own-waiting", className: "message", textContent: said });
    line.setAttribute("role", "status");
    form.after(line);
  });

  // Each figure sent comes with the deal filling in (data-fill, templates/scoring/_board.html#filling)
  // into the whole-table form's box, but the box being typed in (focused) or typed in (no longer
  // what was put there). No input event: nothing was typed, so a form the game moves past is
  // still renewed. Who is out is then marked by game-page.js, on the htmx:load after the swap.
  document.addEventListener("htmx:oobAfterSwap", (event) => {
    const form = $("deal-form");
    if (event.target.id !== "deal-filling" || !form) return;
    for (const sent of document.querySelectorAll("#deal-filling [data-fill]")) {
      const box = form.elements.namedItem(sent.dataset.fill);
      const untouched = box?.type === "number" && box.value === (box.dataset.sent ?? box.defaultValue);
      if (untouched && box !== document.activeElement) box.value = box.dataset.sent = sent.value;
    }
  });
})();
