// cardforge serve: the score sheet. The server scores (the same engine as `cardforge score`);
// this script only posts the sheet as you type, shows the result and places each problem
// beside the input it concerns. Without it the sheet still works: "Save the play" posts it.
//
// Two kinds of messages: the server's (a problem of the final state, placed beside its input
// after every update) and the page's own (a name typed in a picker that matches nothing): the
// page's are kept apart (`.err.local`), so no update wipes them; they stay until fixed.
(function () {
  "use strict";
  var form = document.getElementById("sheet");
  if (!form) return;
  var cards = JSON.parse(document.getElementById("cards-json").textContent || "{}");
  var timer = null, seq = 0, shown = 0, changes = 0, firstShown = false;
  // a problem is shown beside its input once that player (or round) has been touched, or after
  // a save was refused: a fresh sheet does not open covered in errors (the list under the
  // score names every one of them)
  var touched = {}, showAll = form.getAttribute("data-show-all") === "1";
  function touch(name) { if (name) touched[name] = true; }
  // a problem's scope: a player (players[1]), or in a game of rounds a player's row of a round
  var rounds = form.getAttribute("data-rounds");
  function scopeOf(key) {
    var m = (rounds && key.indexOf(rounds + "[") === 0 && key.match(/^[^\[]*\[\d+\]\.[\w-]+\[\d+\]/))
      || key.match(/^[^\[]*\[\d+\]/);
    return m ? m[0] : key;
  }
  function isTouched(key) {
    if (showAll || !key) return true;
    var scope = scopeOf(key);
    for (var n in touched) if (n.indexOf(scope) === 0) return true;
    return false;
  }
  function q(sel, root) { return (root || form).querySelector(sel); }
  function qa(sel, root) { return Array.prototype.slice.call((root || form).querySelectorAll(sel)); }
  function esc(s) { return s.replace(/\\/g, "\\\\").replace(/"/g, '\\"'); }

  // --- lists picked by name ---------------------------------------------------------------------
  // a name as typed on a phone: any case, with or without accents
  // (a phone's keyboard types ’ for ', œ for oe: all the same here; spaces folded)
  function fold(s) {
    return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[\u2018\u2019\u02bc`\u00b4]/g, "'").replace(/[\u201c\u201d\u00ab\u00bb]/g, '"')
      .replace(/\u0153/g, "oe").replace(/\u00e6/g, "ae").replace(/\u00df/g, "ss")
      .replace(/[\s\u00a0]+/g, " ").trim();
  }
  Object.keys(cards).forEach(function (k) { cards[k].forEach(function (c) { c.fold = fold(c.name); }); });
  function listOf(box) { return cards[box.getAttribute("data-cards")] || []; }
  // the one entry whose name (folded) or id is what was typed; none when nothing, or more than
  // one entry, is: a picker never guesses (a name that merely contains the text is offered to
  // tap, never taken)
  function exact(list, text) {
    var t = fold(text), raw = text.trim(), byName = [], byId = [];
    if (!t) return null;
    list.forEach(function (c) {
      if (c.fold === t) byName.push(c);
      else if (c.id === raw) byId.push(c);
    });
    var found = byName.length ? byName : byId;
    return found.length === 1 ? found[0] : null;
  }
  function matches(list, text) {
    var t = fold(text), starts = [], within = [];
    if (!t) return list.length <= 24 ? list.slice() : [];  // a list of a few: every entry, to tap
    list.forEach(function (c) {
      var at = c.fold.indexOf(t);
      if (at === 0) starts.push(c); else if (at > 0) within.push(c);
    });
    return starts.concat(within).slice(0, 8);
  }

  // list rows are numbered in order: players[0].cards[3].paid
  function renumber(box) {
    var base = box.getAttribute("data-list");
    qa("[data-row]", box).forEach(function (row, i) {
      qa("[data-sub]", row).forEach(function (el) { el.name = base + "[" + i + "]" + el.getAttribute("data-sub"); });
      var e = row.querySelector(".err");
      if (e) e.setAttribute("data-err", base + "[" + i + "]");
    });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }
  function removeButton(what) {
    var rm = el("button", "remove", "×");
    rm.type = "button"; rm.setAttribute("aria-label", "remove " + what);
    return rm;
  }

  function cardRow(card) {
    var li = el("li", "row");
    li.setAttribute("data-row", "");
    li.appendChild(el("span", "card-name", card.name));
    var hid = el("input");
    hid.type = "hidden"; hid.value = card.id; hid.setAttribute("data-sub", ".id");
    li.appendChild(hid);
    if (card.x) {
      var lab = el("label", "paid", "paid ");
      var paid = el("input", "num");
      paid.setAttribute("data-sub", ".paid"); paid.setAttribute("inputmode", "numeric"); paid.maxLength = 3;
      lab.appendChild(paid);
      li.appendChild(lab);
    }
    li.appendChild(removeButton(card.name));
    li.appendChild(el("span", "err"));
    return li;
  }

  // the page's own message under a picker: said where it was typed, kept until fixed
  function refuse(box, text) {
    var pick = q("input.pick", box), local = q(".err.local", box);
    var label = box.getAttribute("data-label") || "this list", found = text ? matches(listOf(box), text) : [];
    var own = box.getAttribute("data-inline") === "1" ? ", or tap “+ " + (text || "").trim() + "” for a card of your own" : "";
    local.textContent = !text ? "" : found.length > 1
      ? "'" + text.trim() + "' names " + found.length + " entries here: tap the one you mean" + own
      : "'" + text.trim() + "' is not a name in " + label + (found.length ? ": tap " + found[0].name + " if you mean it" + own
        : own ? own.replace(/^, or/, ":") : ": type a few letters, then tap a name");
    pick.classList.toggle("bad", !!text);
    pick.setAttribute("aria-invalid", text ? "true" : "false");
  }

  // add what the picker's box says: a card of the list, or a card typed in (a list that takes
  // them: only when asked, ``typed``); false when the name is no card of the list (said under
  // the box, the text kept)
  function addFrom(box, card, typed) {
    var pick = q("input.pick", box), text = pick.value, li;
    if (!card) card = exact(listOf(box), text);
    if (card) {
      li = cardRow(card);
    } else if (typed && box.getAttribute("data-inline") === "1" && text.trim()) {
      li = q("template.inline-row", box).content.firstElementChild.cloneNode(true);
      q('[data-sub=".name"]', li).value = text.trim();
    } else {
      if (text.trim()) refuse(box, text);
      return false;
    }
    q(".rows", box).appendChild(li);
    renumber(box);
    touch(box.getAttribute("data-list"));
    pick.value = "";
    refuse(box, "");
    suggest(box);
    // what the new row asks next: what was paid, or a typed card's first field
    var next = li.querySelector("[data-sub]:not([type=hidden]):not([data-sub='.name'])");
    if (next) next.focus();
    schedule(0);
    return true;
  }

  function suggest(box) {
    var pick = q("input.pick", box), ul = q("ul.suggest", box);
    var focused = document.activeElement === pick || ul.contains(document.activeElement);
    var found = focused ? matches(listOf(box), pick.value) : [];
    ul.innerHTML = "";
    found.forEach(function (c) {
      var li = el("li"), b = el("button", "suggestion", c.name);
      b.type = "button"; b.setAttribute("role", "option"); b.setAttribute("data-id", c.id);
      li.appendChild(b);
      ul.appendChild(li);
    });
    var typed = pick.value.trim(), own = focused && typed && box.getAttribute("data-inline") === "1"
      && !exact(listOf(box), typed);
    if (own) {  // a card of the player's own: added only when tapped, never in place of a deck card
      var li = el("li"), b = el("button", "suggestion own", "+ " + typed);
      b.type = "button"; b.setAttribute("role", "option"); b.setAttribute("data-typed", "1");
      b.setAttribute("aria-label", "add " + typed + " as a card of your own");
      li.appendChild(b);
      ul.appendChild(li);
    }
    ul.hidden = !found.length && !own;
    pick.setAttribute("aria-expanded", ul.hidden ? "false" : "true");
  }

  // --- entries asked with their fields (+ adds one) ----------------------------------------------
  function addItem(box) {
    var li = q("template.item-row", box).content.firstElementChild.cloneNode(true);
    q(".rows", box).appendChild(li);
    renumber(box);
    touch(box.getAttribute("data-list"));
    var first = li.querySelector("select, input");
    if (first) first.focus();
    schedule(0);
  }

  // --- a grid of card places ---------------------------------------------------------------------
  // A place is empty ("none") or holds a card; a grid declared with edges marks the card's
  // left and right edges ("L", "R", "LR"); one with junctions takes a token where two cards of
  // a row meet. The state is in the hidden inputs; the buttons only show it.
  function gridCells(row) { return qa("input[data-cell]", row); }
  function gridTokens(row) { return qa("input[data-token]", row); }
  function drawRow(row) {
    gridCells(row).forEach(function (input) {
      var slot = input.nextElementSibling, st = input.value;
      slot.setAttribute("data-state", st);
      slot.textContent = st === "none" ? "+" : "";
      slot.setAttribute("aria-label", slot.getAttribute("aria-label").replace(/:.*$/, "") + ": " + describe(row, input));
    });
    gridTokens(row).forEach(function (tok) { tok.nextElementSibling.classList.toggle("on", !!tok.value); });
  }
  function describe(row, input) {
    var grid = row.closest(".grid"), st = input.value;
    if (st === "none") return "empty";
    var words = ["card"];
    if (st.indexOf("L") >= 0) words.push("left " + grid.getAttribute("data-edge-name"));
    if (st.indexOf("R") >= 0) words.push("right " + grid.getAttribute("data-edge-name"));
    return words.join(", ");
  }
  var selected = null;  // {grid, row, col}
  function select(grid, row, col) {
    qa(".slot.sel", document).forEach(function (s) { s.classList.remove("sel"); s.setAttribute("aria-expanded", "false"); });
    qa(".cell-tools", document).forEach(function (t) { if (!grid || t !== q(".cell-tools", grid)) t.hidden = true; });
    selected = grid ? { grid: grid, row: row, col: col } : null;
    if (!grid) return;
    var rowEl = qa(".grid-row", grid)[row], input = gridCells(rowEl)[col], tools = q(".cell-tools", grid);
    input.nextElementSibling.classList.add("sel");
    input.nextElementSibling.setAttribute("aria-expanded", "true");
    tools.hidden = false;
    drawTools();
  }
  function drawTools() {
    if (!selected) return;
    var grid = selected.grid, rowEl = qa(".grid-row", grid)[selected.row];
    var cells = gridCells(rowEl), tokens = gridTokens(rowEl), st = cells[selected.col].value;
    var tools = q(".cell-tools", grid);
    q(".where", tools).textContent = grid.getAttribute("data-label") + ", row " + (selected.row + 1) +
      ", place " + (selected.col + 1) + ": " + describe(rowEl, cells[selected.col]);
    qa("[data-act]", tools).forEach(function (b) {
      var act = b.getAttribute("data-act"), on = false, can = true;
      if (act === "L" || act === "R") on = st.indexOf(act) >= 0;
      else if (act === "tokL") { can = selected.col > 0; on = can && !!tokens[selected.col - 1].value; }
      else if (act === "tokR") { can = selected.col < cells.length - 1; on = can && !!tokens[selected.col].value; }
      if (b.hasAttribute("aria-pressed")) b.setAttribute("aria-pressed", on ? "true" : "false");
      b.hidden = !can;
    });
  }
  function tapSlot(slot) {
    var grid = slot.closest(".grid"), rowEl = slot.closest(".grid-row");
    var rows = qa(".grid-row", grid), r = rows.indexOf(rowEl);
    var cells = gridCells(rowEl), input = slot.previousElementSibling, c = cells.indexOf(input);
    if (input.value === "none") {  // a card goes there
      input.value = "";
      touch(input.name);
      if (c === cells.length - 1) grow(grid, "col");  // the row can go on: one more place
      drawRow(rowEl);
      schedule(0);
      select(grid, r, c);
    } else if (selected && selected.grid === grid && selected.row === r && selected.col === c) {
      select(null);
    } else {
      select(grid, r, c);
    }
  }
  function act(what) {
    if (!selected) return;
    var rowEl = qa(".grid-row", selected.grid)[selected.row];
    var cells = gridCells(rowEl), tokens = gridTokens(rowEl), input = cells[selected.col], st = input.value;
    if (what === "done") { var slot = input.nextElementSibling; select(null); slot.focus(); return; }
    if (what === "none") {
      input.value = "none";
      touch(input.name);
      drawRow(rowEl);
      select(null);
      input.nextElementSibling.focus();
      schedule(0);
      return;
    }
    if (what === "L" || what === "R") {
      var has = { L: st.indexOf("L") >= 0, R: st.indexOf("R") >= 0 };
      has[what] = !has[what];
      input.value = (has.L ? "L" : "") + (has.R ? "R" : "");
      touch(input.name);
    } else {
      var tok = tokens[what === "tokL" ? selected.col - 1 : selected.col];
      if (!tok) return;
      tok.value = tok.value ? "" : "1";
      touch(tok.name);
    }
    drawRow(rowEl);
    drawTools();
    schedule(0);
  }
  // the grid grows by a column (or a row) as far as its declaration allows
  function grow(grid, what) {
    var name = grid.getAttribute("data-grid"), rows = qa(".grid-row", grid);
    var junctions = grid.getAttribute("data-junctions") === "1", label = grid.getAttribute("data-label");
    function cell(r, c) {
      var input = el("input");
      input.type = "hidden"; input.value = "none"; input.setAttribute("data-cell", "");
      input.name = name + "[" + r + "].cell[" + c + "]";
      var slot = el("button", "slot");
      slot.type = "button";
      slot.setAttribute("aria-label", label + " row " + (r + 1) + ", place " + (c + 1));
      return [input, slot];
    }
    function junction(r, c) {
      var tok = el("input");
      tok.type = "hidden"; tok.value = ""; tok.setAttribute("data-token", "");
      tok.name = name + "[" + r + "].token[" + c + "]";
      var joint = el("span", "joint");
      joint.setAttribute("aria-hidden", "true");
      return [tok, joint];
    }
    var cols = rows.length ? gridCells(rows[0]).length : 0;
    var bound = Number(grid.getAttribute(what === "col" ? "data-max-cols" : "data-max-rows"));
    if ((what === "col" ? cols : rows.length) >= bound) return;
    if (what === "col") {
      rows.forEach(function (row, r) {
        (junctions ? junction(r, cols - 1) : []).concat(cell(r, cols)).forEach(function (e) { row.appendChild(e); });
        drawRow(row);
      });
      cols += 1;
      var scroller = q(".grid-scroll", grid);
      setTimeout(function () { scroller.scrollLeft = scroller.scrollWidth; }, 0);
    } else {
      var r = rows.length, row = el("div", "grid-row");
      row.setAttribute("data-row", String(r));
      for (var c = 0; c < cols; c++) {
        cell(r, c).concat(junctions && c < cols - 1 ? junction(r, c) : []).forEach(function (e) { row.appendChild(e); });
      }
      rows[rows.length - 1].after(row);
      drawRow(row);
    }
    var nrows = qa(".grid-row", grid).length;
    qa("[data-grow]", grid).forEach(function (b) {
      var col = b.getAttribute("data-grow") === "col";
      if ((col ? cols : nrows) >= Number(grid.getAttribute(col ? "data-max-cols" : "data-max-rows"))) b.remove();
    });
    touch(name);
    schedule(0);
  }

  // --- listeners -----------------------------------------------------------------------------------
  // a date after tomorrow asks to be confirmed (the server refuses it unconfirmed)
  function checkDate() {
    var day = q('input[name="play_date"]'), box = document.getElementById("date-confirm");
    if (!day || !box) return;
    var limit = new Date(); limit.setDate(limit.getDate() + 1);
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    var max = limit.getFullYear() + "-" + pad(limit.getMonth() + 1) + "-" + pad(limit.getDate());
    box.hidden = !(day.value && day.value > max);
  }
  form.addEventListener("change", function (ev) {
    var t = ev.target;
    if (t.name === "play_date") checkDate();
    if (t.classList && t.classList.contains("pick")) return;  // added by a tap, Enter or leaving the box
    touch(t.name);
    schedule(0);
  });
  form.addEventListener("focusout", function (ev) {
    var t = ev.target, box = t.closest && t.closest(".cards");
    if (!box) return;
    setTimeout(function () {  // leaving the box (not for one of its suggestions): add or say why not
      if (box.contains(document.activeElement)) return;
      var pick = q("input.pick", box);
      if (pick.value.trim()) addFrom(box);
      suggest(box);
    }, 150);
  });
  form.addEventListener("focusin", function (ev) {
    var box = ev.target.closest && ev.target.closest(".cards");
    if (box && ev.target.classList.contains("pick")) suggest(box);
  });
  form.addEventListener("keydown", function (ev) {
    var t = ev.target;
    if (ev.key === "Enter" && t.tagName === "INPUT") {
      ev.preventDefault();  // Enter adds a card or moves on; it never submits the sheet
      if (t.classList.contains("pick") && t.value.trim()) {
        // Enter takes exactly the name typed; else the matches stay shown, to tap one
        // (in a list that takes cards of the players' own, a name like none of the list's is one)
        var box = t.closest(".cards"), card = exact(listOf(box), t.value);
        if (!addFrom(box, card, !card && !matches(listOf(box), t.value).length)) suggest(box);
      }
    }
  });
  form.addEventListener("input", function (ev) {
    var t = ev.target;
    if (t.classList && t.classList.contains("pick")) {
      var box = t.closest(".cards");
      if (!t.value.trim()) refuse(box, "");  // emptied: nothing refused any more
      suggest(box);
      return;
    }
    touch(t.name);
    schedule(300);
  });
  form.addEventListener("click", function (ev) {
    var t = ev.target.closest("button");
    if (!t || !form.contains(t)) return;
    if (t.classList.contains("suggestion")) {
      var box = t.closest(".cards"), list = listOf(box), id = t.getAttribute("data-id");
      if (t.hasAttribute("data-typed")) addFrom(box, null, true);
      else addFrom(box, list.filter(function (c) { return c.id === id; })[0]);
      q("input.pick", box).focus();
      suggest(box);
    } else if (t.classList.contains("remove")) {
      var holder = t.closest("[data-list]");
      touch(holder.getAttribute("data-list"));
      t.closest("[data-row]").remove();
      renumber(holder);
      schedule(0);
    } else if (t.classList.contains("add-item")) {
      addItem(t.closest("[data-items]"));
    } else if (t.classList.contains("step")) {
      var input = t.parentElement.querySelector("input");
      var n = parseInt(input.value || "0", 10);
      if (isNaN(n)) n = 0;
      n = Math.max(0, n + Number(t.getAttribute("data-step")));
      input.value = n ? String(n) : "";
      touch(input.name);
      schedule(300);
    } else if (t.classList.contains("slot")) {
      tapSlot(t);
    } else if (t.hasAttribute("data-act")) {
      act(t.getAttribute("data-act"));
    } else if (t.hasAttribute("data-grow")) {
      grow(t.closest(".grid"), t.getAttribute("data-grow"));
    } else if (t.classList.contains("jump")) {
      jump(t.getAttribute("data-jump"));
    }
  });
  // a picker's text never goes unsaid: a save with a name that matches nothing is stopped there
  form.addEventListener("submit", function (ev) {
    if (ev.submitter && ev.submitter.name === "seat") { keepDraft(); return; }  // seats redrawn by the server
    var stuck = null;
    qa(".cards", form).forEach(function (box) {
      var pick = q("input.pick", box);
      if (pick.value.trim() && !addFrom(box) && !stuck) stuck = box;
    });
    if (stuck) {
      ev.preventDefault();
      banner("Not saved: a name in " + (stuck.getAttribute("data-label") || "a list") + " matches nothing.");
      var pick = q("input.pick", stuck);
      pick.scrollIntoView({ block: "center" });
      pick.focus({ preventScroll: true });
      return;
    }
    // the save is on its way: the draft waits in this tab until the next page says how it went
    // (the play's page: gone; the sheet again, refused or after a lost connection: kept)
    keepDraft();
    saving = true;  // the page is leaving: not kept again on its way out
    try {
      sessionStorage.setItem(DRAFT, localStorage.getItem(DRAFT) || "");
      localStorage.removeItem(DRAFT);
    } catch (e) { /* storage off: nothing kept */ }
  });

  // --- the draft: what was typed, kept on this phone ----------------------------------------------
  // Saved as it is typed (localStorage, one per game and play edited), it comes back after a
  // reload, a server restart or a lost connection: the server draws the sheet again from it (the
  // same form posted to the sheet's address), with the form's key, so a save sent twice is still
  // one play.
  var DRAFT = "cardforge-draft:" + form.getAttribute("data-game") + ":" + (form.getAttribute("data-edit") || "new");
  function formPairs() {
    var out = [];
    new FormData(form).forEach(function (v, k) { if (k !== "csrf" && typeof v === "string") out.push([k, v]); });
    return out;
  }
  function sheetUrl() {  // the address that opens this sheet with its seats as they are now
    var edit = form.getAttribute("data-edit");
    if (edit) return location.pathname + "?play=" + encodeURIComponent(edit);
    var query = new URLSearchParams();
    qa("input.pname").forEach(function (input, i) { query.append("name", input.value.trim() || "Player " + (i + 1)); });
    var mode = q('select[name="mode"]');
    if (mode && mode.value) query.append("mode", mode.value);
    return location.pathname + "?" + query.toString();
  }
  var saving = false;
  function keepDraft() {
    if (saving) return;
    try {
      localStorage.setItem(DRAFT, JSON.stringify({ url: sheetUrl(), at: Date.now(), pairs: formPairs() }));
    } catch (e) { /* storage off or full: the sheet works without */ }
  }
  function readDraft(store) {
    try {
      var d = JSON.parse(store.getItem(DRAFT) || "null");
      return d && Array.isArray(d.pairs) ? d : null;
    } catch (e) { return null; }
  }
  function bringBack(d) {  // the server draws the sheet from the draft
    var post = document.createElement("form");
    post.method = "post"; post.action = location.pathname; post.hidden = true;
    var pairs = [["csrf", q('input[name="csrf"]').value]].concat(d.pairs);
    pairs.forEach(function (p) {
      var i = document.createElement("input");
      i.type = "hidden"; i.name = p[0]; i.value = p[1];
      post.appendChild(i);
    });
    try { sessionStorage.setItem("cardforge-restored", DRAFT + "|" + d.at); } catch (e) { /* shown without a note */ }
    document.body.appendChild(post);
    post.submit();
  }
  function same(a, b) {
    var key = function (p) { return p[0] === "request_key" ? "" : p[0] + "=" + p[1]; };
    return a.map(key).filter(Boolean).join("&") === b.map(key).filter(Boolean).join("&");
  }
  function note(text, actions) {
    var n = el("div", "draft-note");
    n.id = "draft-note"; n.setAttribute("role", "status");
    n.appendChild(el("span", "", text));
    actions.forEach(function (a) {
      var b = el("button", "", a[0]);
      b.type = "button"; b.addEventListener("click", a[1]);
      n.appendChild(b);
    });
    form.parentNode.insertBefore(n, form);
    return n;
  }
  function timeOf(at) {
    var d = new Date(at), pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return pad(d.getHours()) + ":" + pad(d.getMinutes());
  }
  function startDraft() {
    var pending = readDraft(sessionStorage);  // a save sent from this tab, and we are back here
    if (pending) {
      try { sessionStorage.removeItem(DRAFT); localStorage.setItem(DRAFT, JSON.stringify(pending)); } catch (e) { /* */ }
    }
    var restored = null;
    try { restored = sessionStorage.getItem("cardforge-restored"); sessionStorage.removeItem("cardforge-restored"); } catch (e) { /* */ }
    if (form.hasAttribute("data-redrawn") || form.getAttribute("data-refused") === "1") {
      history.replaceState(null, "", sheetUrl());  // a reload opens these seats (never re-posts)
      if (restored && restored.indexOf(DRAFT + "|") === 0) {
        var n = note("Brought back what was typed on this phone at " + timeOf(Number(restored.split("|")[1])) + ".",
          [["Start over", function () {
            try { localStorage.removeItem(DRAFT); } catch (e) { /* */ }
            location.assign(sheetUrl());
          }]]);
        n.classList.add("restored");
      }
      keepDraft();
      return;
    }
    var d = readDraft(localStorage), here = location.pathname + location.search;
    if (!d) return;
    if (same(d.pairs, formPairs())) {  // as typed: keep its key (a save already sent is one play)
      var key = q('input[name="request_key"]'), old = d.pairs.filter(function (p) { return p[0] === "request_key"; })[0];
      if (key && old) key.value = old[1];
      return;
    }
    if (d.url === here) { bringBack(d); return; }
    var names = d.pairs.filter(function (p) { return /^players\[\d+\]\.name$/.test(p[0]); })
      .map(function (p) { return p[1]; }).join(", ");
    note("A sheet not saved, typed on this phone at " + timeOf(d.at) + (names ? " (" + names + ")" : "") + ".",
      [["Bring it back", function () { bringBack(d); }],
       ["Discard it", function () {
         try { localStorage.removeItem(DRAFT); } catch (e) { /* */ }
         var n = document.getElementById("draft-note");
         if (n) n.remove();
       }]]);
  }
  form.addEventListener("input", keepDraft);
  form.addEventListener("change", keepDraft);
  form.addEventListener("click", function () { setTimeout(keepDraft, 0); });  // rows added, counters, grids
  window.addEventListener("pagehide", keepDraft);

  function banner(text) {
    var b = document.getElementById("not-saved");
    if (!b) {
      b = el("div", "refused");
      b.id = "not-saved"; b.setAttribute("role", "alert");
      form.parentNode.insertBefore(b, form);
    }
    b.hidden = !text;
    b.textContent = text;
  }

  // the first problem shown, in the page's order: scrolled to, its input focused
  function spotOf(key) {
    var spot = null;
    while (key) {  // the input itself, else the nearest enclosing one
      spot = form.querySelector('.err[data-err="' + esc(key) + '"]');
      if (spot) break;
      var cut = Math.max(key.lastIndexOf("."), key.lastIndexOf("["));
      key = cut > 0 ? key.slice(0, cut) : "";
    }
    return spot ? { spot: spot, key: key } : null;
  }
  function reveal(spot, key) {
    var input = key ? form.querySelector('[name="' + esc(key) + '"]:not([type=hidden])') : null;
    var target = input || spot.closest(".grid, .cards, .items, .counter, .slotrow, tr, fieldset, .field") || spot;
    target.scrollIntoView({ block: "center" });
    if (input) input.focus({ preventScroll: true });
  }
  function jump(key) {
    touch(key || "");
    if (key) touched[scopeOf(key)] = true;
    place(lastProblems);
    var found = spotOf(key);
    if (found) reveal(found.spot, found.key);
  }
  function toFirstProblem() {
    var first = qa(".err", form).filter(function (e) { return e.textContent && !e.closest("#result"); })[0];
    if (first) reveal(first, first.getAttribute("data-err") || "");
  }

  var lastProblems = [];
  function place(problems) {
    lastProblems = problems;
    qa(".err:not(.local)", form).forEach(function (e) { e.textContent = ""; });
    qa(".bad:not(.pick)", form).forEach(function (e) { e.classList.remove("bad"); e.removeAttribute("aria-invalid"); });
    problems.forEach(function (p) {
      if (p.severity === "warning") return;
      var found = p.field ? spotOf(p.field) : null;
      if (!found || !isTouched(p.field)) return;  // listed under the score; beside its input once there
      var rest = p.field !== found.key ? p.field.slice(found.key.length).replace(/^\./, "") + ": " : "";
      found.spot.textContent = (found.spot.textContent ? found.spot.textContent + "; " : "") + rest + p.message;
      var input = form.querySelector('[name="' + esc(found.key) + '"]');
      if (input) { input.classList.add("bad"); input.setAttribute("aria-invalid", "true"); }
    });
  }

  function schedule(ms) {
    form.setAttribute("data-pending", "1");  // until the answer to the latest change is shown
    changes++;
    clearTimeout(timer);
    timer = setTimeout(update, ms);
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
      return r.headers.get("content-type").indexOf("json") >= 0 ? r.json() : r.text().then(function () {
        return { ok: false, html: "", problems: [], failed: "the server refused the sheet (" + r.status + "): reload the page" };
      });
    }).then(function (data) {
      if (ticket < shown) return;  // an older answer arriving late
      shown = ticket;
      document.getElementById("result").innerHTML = data.html;
      document.getElementById("totals-bar").innerHTML = data.bar || "";
      document.getElementById("general-problems").innerHTML = "";
      if (data.failed) document.getElementById("general-problems").appendChild(el("li", "", data.failed));
      place(data.problems || []);
      var b = document.getElementById("not-saved");
      if (b && data.ok) b.hidden = true;  // nothing left to fix: the save can go
      if (!firstShown) {
        firstShown = true;
        if (form.getAttribute("data-refused") === "1") toFirstProblem();
      }
      form.setAttribute("data-updated", String(ticket));
      form.setAttribute("data-update-ms", String(Math.round(performance.now() - t0)));
      form.removeAttribute("data-busy");
      if (asked === changes) form.removeAttribute("data-pending");
    }).catch(function () {
      // no answer will come: the page is still (what was typed is kept, here and in the draft);
      // the next change asks again
      form.removeAttribute("data-busy");
      if (ticket >= shown && asked === changes) form.removeAttribute("data-pending");
      var general = document.getElementById("general-problems");
      general.innerHTML = "";
      general.appendChild(el("li", "", "the server cannot be reached"));
    });
  }

  qa(".grid-row", form).forEach(drawRow);
  qa("[data-list]", form).forEach(renumber);
  checkDate();
  startDraft();
  form.addEventListener("mousedown", function (ev) {  // a tap on a match keeps the box focused
    if (ev.target.closest && ev.target.closest(".suggestion")) ev.preventDefault();
  });
  document.addEventListener("click", function (ev) {  // a tap elsewhere closes the open suggestions
    if (!ev.target.isConnected) return;  // a match just tapped (the list was redrawn)
    qa(".cards", form).forEach(function (box) { if (!box.contains(ev.target)) q("ul.suggest", box).hidden = true; });
  });
  if (form.querySelector("[name]")) schedule(0);
})();
