// cardforge serve: the score sheet. The server scores (the same engine as `cardforge score`);
// this script only posts the sheet as you type, shows the result and places each problem
// beside the input it concerns. Without it the sheet still works: "Save the play" posts it.
(function () {
  "use strict";
  var form = document.getElementById("sheet");
  if (!form) return;
  var cards = JSON.parse(document.getElementById("cards-json").textContent || "{}");
  var timer = null, seq = 0, shown = 0, changes = 0;
  // a problem is shown beside its input once that player (or round) has been touched, or after
  // a save was refused: a fresh sheet does not open covered in errors
  var touched = {}, showAll = form.getAttribute("data-show-all") === "1";
  function touch(name) { if (name) touched[name] = true; }
  function scopeOf(key) {
    var m = key.match(/^rounds\[\d+\]\.\w+\[\d+\]/) || key.match(/^[^\[]*\[\d+\]/);
    return m ? m[0] : key;
  }
  function isTouched(key) {
    if (showAll || !key) return true;
    var scope = scopeOf(key);
    for (var n in touched) if (n.indexOf(scope) === 0) return true;
    return false;
  }

  function byName(list, text) {
    var t = text.trim().toLowerCase();
    if (!t) return null;
    for (var i = 0; i < list.length; i++) {
      var c = list[i];
      if (c.name.toLowerCase() === t || c.id === t || (c.name + " (" + c.id + ")").toLowerCase() === t) return c;
    }
    return null;
  }

  // list rows are numbered in order: players[0].cards[3].paid
  function renumber(box) {
    var base = box.getAttribute("data-list");
    var rows = box.querySelectorAll("[data-row]");
    rows.forEach(function (row, i) {
      row.querySelectorAll("[data-sub]").forEach(function (el) {
        el.name = base + "[" + i + "]" + el.getAttribute("data-sub");
      });
      var e = row.querySelector(".err");
      if (e) e.setAttribute("data-err", base + "[" + i + "]");
    });
  }

  function addRow(box, text) {
    var list = cards[box.getAttribute("data-cards")] || [];
    var card = byName(list, text);
    var ul = box.querySelector(".rows");
    var li;
    if (card) {
      li = document.createElement("li");
      li.className = "row";
      li.setAttribute("data-row", "");
      var name = document.createElement("span");
      name.className = "card-name";
      name.textContent = card.name;
      li.appendChild(name);
      var hid = document.createElement("input");
      hid.type = "hidden"; hid.value = card.id; hid.setAttribute("data-sub", ".id");
      li.appendChild(hid);
      if (card.x) {
        var lab = document.createElement("label");
        lab.className = "paid";
        lab.textContent = "paid ";
        var paid = document.createElement("input");
        paid.setAttribute("data-sub", ".paid"); paid.setAttribute("inputmode", "numeric");
        paid.className = "num"; paid.maxLength = 3;
        lab.appendChild(paid);
        li.appendChild(lab);
      }
      var rm = document.createElement("button");
      rm.type = "button"; rm.className = "remove"; rm.textContent = "×"; rm.setAttribute("aria-label", "remove");
      li.appendChild(rm);
      var err = document.createElement("span");
      err.className = "err";
      li.appendChild(err);
    } else if (box.getAttribute("data-inline") === "1") {
      var tpl = box.querySelector("template.inline-row");
      li = tpl.content.firstElementChild.cloneNode(true);
      li.querySelector('[data-sub=".name"]').value = text.trim();
    } else {
      var e = box.querySelector(".err[data-err='" + box.getAttribute("data-list") + "']");
      if (e) e.textContent = "no card named '" + text.trim() + "'";
      return false;
    }
    ul.appendChild(li);
    renumber(box);
    touch(box.getAttribute("data-list"));
    return li;
  }

  form.addEventListener("change", function (ev) {
    var t = ev.target;
    touch(t.name);
    if (t.classList && t.classList.contains("pick") && t.value.trim()) {
      var li = addRow(t.closest(".cards"), t.value);
      if (li) {
        t.value = "";
        // what the new row asks next: what was paid, or a typed card's first field
        var next = li.querySelector("[data-sub]:not([type=hidden]):not([data-sub='.name'])");
        if (next) next.focus();
      }
    }
    schedule(0);
  });
  form.addEventListener("keydown", function (ev) {
    var t = ev.target;
    if (ev.key === "Enter" && t.tagName === "INPUT") {
      ev.preventDefault();  // Enter adds a card or moves on; it never submits the sheet
      if (t.classList.contains("pick") && t.value.trim()) {
        var li = addRow(t.closest(".cards"), t.value);
        if (li) t.value = "";
        schedule(0);
      }
    }
  });
  form.addEventListener("input", function (ev) {
    if (ev.target.classList && ev.target.classList.contains("pick")) return;
    touch(ev.target.name);
    schedule(300);
  });
  var lastProblems = [];
  form.addEventListener("click", function (ev) {
    var t = ev.target;
    if (t.id === "show-problems") {
      showAll = true;
      place(lastProblems);
    } else if (t.classList.contains("remove")) {
      var box = t.closest(".cards");
      touch(box.getAttribute("data-list"));
      t.closest("[data-row]").remove();
      renumber(box);
      schedule(0);
    } else if (t.classList.contains("slot") || t.classList.contains("edge")) {
      tapSlot(ev);
    } else if (t.hasAttribute("data-grow")) {
      grow(t.closest(".grid"), t.getAttribute("data-grow"));
    } else if (t.classList.contains("junction")) {
      var tok = t.previousElementSibling;
      touch(tok.name);
      tok.value = tok.value ? "" : "1";
      t.classList.toggle("on", !!tok.value);
      schedule(0);
    }
  });

  // A grid's place is empty ("none") or holds a card; a grid declared with edges marks the
  // card's left and right edges ("L", "R", "LR"), one with junctions takes a token where two
  // cards of a row meet.
  function drawSlot(slot) {
    var st = slot.previousElementSibling.value;
    slot.setAttribute("data-state", st);
    slot.innerHTML = "";
    if (st === "none") { slot.textContent = "+"; return; }
    var edges = slot.closest(".grid").getAttribute("data-edges") === "1";
    (edges ? ["L", "R"] : []).forEach(function (side) {
      var b = document.createElement("span");
      b.className = "edge " + side + (st.indexOf(side) >= 0 ? " on" : "");
      b.setAttribute("data-side", side);
      slot.appendChild(b);
    });
    var x = document.createElement("span");
    x.className = "edge clear"; x.textContent = "×"; x.setAttribute("data-side", "x");
    slot.appendChild(x);
  }
  function tapSlot(ev) {
    var t = ev.target, slot = t.classList.contains("slot") ? t : t.closest(".slot");
    var input = slot.previousElementSibling, st = input.value;
    if (st === "none") st = "";
    else if (t.classList.contains("edge")) {
      var side = t.getAttribute("data-side");
      if (side === "x") st = "none";
      else {
        var has = { L: st.indexOf("L") >= 0, R: st.indexOf("R") >= 0 };
        has[side] = !has[side];
        st = (has.L ? "L" : "") + (has.R ? "R" : "");
      }
    } else return;
    input.value = st;
    touch(input.name);
    drawSlot(slot);
    schedule(0);
  }
  // the grid grows by a column (or a row) as far as its declaration allows
  function grow(grid, what) {
    var name = grid.getAttribute("data-grid"), rows = grid.querySelectorAll(".grid-row");
    var junctions = grid.getAttribute("data-junctions") === "1";
    function cell(r, c) {
      var input = document.createElement("input");
      input.type = "hidden"; input.value = "none"; input.setAttribute("data-cell", "");
      input.name = name + "[" + r + "].cell[" + c + "]";
      var slot = document.createElement("span");
      slot.className = "slot";
      return [input, slot];
    }
    function junction(r, c) {
      var tok = document.createElement("input");
      tok.type = "hidden"; tok.value = ""; tok.setAttribute("data-token", "");
      tok.name = name + "[" + r + "].token[" + c + "]";
      var b = document.createElement("button");
      b.type = "button"; b.className = "junction";
      b.setAttribute("aria-label", "token row " + r + " junction " + c);
      return [tok, b];
    }
    var cols = rows.length ? rows[0].querySelectorAll(".slot").length : 0;
    if (what === "col") {
      rows.forEach(function (row, r) {
        var add = (junctions ? junction(r, cols - 1) : []).concat(cell(r, cols));
        add.forEach(function (el) { row.appendChild(el); });
        drawSlot(row.lastElementChild);
      });
      cols += 1;
    } else {
      var r = rows.length, row = document.createElement("div");
      row.className = "grid-row"; row.setAttribute("data-row", String(r));
      for (var c = 0; c < cols; c++) {
        var add = cell(r, c).concat(junctions && c < cols - 1 ? junction(r, c) : []);
        add.forEach(function (el) { row.appendChild(el); });
      }
      rows[rows.length - 1].after(row);
      row.querySelectorAll(".slot").forEach(drawSlot);
    }
    var nrows = grid.querySelectorAll(".grid-row").length;
    grid.querySelectorAll("[data-grow]").forEach(function (b) {
      var bound = Number(grid.getAttribute(b.getAttribute("data-grow") === "col" ? "data-max-cols" : "data-max-rows"));
      if ((b.getAttribute("data-grow") === "col" ? cols : nrows) >= bound) b.remove();
    });
    touch(name);
    schedule(0);
  }

  document.querySelectorAll(".slot").forEach(drawSlot);
  document.querySelectorAll(".junction").forEach(function (j) {
    j.classList.toggle("on", !!j.previousElementSibling.value);
  });
  document.querySelectorAll(".cards").forEach(renumber);

  function schedule(ms) {
    form.setAttribute("data-pending", "1");  // until the answer to the latest change is shown
    changes++;
    clearTimeout(timer);
    timer = setTimeout(update, ms);
  }

  function place(problems) {
    lastProblems = problems;
    document.querySelectorAll(".err").forEach(function (e) { e.textContent = ""; });
    document.querySelectorAll(".bad").forEach(function (e) { e.classList.remove("bad"); });
    var general = document.getElementById("general-problems");
    general.innerHTML = "";
    problems.forEach(function (p) {
      var key = p.field, spot = null;
      while (key) {  // the input itself, else the nearest enclosing one
        spot = form.querySelector('.err[data-err="' + key.replace(/"/g, '\\"') + '"]');
        if (spot) break;
        var cut = Math.max(key.lastIndexOf("."), key.lastIndexOf("["));
        key = cut > 0 ? key.slice(0, cut) : "";
      }
      var rest = p.field && key && p.field !== key ? p.field.slice(key.length).replace(/^\./, "") + ": " : "";
      if (!isTouched(p.field)) return;  // counted in the bar, shown once the player gets there
      if (spot) {
        spot.textContent = (spot.textContent ? spot.textContent + "; " : "") + rest + p.message;
        var input = form.querySelector('[name="' + key.replace(/"/g, '\\"') + '"]');
        if (input) input.classList.add("bad");
      } else {
        var li = document.createElement("li");
        li.textContent = p.text;
        general.appendChild(li);
      }
    });
  }

  function update() {
    var ticket = ++seq, asked = changes;
    var body = new URLSearchParams(new FormData(form));
    var t0 = performance.now();
    form.setAttribute("data-busy", "1");
    fetch(form.getAttribute("data-live"), {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" }
    }).then(function (r) {
      return r.headers.get("content-type").indexOf("json") >= 0 ? r.json() : r.text().then(function (t) {
        return { ok: false, html: "", problems: [{ field: "", message: "the server refused the sheet (" + r.status + ")", text: "the server refused the sheet (" + r.status + "): reload the page" }] };
      });
    }).then(function (data) {
      if (ticket < shown) return;  // an older answer arriving late
      shown = ticket;
      document.getElementById("result").innerHTML = data.html;
      document.getElementById("totals-bar").innerHTML = data.bar || "";
      place(data.problems || []);
      form.setAttribute("data-updated", String(ticket));
      form.setAttribute("data-update-ms", String(Math.round(performance.now() - t0)));
      form.removeAttribute("data-busy");
      if (asked === changes) form.removeAttribute("data-pending");
    }).catch(function () {
      form.removeAttribute("data-busy");
      place([{ field: "", message: "", text: "the server cannot be reached" }]);
    });
  }

  if (form.querySelector("[name]")) schedule(0);
})();
