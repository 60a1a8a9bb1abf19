// cardforge studio: the cards kept up to date by server-sent events; overlays, zoom, filter,
// a card's source on click. Only changed faces are touched: an <img> whose picture did not
// change keeps its src (its address is its content's hash), so the browser never reloads it.
"use strict";
(function () {
  const body = document.body;
  const state = JSON.parse(body.dataset.state);
  const board = document.getElementById("cards");
  const SVG = "http://www.w3.org/2000/svg";
  window.studioVersion = state.version;
  const details = {};  // face name → its boxes and data (fetched on demand)

  // --- the page kept in step with the files -------------------------------------------------
  const kept = sessionStorage.getItem("studio-scroll:" + location.pathname);
  if (kept) { window.scrollTo(0, Number(kept)); sessionStorage.removeItem("studio-scroll:" + location.pathname); }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function showProblems(list, problems) {
    list.replaceChildren(...problems.map(p => {
      const li = el("li", p.severity, p.text);
      if (p.where) li.dataset.where = p.where;
      return li;
    }));
  }

  function update(face) {
    const fig = board.querySelector(`.face[data-face="${CSS.escape(face.name)}"]`);
    if (!fig) return;
    const img = fig.querySelector("img");
    if (face.src && img.getAttribute("src") !== face.src) img.setAttribute("src", face.src);
    fig.dataset.text = face.text;
    fig.dataset.safe = face.safe;
    fig.querySelector("figcaption").firstChild.textContent = face.title;
    showProblems(fig.querySelector(".errors"), face.errors);
    fig.classList.toggle("has-errors", face.errors.length > 0);
    delete details[face.name];
    drawOverlay(fig);
  }

  function listen() {
    const source = new EventSource("/events?v=" + window.studioVersion);
    source.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.reload) {
        source.close();
        sessionStorage.setItem("studio-scroll:" + location.pathname, String(window.scrollY));
        location.reload();
        return;
      }
      msg.faces.forEach(update);
      showProblems(document.getElementById("problems"), msg.problems);
      window.studioVersion = msg.version;
      document.getElementById("version").textContent = msg.version;
      body.dataset.version = msg.version;
      applyFilter();
    };
  }
  listen();

  // --- filter, zoom, backs ----------------------------------------------------------------
  const find = document.getElementById("find");
  const kind = document.getElementById("kind");
  const backs = document.getElementById("backs");
  function applyFilter() {
    const words = find.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    board.querySelectorAll(".face").forEach(fig => {
      const shown = (!kind.value || fig.dataset.kind === kind.value)
        && (backs.checked || fig.dataset.side !== "back")
        && words.every(w => fig.dataset.text.includes(w));
      fig.hidden = !shown;
    });
  }
  find.addEventListener("input", applyFilter);
  kind.addEventListener("change", applyFilter);
  backs.addEventListener("change", applyFilter);
  document.getElementById("tools").addEventListener("submit", e => e.preventDefault());
  const zoom = document.getElementById("zoom");
  function applyZoom() { board.style.setProperty("--card", zoom.value + "px"); }
  zoom.addEventListener("input", applyZoom);
  applyZoom();
  applyFilter();

  // --- overlays: bleed, trim, safe area, the layout's boxes ---------------------------------
  const overlays = {};
  document.querySelectorAll("[data-overlay]").forEach(box => {
    box.addEventListener("change", () => {
      overlays[box.dataset.overlay] = box.checked;
      body.classList.toggle("show-" + box.dataset.overlay, box.checked);
      board.querySelectorAll(".face").forEach(drawOverlay);
    });
  });

  function rect(svg, x, y, w, h, cls) {
    const r = document.createElementNS(SVG, "rect");
    r.setAttribute("x", x); r.setAttribute("y", y); r.setAttribute("width", Math.max(w, 0.2));
    r.setAttribute("height", Math.max(h, 0.2)); r.setAttribute("class", cls);
    svg.appendChild(r);
    return r;
  }

  async function info(name) {
    if (!details[name]) {
      const res = await fetch("/face/" + encodeURIComponent(name));
      if (!res.ok) return null;
      details[name] = await res.json();
    }
    return details[name];
  }

  async function drawOverlay(fig) {
    const any = Object.values(overlays).some(Boolean);
    let svg = fig.querySelector("svg.overlay");
    if (!any) { if (svg) svg.remove(); return; }
    const w = Number(fig.dataset.w), h = Number(fig.dataset.h);
    const data = overlays.boxes ? await info(fig.dataset.face) : null;
    const b = data ? data.bleed : null;
    if (!svg) {
      svg = document.createElementNS(SVG, "svg");
      svg.setAttribute("class", "overlay");
      svg.setAttribute("aria-hidden", "true");
      fig.querySelector(".pic").appendChild(svg);
    }
    svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    svg.setAttribute("preserveAspectRatio", "none");
    svg.replaceChildren();
    const bleed = b !== null ? b : Number(body.dataset.bleed || 3);
    const safe = Number(fig.dataset.safe);
    if (overlays.bleed) {  // the area cut away: shaded
      rect(svg, 0, 0, w, bleed, "bleed"); rect(svg, 0, h - bleed, w, bleed, "bleed");
      rect(svg, 0, bleed, bleed, h - 2 * bleed, "bleed"); rect(svg, w - bleed, bleed, bleed, h - 2 * bleed, "bleed");
    }
    if (overlays.trim) rect(svg, bleed, bleed, w - 2 * bleed, h - 2 * bleed, "trim");
    if (overlays.safe) rect(svg, bleed + safe, bleed + safe, w - 2 * (bleed + safe), h - 2 * (bleed + safe), "safe");
    if (overlays.boxes && data) {
      data.boxes.forEach(bx => {
        const r = rect(svg, bx.x, bx.y, bx.w, bx.h, "box");
        const t = document.createElementNS(SVG, "title");
        t.textContent = bx.name;
        r.appendChild(t);
      });
    }
  }

  // --- a click: the card's data row and the layout's boxes under the pointer ----------------
  const aside = document.getElementById("details");
  const detailsBody = document.getElementById("details-body");
  document.getElementById("close").addEventListener("click", () => { aside.hidden = true; });

  function openButton(file, line) {
    const where = el("code", "where", `${file}:${line}`);
    if (!state.editor) return where;
    const button = el("button", "open", `${file}:${line}`);
    button.type = "button";
    button.addEventListener("click", async () => {
      const res = await fetch("/open", {method: "POST", headers: {"content-type": "application/json"},
                                        body: JSON.stringify({file: file, line: line})});
      const answer = await res.json();
      button.title = answer.opened ? "opened" : answer.error;
      button.dataset.result = answer.opened ? "opened" : "refused";
    });
    return button;
  }

  board.addEventListener("click", async (event) => {
    const img = event.target.closest(".face .pic");
    if (!img) return;
    const fig = img.closest(".face");
    const box = img.getBoundingClientRect();
    const x = (event.clientX - box.left) / box.width * Number(fig.dataset.w);
    const y = (event.clientY - box.top) / box.height * Number(fig.dataset.h);
    const data = await info(fig.dataset.face);
    if (!data) return;
    const hits = data.boxes.filter(bx => x >= bx.x && x <= bx.x + bx.w && y >= bx.y && y <= bx.y + bx.h).reverse();
    const row = data.card;
    const parts = [el("h2", "", `${fig.querySelector("figcaption").firstChild.textContent.trim()} (${data.face.side})`)];
    const src = el("p", "row-source"); src.append("data: ", openButton(row.file, row.line)); parts.push(src);
    const table = el("table", "fields");
    Object.entries(row.fields).forEach(([k, v]) => {
      if (v === null || v === "") return;
      const tr = el("tr");
      tr.append(el("th", "", k), el("td", "", typeof v === "string" ? v : JSON.stringify(v)));
      table.appendChild(tr);
    });
    parts.push(table);
    parts.push(el("h3", "", `layout ${data.layout.name || ""} — under the pointer (${x.toFixed(1)}, ${y.toFixed(1)} mm)`));
    const list = el("ul", "elements");
    hits.forEach(bx => {
      const li = el("li", "element");
      li.dataset.box = bx.name;
      li.append(el("strong", "", bx.name), ` ${bx.type} · `, openButton(bx.file, bx.line));
      list.appendChild(li);
    });
    if (!hits.length) list.appendChild(el("li", "", "no box of the layout here (bleed or background)"));
    parts.push(list);
    const errs = fig.querySelectorAll(".errors li");
    errs.forEach(li => {
      const [file, line] = (li.dataset.where || "").split(/:(?=\d+$)/);
      const p = el("p", "error", li.textContent + " ");
      if (file) p.append(openButton(file, Number(line || 1)));
      parts.push(p);
    });
    detailsBody.replaceChildren(...parts);
    aside.hidden = false;
    aside.dataset.face = fig.dataset.face;
  });
})();
