// aasa-monitor: small enhancements only. Every page works without this file.
(function () {
  "use strict";

  // Forms marked data-confirm ask before they submit (delete, revoke). Without JS the server
  // still demands the separate confirmation step.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) { event.preventDefault(); return; }
    var button = form.querySelector("button[type=submit]");
    if (button && form.method.toLowerCase() === "post") {
      // Avoid double submissions while the server works.
      setTimeout(function () { button.disabled = true; }, 0);
    }
  });

  // A running check: poll its status and reload the page when the result is in.
  var progress = document.querySelector("[data-poll]");
  if (progress) {
    var url = progress.getAttribute("data-poll");
    // The result is in: load the page again, without a "check requested" note that is now stale.
    var showResult = function () {
      var search = window.location.search.replace(/([?&])done=[^&]*(&|$)/, "$1").replace(/[?&]$/, "");
      if (search !== window.location.search) {
        window.location.replace(window.location.pathname + search + window.location.hash);
      } else {
        window.location.reload();
      }
    };
    var started = Date.now();
    var tick = function () {
      fetch(url, { headers: { "Accept": "application/json" }, credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (s) {
          if (s && s.checking === false) { showResult(); return; }
          var label = progress.querySelector(".progress-text");
          if (label) { label.textContent = "Checking… " + Math.round((Date.now() - started) / 1000) + " s"; }
          setTimeout(tick, 1000);
        })
        .catch(function () { setTimeout(tick, 3000); });
    };
    setTimeout(tick, 800);
  }

  // Register form: "add another" rows for app IDs and watched URLs.
  document.querySelectorAll("[data-add-row]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var list = document.getElementById(button.getAttribute("data-add-row"));
      var last = list && list.lastElementChild;
      if (!last) { return; }
      var copy = last.cloneNode(true);
      copy.querySelectorAll("input").forEach(function (i) { i.value = ""; });
      list.appendChild(copy);
      var first = copy.querySelector("input");
      if (first) { first.focus(); }
    });
  });

  // App form: a chosen file fills its text area — text as it is, a binary property list as
  // "base64:" and its bytes, which the server decodes. Without JS, paste the file's text instead.
  document.querySelectorAll("input[type=file][data-fill]").forEach(function (input) {
    input.hidden = false;
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      var target = document.getElementById(input.getAttribute("data-fill"));
      if (!file || !target) { return; }
      file.arrayBuffer().then(function (buffer) {
        var bytes = new Uint8Array(buffer);
        var binary = String.fromCharCode.apply(null, bytes.subarray(0, 6)) === "bplist";
        var text = binary ? null : new TextDecoder("utf-8", { fatal: false }).decode(bytes);
        if (text === null || text.indexOf("\uFFFD") !== -1) {
          var chunks = [];
          for (var i = 0; i < bytes.length; i += 0x8000) {
            chunks.push(String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000)));
          }
          text = "base64:" + btoa(chunks.join(""));
        }
        target.value = text;
      });
    });
  });
})();
