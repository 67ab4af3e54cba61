// "Copy link" and "Share" of the share panels: see templates/scoring/_share_panel.html.
(function () {
  "use strict";
  document.querySelectorAll("[data-share-panel]").forEach(function (panel) {
    var link = panel.querySelector("[data-share-link]");
    var status = panel.querySelector("[data-share-status]");
    var copy = panel.querySelector("[data-copy]");
    var share = panel.querySelector("[data-share]");
    function say(text) {
      status.textContent = "";
      setTimeout(function () { status.textContent = text; }, 100);
    }
    function select() {
      link.focus();
      link.setSelectionRange(0, link.value.length);
      var copied = false;
      try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
      say(copied ? panel.dataset.sayCopied : panel.dataset.saySelected);
    }
    copy.hidden = false;
    copy.addEventListener("click", function () {
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(link.value).then(function () {
          say(panel.dataset.sayCopied);
        }, select);
      } else {
        select();
      }
    });
    if (navigator.share) {
      share.hidden = false;
      share.addEventListener("click", function () {
        navigator.share({ title: panel.dataset.shareTitle, url: link.value }).catch(function () {});
      });
    }
  });
})();
