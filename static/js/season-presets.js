// The new-season form: a preset chosen sets every house rule under "Customise" to its own at
// once, and the form says where the rules now start from. Without this script the server shows
// the preset's rules before anything is started (templates/scoring/new_season.html).
(() => {
  "use strict";
  const values = JSON.parse(document.getElementById("preset-values")?.textContent || "null");
  const form = document.querySelector("input[name=shown_preset]")?.form;
  if (!values || !form) {
    return;
  }
  form.addEventListener("change", (event) => {
    const picked = event.target;
    if (picked.name !== "preset" || !values[picked.value]) {
      return;
    }
    for (const [name, value] of Object.entries(values[picked.value])) {
      const choice = form.querySelector(`input[type=radio][name="${name}"][value="${CSS.escape(value)}"]`);
      if (choice) {
        choice.checked = true;
      } else if (form.elements[name]?.tagName === "INPUT") {
        form.elements[name].value = value;
      }
    }
    form.elements.shown_preset.value = picked.value;
    document.getElementById("starting-point").textContent = picked.closest("[data-starting]").dataset.starting;
  });
})();
