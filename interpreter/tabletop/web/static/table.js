// The web table: draws a seat's payload (table model + own options) sent by grimoire serve.
// Everything drawn comes from the payload, which the server builds from the seat's view.
"use strict";
var Grimoire = (function () {
  var body = document.body;
  var token = body.dataset.token, lang = body.dataset.lang;
  var labels = JSON.parse(body.dataset.labels || "{}");
  var base = body.dataset.base || "";  // the table's path prefix (a table of the lobby: /t/ID)

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

  var wholeHistory = false;  // the seat asked for every event, not only the last ones
  var rules = {};  // "kind:id" -> {name, text}: the rules text of everything this seat sees

  function explain(key, face) {
    // the rules of one item, large: its name, its text, and for a card its face
    var z = document.getElementById("zoom"), r = rules[key] || {name: key, text: ""};
    z.innerHTML = "";
    var box = el("div", {id: "rule", cls: "rule", "data-rule": key}, el("h3", {text: r.name}));
    if (face) box.appendChild(el("img", {src: base + "/cards/" + lang + "/" + face + ".svg", alt: r.name}));
    box.appendChild(el("p", {cls: "rule-text", text: r.text || labels.no_text || ""}));
    box.appendChild(el("button", {cls: "close", text: labels.close || "×"}));
    z.appendChild(box);
    z.hidden = false;
    z.onclick = function () { z.hidden = true; };
  }

  function ruled(e, key) {
    // an item that shows its rules: the text on hover, the whole of it on a click
    var r = rules[key];
    if (!r) return e;
    e.dataset.rule = key;
    e.title = r.text ? r.name + ": " + r.text : r.name;
    e.classList.add("ruled");
    e.onclick = function (ev) { ev.stopPropagation(); explain(key, key.slice(0, 5) === "card:" ? key.slice(5) : null); };
    return e;
  }

  function zoom(card) {
    if (card.id) { explain("card:" + card.id, card.id); return; }
    var z = document.getElementById("zoom");
    z.innerHTML = "";
    z.appendChild(el("img", {src: base + "/cards/" + lang + "/hidden.svg", alt: card.name}));
    z.hidden = false;
    z.onclick = function () { z.hidden = true; };
  }

  function chip(c) {
    var s = el("span", {cls: "card" + (c.id ? "" : " hidden"), text: c.id ? c.name : "?", title: c.name,
                        "data-card": c.id || "hidden"});
    if (c.id) { ruled(s, "card:" + c.id); s.onclick = function (ev) { ev.stopPropagation(); zoom(c); }; }
    return s;
  }

  function face(c) {
    var img = el("img", {cls: "face" + (c.id ? "" : " hidden"), src: base + "/cards/" + lang + "/" + (c.id || "hidden") + ".svg",
                         alt: c.name, title: c.name, "data-card": c.id || "hidden"});
    if (c.id) ruled(img, "card:" + c.id);
    img.onclick = function (ev) { ev.stopPropagation(); zoom(c); };
    return img;
  }

  function stats(box, into, faces) {
    (box.counters || []).forEach(function (c) {
      into.appendChild(ruled(el("span", {cls: "counter", "data-counter": c.id, "data-value": c.value},
        el("span", {cls: "label", text: c.label}), el("b", {text: String(c.value)})), "counter:" + c.id));
    });
    (box.tracks || []).forEach(function (t) {
      // the number first, then how far it may go: a bar alone does not read as a number
      var m = el("meter", {min: t.min, max: t.max, value: t.value});
      into.appendChild(ruled(el("span", {cls: "track", "data-counter": t.id, "data-value": t.value},
        el("span", {cls: "label", text: t.label}), el("b", {text: String(t.value)}),
        el("span", {cls: "of", text: t.min === 0 ? "/" + t.max : " (" + t.min + "…" + t.max + ")"}), m),
        "counter:" + t.id));
    });
    (box.flags || []).forEach(function (f) {
      into.appendChild(ruled(el("span", {cls: "flag", "data-counter": f.id, "data-value": f.value, text: f.label}),
                             "counter:" + f.id));
    });
    (box.sizes || []).forEach(function (s) {
      into.appendChild(ruled(el("span", {cls: "size", "data-size": s.id, "data-value": s.value},
        el("span", {cls: "label", text: s.label}), el("b", {text: String(s.value)})), "zone:" + s.id));
    });
    (box.zones || []).forEach(function (z) {
      var row = el("div", {cls: "zone" + (z.cards.length ? "" : " empty"), "data-zone": z.id},
        ruled(el("span", {cls: "label", text: z.label}), "zone:" + z.id));
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
    rules = p.rules || {};
    body.dataset.version = p.version;
    body.dataset.role = p.role;
    body.dataset.seat = m.you || "";
    body.dataset.index = p.seat === undefined ? "" : p.seat;
    var head = document.getElementById("head");
    head.innerHTML = "";
    head.appendChild(el("span", {cls: "title", text: m.title}));
    head.appendChild(el("span", {cls: "turn", text: L.turn + " " + m.turn}));
    head.appendChild(el("span", {cls: "who", text: m.you_label || L.spectator}));
    // a seat that waits reads what it waits for: the question asked (public, like who is asked)
    var status = m.over ? L.over + ": " + m.result
      : p.decision ? p.decision.prompt : m.waiting_prompt ? L.waiting + " " + m.waiting_label + " · " + m.waiting_prompt
      : m.waiting_label ? L.waiting + " " + m.waiting_label : "";
    head.appendChild(el("span", {id: "status", cls: m.over ? "over" : p.decision ? "yours" : "", text: status}));
    if (p.autopass !== undefined && send.settings) head.appendChild(autopassBox(p, send, "autopass"));
    if (p.autoone !== undefined && send.settings) head.appendChild(autopassBox(p, send, "autoone"));
    if (p.chat && send.settings) chat(p, send);
    if (p.role === "player" && send.settings) head.appendChild(takebackBar(p, send));
    if (p.role === "player" && send.settings) head.appendChild(soundBox());
    if (send.settings) turnCame(p, m); else document.title = m.title;  // (a replay is nobody's turn)
    root.innerHTML = "";
    var board = panel("board", L.board);
    board.id = "board";
    m.board.forEach(function (g) {
      var group = el("div", {cls: "group", "data-group": g.id}, el("h3", {text: g.label}));
      g.boxes.forEach(function (b) {
        var box = el("div", {cls: "box", "data-location": b.location || ""});
        if (b.location) box.appendChild(ruled(el("h4", {text: b.label}), "location:" + b.location));
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
        ruled(el("h4", {text: (pl.deciding ? "▶ " : "") + pl.label + (pl.you ? " (" + L.you + ")" : "")}), "card:" + pl.id));
      if (pl.at_label) row.appendChild(ruled(el("div", {cls: "at", "data-at": pl.at, text: "⚑ " + pl.at_label}),
                                             "location:" + pl.at));
      players.appendChild(stats(pl, row));
    });
    var left = el("div", {cls: "col main"}, board);
    var right = el("div", {cls: "col side"}, players);
    if (m.private) {
      var priv = panel("private", L.hand);
      priv.id = "private";
      left.appendChild(stats(m.private, priv, true));
      if (p.ahead && p.ahead.open && send.settings) priv.appendChild(aheadBox(p, m, send));
    }
    if (p.decision) {
      var dec = panel("decision", p.decision.prompt);
      dec.id = "decision";
      var opts = el("div", {cls: "options"});
      p.decision.options.forEach(function (o) {
        var b = el("button", {cls: "option", text: o.label, "data-option": o.id});
        var act = rules["action:" + o.id.split(":")[0]];
        if (act && act.text) b.title = act.text;
        b.onclick = function () {
          document.querySelectorAll("button.option").forEach(function (x) { x.disabled = true; });
          send(o.id, p.version);
        };
        opts.appendChild(b);
      });
      dec.appendChild(opts);
      if (p.decision.plan && send.plan) dec.appendChild(planBox(p, send));
      if (p.decision.auto) {
        var lone = p.decision.options.length === 1 && p.decision.options[0].id === "pass";
        dec.appendChild(el("p", {cls: "auto-note", text: (lone ? labels.auto : labels.auto_one) || ""}));
      }
      var helps = p.decision.options.map(function (o) { return "action:" + o.id.split(":")[0]; })
        .filter(function (k, i, a) { return rules[k] && rules[k].text && a.indexOf(k) === i; });
      if (helps.length) {  // what each option does, on request
        var more = el("details", {cls: "option-rules"}, el("summary", {text: labels.rules || "?"}));
        helps.forEach(function (k) {
          more.appendChild(el("p", {"data-rule": k}, el("b", {text: rules[k].name + ": "}),
                              document.createTextNode(rules[k].text)));
        });
        dec.appendChild(more);
      }
      left.insertBefore(dec, left.firstChild);
    }
    var ev = panel("events", L.events);
    ev.id = "events";
    ev.appendChild(events(m.log, Math.max(1, m.log_total - m.log.length + 1), m.since));
    if (m.log_total > m.log.length && send.history) {
      var all = el("button", {id: "whole-history", cls: "small", text: labels.history || "…"});
      all.onclick = function () { wholeHistory = true; send.history(ev); };
      ev.appendChild(all);
    }
    right.appendChild(ev);
    if (wholeHistory && send.history) send.history(ev);
    if (m.notes && m.notes.length) right.appendChild(notesPanel(m.notes));
    root.appendChild(left);
    root.appendChild(right);
    var ol = ev.querySelector("ol");
    var mark = ol.querySelector("li.since");
    ol.scrollTop = mark ? mark.offsetTop - ol.offsetTop - 24 : ol.scrollHeight;  // what happened since your move
  }

  function events(lines, first, since) {
    // the events, numbered from `first`; a line marks where this seat last decided
    var ol = el("ol", {start: first});
    lines.forEach(function (line, i) {
      var li = el("li", {text: line});
      if (since && first + i === since + 1) { li.className = "since"; li.dataset.since = labels.since || ""; }
      ol.appendChild(li);
    });
    return ol;
  }

  function notesPanel(notes) {
    // what this seat has learned of the others, from its own view and log
    var pan = el("section", {id: "notes", cls: "panel notes"}, el("h2", {text: labels.notes || ""}));
    notes.forEach(function (n) {
      var row = el("div", {cls: "note", "data-player": n.id}, el("h4", {text: n.label}));
      n.zones.forEach(function (z) {
        var cards = el("span", {cls: "cards"});
        z.cards.forEach(function (c) { cards.appendChild(chip(c)); });
        row.appendChild(el("div", {cls: "zone", "data-zone": z.zone}, el("span", {cls: "label", text: z.label}), cards));
      });
      if (n.log.length) {
        var heard = el("ul", {cls: "heard"});
        n.log.forEach(function (line) { heard.appendChild(el("li", {text: line})); });
        row.appendChild(el("div", {cls: "label", text: labels.heard || ""}));
        row.appendChild(heard);
      }
      pan.appendChild(row);
    });
    return pan;
  }

  function chat(p, send) {
    // the table's chat: outside the redrawn table, so a line being typed is kept
    var box = document.getElementById("chat"), ol = document.getElementById("chat-lines");
    if (!box) return;
    box.hidden = false;
    document.getElementById("chat-title").textContent = labels.chat || "";
    ol.innerHTML = "";
    p.chat.forEach(function (c) {
      ol.appendChild(el("li", {"data-seat": c.seat}, el("b", {text: c.from + ": "}), document.createTextNode(c.text)));
    });
    ol.scrollTop = ol.scrollHeight;
    var form = document.getElementById("chat-form"), input = document.getElementById("chat-text");
    document.getElementById("chat-send").textContent = labels.send || ">";
    form.hidden = p.role !== "player";
    form.onsubmit = function (ev) {
      ev.preventDefault();
      if (input.value.trim()) send.settings({type: "chat", text: input.value});
      input.value = "";
    };
  }

  function takebackBar(p, send) {
    // ask to take back one's last move; or, when another player asks, accept or refuse
    var bar = el("span", {id: "takeback", cls: "takeback"}), req = p.takeback, me = Number(body.dataset.index);
    if (!req) {
      var ask = el("button", {id: "takeback-ask", cls: "small", text: labels.takeback || "↶"});
      ask.onclick = function () { send.settings({type: "takeback"}); };
      bar.appendChild(ask);
    } else {
      bar.appendChild(el("span", {cls: "asks", text: req.from + " " + (labels.takeback_asks || "")}));
      if (req.seat !== me && req.accepted.indexOf(me) < 0) {
        [["takeback-accept", true, labels.accept], ["takeback-refuse", false, labels.refuse]].forEach(function (a) {
          var b = el("button", {id: a[0], cls: "small", text: a[2] || String(a[1])});
          b.onclick = function () { send.settings({type: "takeback", accept: a[1]}); };
          bar.appendChild(b);
        });
      }
    }
    return bar;
  }

  // ---- when it is your turn: the tab's title, and a short beep if the seat turned sound on ----
  var SOUND = "grimoire.sound", wasMine = false, audio = null;

  function soundOn() {
    try { return window.localStorage.getItem(SOUND) === "1"; } catch (e) { return false; }
  }

  function soundBox() {
    // off by default; the setting is this browser's (localStorage), not the table's
    var box = el("input", {type: "checkbox", id: "sound", checked: soundOn()});
    box.onchange = function () {
      try { window.localStorage.setItem(SOUND, box.checked ? "1" : "0"); } catch (e) { /* private mode */ }
      if (box.checked) beep();  // (a click lets the page start audio; the beep says it works)
    };
    return el("label", {cls: "sound", title: labels.sound || ""}, box, el("span", {text: labels.sound || ""}));
  }

  function beep() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      audio = audio || new Ctx();
      var osc = audio.createOscillator(), gain = audio.createGain(), t = audio.currentTime;
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, t);
      gain.gain.exponentialRampToValueAtTime(0.001, t + 0.25);
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start(t);
      osc.stop(t + 0.25);
    } catch (e) { /* no audio device: the title still says it */ }
  }

  function turnCame(p, m) {
    // the seat decides (and the answer is not given for it): "● Your turn — Title" in the tab
    var mine = !!(p.decision && !p.decision.auto) && !m.over;
    document.title = mine ? "● " + (labels.your_turn || "") + " — " + m.title : m.title;
    body.dataset.yourTurn = mine ? "1" : "0";
    if (mine && !wasMine && p.role === "player" && soundOn()) beep();
    wasMine = mine;
  }

  function autopassBox(p, send, kind) {
    // the seat's answers by itself: its lone Pass ("autopass"), its only option ("autoone")
    var box = el("input", {type: "checkbox", id: kind, checked: !!p[kind]});
    box.onchange = function () { send.settings({type: kind, on: box.checked}); };
    return el("label", {cls: "autopass", title: labels[kind] || ""}, box, el("span", {text: labels[kind] || ""}));
  }

  function aheadBox(p, m, send) {
    // a setup question asked of another seat: this seat writes its own answer down ahead (one of
    // its cards); the table takes it when this seat is asked the same question, if it is an option
    var box = el("div", {id: "ahead", cls: "ahead"}, el("p", {cls: "plan-note", text: labels.ahead || ""}));
    var seen = {};
    m.private.zones.forEach(function (z) {
      z.cards.forEach(function (c) {
        if (!c.id || seen[c.id]) return;
        seen[c.id] = true;
        var b = el("button", {cls: "ahead-option" + (p.ahead.option === c.id ? " chosen" : ""), text: c.name,
                              "data-option": c.id});
        b.onclick = function () { send.settings({type: "ahead", option: c.id}); };
        box.appendChild(b);
      });
    });
    if (p.ahead.option) {
      var cancel = el("button", {id: "ahead-cancel", cls: "small", text: labels.ahead_cancel || "×"});
      cancel.onclick = function () { send.settings({type: "ahead", option: null}); };
      box.appendChild(cancel);
    }
    return box;
  }

  function planBox(p, send) {
    // the same question asked again and again (a hand-out): every step written down, then sent
    // in one message; the table takes them in turn and asks again where one is no option
    var plan = p.decision.plan;
    var box = el("details", {id: "plan", cls: "plan"}, el("summary", {text: labels.plan || "…"}));
    box.appendChild(el("p", {cls: "plan-note", text: labels.plan_note || ""}));
    var rows = el("div", {cls: "plan-rows"});
    function pick(list, value) {
      var s = el("select");
      list.forEach(function (x) { s.appendChild(el("option", {value: x.id, text: x.label})); });
      if (value) s.value = value;
      return s;
    }
    function addRow(x) {  // (to begin with, one each in turn: a split nobody has to undo)
      var k = rows.children.length, y = plan.choices[k % plan.choices.length].id;
      rows.appendChild(el("div", {cls: "plan-row"}, pick(plan.rows, x), el("span", {text: " → "}), pick(plan.choices, y)));
    }
    plan.rows.forEach(function (r) { addRow(r.id); });
    box.appendChild(rows);
    var more = el("button", {id: "plan-add", cls: "small", text: "+"});
    more.onclick = function () { addRow(); };
    var go = el("button", {id: "plan-go", cls: "plan-go", text: labels.plan_go || "OK"});
    go.onclick = function () {
      var steps = Array.from(rows.querySelectorAll(".plan-row")).map(function (r) {
        var s = r.querySelectorAll("select");
        return plan.action + ":" + s[0].value + "," + s[1].value;
      });
      document.querySelectorAll("button.option, button.plan-go").forEach(function (x) { x.disabled = true; });
      send.plan(steps, p.version);
    };
    box.appendChild(el("div", {cls: "plan-buttons"}, more, go));
    return box;
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
    send.settings = function (msg) { ws.send(JSON.stringify(msg)); };
    send.plan = function (steps, version) { ws.send(JSON.stringify({type: "plan", options: steps, version: version})); };
    send.history = function (panel) {
      fetch(base + "/api/history/" + token + "?lang=" + lang).then(function (r) { return r.json(); }).then(function (h) {
        var old = panel.querySelector("ol");
        var ol = events(h.log, 1, h.since);
        ol.classList.add("whole");
        panel.replaceChild(ol, old);
        var mark = ol.querySelector("li.since");
        ol.scrollTop = mark ? mark.offsetTop - ol.offsetTop - 24 : ol.scrollHeight;
      });
    };
    function connect() {
      var proto = location.protocol === "https:" ? "wss://" : "ws://";
      ws = new WebSocket(proto + location.host + base + "/ws/" + token + "?lang=" + lang);
      ws.onopen = function () { tries = 0; body.dataset.connected = "1"; };
      ws.onmessage = function (ev) {
        var msg = JSON.parse(ev.data);
        if (msg.type === "view") { banner(""); draw(msg, send); }
        else if (msg.type === "refused") {
          banner((labels.refused || "Refused") + ": " + msg.message);
          document.querySelectorAll("button.option, button.plan-go").forEach(function (x) { x.disabled = false; });
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
      fetch(base + "/api/replay/" + token + q).then(function (r) { return r.json(); }).then(function (p) {
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
      fetch(base + "/api/save/" + token, {method: "POST"}).then(function (r) { return r.json(); }).then(function (p) {
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
