// Keeps the collapsed "Advanced parameters" block honest: its summary lists
// every parameter that is set and every scope record that is filled, as
// the person changes them. The server renders the same listing, so the
// page says it without this script too.
(function () {
  var block = document.getElementById("advanced");
  var out = document.getElementById("advanced-set");
  if (!block || !out) return;
  function update() {
    var set = [];
    block.querySelectorAll("label.param").forEach(function (l) {
      var input = l.querySelector("input");
      if (!input) return;
      if (input.type === "checkbox") {
        if (input.checked) set.push(l.dataset.label + ": " + (out.dataset.yes || "yes"));
      } else if (input.value.trim() !== "") {
        set.push(l.dataset.label + ": " + input.value.trim());
      }
    });
    block.querySelectorAll(".card").forEach(function (c) {
      var parts = [];
      c.querySelectorAll("input").forEach(function (i) {
        if (i.value.trim() !== "") parts.push(i.dataset.label + " " + i.value.trim());
      });
      if (parts.length) set.push(out.dataset.record + " " + c.dataset.n + ": " + parts.join(", "));
    });
    out.textContent = set.length ? out.dataset.set + " " + set.join(" · ") : out.dataset.none;
  }
  block.addEventListener("input", update);
  block.addEventListener("change", update);
})();
