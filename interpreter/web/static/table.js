// The web table: draws a seat's payload (table model + own options) sent by grimoire serve.
// Everything drawn comes from the payload, which the server builds from the seat's view.
"use strict";
var Grimoire = (function () {
  var body = document.body;
  var token = body.dataset.token, lang = body.dataset.lang;
  var labels = JSON.parse(body.dataset.labels || "{}");

  function el(tag, attrs) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "cls") e.className = attrs[k];
      else if (k.slice(0, 5) === "data-") e.setAttribute(k, attrs[k]);
      else e[k] = attrs[k];
    }
    for (var i = 2; i < arguments.length; i++) if (arguments[i]) e.appendChild(arguments[i]);
    return e;
  }

  function zoom(card) {
    var z = document.getElementById("zoom");
    z.innerHTML = "";
    z.appendChild(el("img", {src: "/cards/" + lang + "/" + (card.id || "hidden") + ".svg", alt: card.name}));
    z.hidden = false;
    z.onclick = function () { z.hidden = true; };
  }

  function chip(c) {
    var s = el("span", {cls: "card" + (c.id ? "" : " hidden"), text: c.id ? c.name : "?", title: c.name,
                        "data-card": c.id || "hidden"});
    if (c.id) s.onclick = function () { zoom(c); };
    return s;
  }

  function face(c) {
    var img = el("img", {cls: "face" + (c.id ? "" : " hidden"), src: "/cards/" + lang + "/" + (c.id || "hidden") + ".svg",
                         alt: c.name, title: c.name, "data-card": c.id || "hidden"});
    img.onclick = function () { zoom(c); };
    return img;
  }

  function stats(box, into, faces) {
    (box.counters || []).forEach(function (c) {
      into.appendChild(el("span", {cls: "counter", "data-counter": c.id, "data-value": c.value},
        el("span", {cls: "label", text: c.label}), el("b", {text: String(c.value)})));
    });
    (box.tracks || []).forEach(function (t) {
      var m = el("meter", {min: t.min, max: t.max, value: t.value});
      into.appendChild(el("span", {cls: "track", "data-counter": t.id, "data-value": t.value},
        el("span", {cls: "label", text: t.label}), m, el("b", {text: String(t.value)})));
    });
    (box.flags || []).forEach(function (f) {
      into.appendChild(el("span", {cls: "flag", "data-counter": f.id, "data-value": f.value, text: f.label}));
    });
    (box.sizes || []).forEach(function (s) {
      into.appendChild(el("span", {cls: "size", "data-size": s.id, "data-value": s.value},
        el("span", {cls: "label", text: s.label}), el("b", {text: String(s.value)})));
    });
    (box.zones || []).forEach(function (z) {
      var row = el("div", {cls: "zone" + (z.cards.length ? "" : " empty"), "data-zone": z.id},
        el("span", {cls: "label", text: z.label}));
      var cards = el("span", {cls: faces ? "faces" : "cards"});
      z.cards.forEach(function (c) { cards.appendChild(faces ? face(c) : chip(c)); });
      if (!z.cards.length) cards.appendChild(el("span", {cls: "none", text: "—"}));
      row.appendChild(cards);
      into.appendChild(row);
    });
    return into;
  }

  function panel(cls, title) {
    return el("section", {cls: "panel " + cls}, el("h2", {text: title}));
  }

  function draw(p, send) {
    var m = p.model, L = m.labels, root = document.getElementById("table");
    body.dataset.version = p.version;
    body.dataset.role = p.role;
    body.dataset.seat = m.you || "";
    var head = document.getElementById("head");
    head.innerHTML = "";
    head.appendChild(el("span", {cls: "title", text: m.title}));
    head.appendChild(el("span", {cls: "turn", text: L.turn + " " + m.turn}));
    head.appendChild(el("span", {cls: "who", text: m.you_label || L.spectator}));
    var status = m.over ? L.over + ": " + m.result
      : p.decision ? p.decision.prompt : m.waiting_label ? L.waiting + " " + m.waiting_label : "";
    head.appendChild(el("span", {id: "status", cls: m.over ? "over" : p.decision ? "yours" : "", text: status}));
    root.innerHTML = "";
    var board = panel("board", L.board);
    board.id = "board";
    m.board.forEach(function (g) {
      var group = el("div", {cls: "group", "data-group": g.id}, el("h3", {text: g.label}));
      g.boxes.forEach(function (b) {
        var box = el("div", {cls: "box", "data-location": b.location || ""});
        if (b.location) box.appendChild(el("h4", {text: b.label}));
        if (b.here.length) box.appendChild(el("div", {cls: "here", text: "⚑ " + b.here.join(", ")}));
        group.appendChild(stats(b, box));
      });
      board.appendChild(group);
    });
    var players = panel("players", L.players);
    players.id = "players";
    m.players.forEach(function (pl) {
      var row = el("div", {cls: "player" + (pl.you ? " you" : "") + (pl.deciding ? " deciding" : ""),
                           "data-player": pl.id},
        el("h4", {text: (pl.deciding ? "▶ " : "") + pl.label + (pl.you ? " (" + L.you + ")" : "")}));
      if (pl.at_label) row.appendChild(el("div", {cls: "at", "data-at": pl.at, text: "⚑ " + pl.at_label}));
      players.appendChild(stats(pl, row));
    });
    var left = el("div", {cls: "col main"}, board);
    var right = el("div", {cls: "col side"}, players);
    if (m.private) {
      var priv = panel("private", L.hand);
      priv.id = "private";
      left.appendChild(stats(m.private, priv, true));
    }
    if (p.decision) {
      var dec = panel("decision", p.decision.prompt);
      dec.id = "decision";
      var opts = el("div", {cls: "options"});
      p.decision.options.forEach(function (o) {
        var b = el("button", {cls: "option", text: o.label, "data-option": o.id});
        b.onclick = function () {
          document.querySelectorAll("button.option").forEach(function (x) { x.disabled = true; });
          send(o.id, p.version);
        };
        opts.appendChild(b);
      });
      dec.appendChild(opts);
      left.insertBefore(dec, left.firstChild);
    }
    var ev = panel("events", L.events);
    ev.id = "events";
    var ol = el("ol", {start: Math.max(1, m.log_total - m.log.length + 1)});
    m.log.forEach(function (line) { ol.appendChild(el("li", {text: line})); });
    ev.appendChild(ol);
    right.appendChild(ev);
    root.appendChild(left);
    root.appendChild(right);
    ol.scrollTop = ol.scrollHeight;  // the newest event in sight
  }

  function banner(text) {
    var b = document.getElementById("banner");
    b.textContent = text;
    b.hidden = !text;
    body.dataset.refused = text || "";
  }

  function play() {
    var ws = null, tries = 0;
    function send(option, version) {
      ws.send(JSON.stringify({type: "choose", option: option, version: version}));
    }
    function connect() {
      var proto = location.protocol === "https:" ? "wss://" : "ws://";
      ws = new WebSocket(proto + location.host + "/ws/" + token + "?lang=" + lang);
      ws.onopen = function () { tries = 0; body.dataset.connected = "1"; };
      ws.onmessage = function (ev) {
        var msg = JSON.parse(ev.data);
        if (msg.type === "view") { banner(""); draw(msg, send); }
        else if (msg.type === "refused") {
          banner((labels.refused || "Refused") + ": " + msg.message);
          document.querySelectorAll("button.option").forEach(function (x) { x.disabled = false; });
        }
      };
      ws.onclose = function (ev) {
        body.dataset.connected = "0";
        if (ev.code === 4403) return;  // a wrong link: reconnecting would not help
        tries++;
        setTimeout(connect, Math.min(5000, 250 * tries));
      };
    }
    banner(labels.connecting || "");
    connect();
  }

  function replay() {
    var seat = document.getElementById("seat"), step = document.getElementById("step");
    document.getElementById("seat-label").textContent = labels.seat;
    document.getElementById("step-label").textContent = labels.step;
    function load(first) {
      var q = "?lang=" + lang + "&seat=" + encodeURIComponent(seat.value || "") + (first ? "" : "&step=" + step.value);
      fetch("/api/replay/" + token + q).then(function (r) { return r.json(); }).then(function (p) {
        if (p.type === "refused") { banner(p.message); return; }
        banner("");
        if (first) {
          step.max = p.steps;
          step.value = p.steps;
          if (!seat.options.length) {
            seat.appendChild(el("option", {value: "spectator", text: labels.spectator}));
            p.model.players.forEach(function (pl, i) { seat.appendChild(el("option", {value: String(i), text: pl.label})); });
          }
        }
        document.getElementById("step-out").textContent = p.step + " / " + p.steps;
        document.getElementById("decided").textContent = p.decided || labels.start;
        draw(p, function () {});
      });
    }
    step.oninput = function () { load(false); };
    seat.onchange = function () { load(false); };
    load(true);
  }

  function host() {
    var b = document.getElementById("save");
    b.textContent = labels.save;
    b.onclick = function () {
      fetch("/api/save/" + token, {method: "POST"}).then(function (r) { return r.json(); }).then(function (p) {
        document.getElementById("saved").textContent = p.type === "saved" ? labels.saved + " " + p.file : p.message;
      });
    };
  }

  function start(page) {
    var pages = {table: play, replay: replay, host: host};
    if (pages[page]) pages[page]();
  }

  return {start: start, draw: draw};
})();
