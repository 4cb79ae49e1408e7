// Keeps the collapsed "Advanced parameters" block honest: its summary lists
// every parameter that is set, as the person changes them. The server
// renders the same listing, so the page says it without this script too.
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
        if (input.checked) set.push(l.dataset.label + ": yes");
      } else if (input.value.trim() !== "") {
        set.push(l.dataset.label + ": " + input.value.trim());
      }
    });
    out.textContent = set.length ? "— set: " + set.join(" · ") : "— none set";
  }
  block.addEventListener("input", update);
  block.addEventListener("change", update);
})();
