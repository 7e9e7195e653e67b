// The lobby: choose a game, its variants, players, language and seats; make a table; list tables.
"use strict";
(function () {
  var L = JSON.parse(document.body.dataset.labels || "{}"), games = [], kinds = ["human"];
  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) { if (k === "text") e.textContent = attrs[k]; else e.setAttribute(k, attrs[k]); }
    (kids || []).forEach(function (c) { e.appendChild(c); });
    return e;
  }
  document.querySelectorAll("[data-l]").forEach(function (e) { e.textContent = L[e.dataset.l] || e.dataset.l; });
  function game() { return games.filter(function (g) { return g.id === $("game").value; })[0]; }
  function seats() {
    var n = Number($("players").value), box = $("seats"), old = Array.from(box.querySelectorAll("select")).map(
      function (s) { return s.value; });
    box.innerHTML = "";
    for (var i = 0; i < n; i++) {
      var s = el("select", {"data-seat": String(i + 1)});
      kinds.forEach(function (k) { s.appendChild(el("option", {value: k, text: k === "human" ? L.human : k})); });
      s.value = old[i] || (i === 0 ? "human" : kinds[kinds.length > 2 ? 2 : 1]);
      box.appendChild(el("label", {}, [el("span", {text: (L.seat || "") + " " + (i + 1)}), s]));
    }
  }
  function choose() {
    var g = game(), v = $("variants");
    v.querySelectorAll("label").forEach(function (x) { x.remove(); });
    g.variants.forEach(function (name) {
      v.appendChild(el("label", {}, [el("input", {type: "checkbox", value: name}), el("span", {text: " " + name})]));
    });
    $("lang").innerHTML = "";
    g.languages.forEach(function (x) { $("lang").appendChild(el("option", {value: x, text: x})); });
    $("lang").value = g.languages.indexOf(document.documentElement.lang) >= 0 ? document.documentElement.lang : "en";
    $("players").min = g.min; $("players").max = g.max;
    $("players").value = Math.min(g.max, Math.max(g.min, Number($("players").value)));
    seats();
  }
  function row(t) {
    var li = el("li", {"data-table": t.id}, [el("b", {text: t.title}), el("span", {text: " · " + t.seats.join(", ") +
      (t.variants.length ? " · " + t.variants.join(", ") : "") + " · " + t.lang +
      (t.resumed ? " · " + (L.resume || "resumed") + ", " + t.decisions + " " + (L.decisions || "") : "") + " "})]);
    if (t.resumed) li.dataset.resumed = "1";
    t.join.forEach(function (j) {
      li.appendChild(el("a", {href: j.url, cls: "join", "class": "join", "data-seat": String(j.seat),
                              text: (L.join || "") + " " + j.seat}));
      li.appendChild(document.createTextNode(" "));
    });
    li.appendChild(el("a", {href: t.watch, "class": "watch", text: L.watch || "watch"}));
    li.appendChild(document.createTextNode(" "));
    li.appendChild(el("a", {href: t.host, "class": "host", text: L.host || "host"}));
    return li;
  }
  function tables() {
    fetch("/api/tables").then(function (r) { return r.json(); }).then(function (ts) {
      $("tables").innerHTML = "";
      ts.forEach(function (t) { $("tables").appendChild(row(t)); });
    });
  }
  $("players").oninput = seats;
  $("game").onchange = choose;
  $("new-table").onsubmit = function (ev) {
    ev.preventDefault();
    var body = {ruleset: $("game").value, players: Number($("players").value), lang: $("lang").value,
                variants: Array.from($("variants").querySelectorAll("input:checked")).map(function (c) { return c.value; }),
                seats: Array.from($("seats").querySelectorAll("select")).map(function (s) { return s.value; })};
    fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(function (r) { return r.json(); }).then(function (t) {
        $("created").innerHTML = "";
        if (t.type === "refused") { $("created").textContent = t.message; return; }
        $("created").appendChild(row(t));
        tables();
      });
  };
  fetch("/api/games").then(function (r) { return r.json(); }).then(function (gs) {
    games = gs.games; kinds = ["human"].concat(gs.kinds);
    games.forEach(function (g) { $("game").appendChild(el("option", {value: g.id, text: g.title})); });
    choose();
    document.body.dataset.ready = "1";
  });
  tables();
  setInterval(tables, 5000);
})();
