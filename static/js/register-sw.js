// Registers the service worker that caches static files and shows the offline page.
// Loaded with `defer` from templates/pwa/_head.html; the worker's URL comes from the tag.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) {
    return;
  }
  var script = document.currentScript;
  var url = (script && script.dataset.serviceWorker) || "/sw.js";
  // After the page has loaded, so the first visit's own requests come first.
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function (error) {
      console.warn("Service worker not registered:", error);
    });
  });
})();
