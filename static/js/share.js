// "Copy link" and "Share" for the share panels (templates/scoring/_share_panel.html). Without
// this script the buttons stay hidden: the link is in a read-only box to copy by hand.
(function () {
  "use strict";
  document.querySelectorAll("[data-share-panel]").forEach(function (panel) {
    var link = panel.querySelector("[data-share-link]");
    var status = panel.querySelector("[data-share-status]");
    var copy = panel.querySelector("[data-copy]");
    var share = panel.querySelector("[data-share]");

    function say(text) {
      // Emptied first, so that saying the same words again is announced again.
      status.textContent = "";
      window.setTimeout(function () { status.textContent = text; }, 100);
    }

    // No clipboard (a page served over plain HTTP has none): select the link for the phone's
    // own Copy, and copy it the old way where that still works.
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
        // Closing the share sheet rejects the promise: nothing went wrong, nothing to say.
        navigator.share({ title: panel.dataset.shareTitle, url: link.value }).catch(function () {});
      });
    }
  });
})();
