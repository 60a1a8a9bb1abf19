// cardforge serve: the game page's player picker. Players take their seats in the order they
// join: a roster chip when tapped, a new name when typing starts in its box (emptied, it leaves
// its seat). Each shows its seat number; "+ another player" adds a box, up to the game's most;
// the first player is chosen among the seated and marked ★. The sheet opens with the players in
// that order (and ?first=N). Without this script the form still works (the roster's order, then
// the boxes').
"use strict";
document.querySelectorAll("form[data-seat-order]").forEach((form) => {
  const names = form.querySelector("fieldset.names");
  const most = Number(names.dataset.most) || 8;
  const add = form.querySelector("#add-name");
  const firstPick = form.querySelector("#first-pick");
  const first = firstPick.querySelector("select");
  const note = form.querySelector("#seats-note");
  const order = []; // checkboxes and text inputs, in seat order
  const boxes = () => Array.from(form.querySelectorAll('input[type="checkbox"][name="name"]'));
  const inputs = () => Array.from(names.querySelectorAll('input[type="text"][name="name"]'));
  const nameOf = (el) => (el.type === "checkbox" ? el.value : el.value.trim());
  const badge = (el) => el.parentElement.querySelector(".seat");
  const say = (text) => { note.textContent = text; note.hidden = !text; };

  const show = () => {
    const chosen = Number(first.value) || 0;
    [...boxes(), ...inputs()].forEach((el) => {
      const i = order.indexOf(el);
      const seat = badge(el);
      if (seat) seat.textContent = i >= 0 ? String(i + 1) + (i + 1 === chosen ? " ★" : "") : "";
      if (el.type === "checkbox") el.parentElement.classList.toggle("on", i >= 0);
      if (seat) seat.title = i + 1 === chosen ? "seat " + (i + 1) + ", first player" : i >= 0 ? "seat " + (i + 1) : "";
    });
    // the first player's choices: the seated players, by seat
    const keep = chosen <= order.length ? chosen : 0;
    first.replaceChildren(new Option("—", ""), ...order.map((el, i) => new Option(`${i + 1}. ${nameOf(el)}`, String(i + 1))));
    first.value = keep ? String(keep) : "";
    if (keep !== chosen) show();
    firstPick.hidden = order.length === 0;
    const rows = inputs().length;
    add.hidden = false;
    add.disabled = rows >= most || order.length + inputs().filter((i) => !i.value.trim()).length >= most;
  };

  const seat = (el, on) => {
    const i = order.indexOf(el);
    if (!on) {
      if (i >= 0) order.splice(i, 1);
      return true;
    }
    if (i >= 0) return true;
    if (order.length >= most) {
      say(`${most} players at most: untick or empty one first.`);
      return false;
    }
    order.push(el);
    return true;
  };

  const watch = (input) => input.addEventListener("input", () => {
    say("");
    seat(input, input.value.trim() !== "");
    show();
  });

  boxes().forEach((box) => box.addEventListener("change", () => {
    say("");
    if (!seat(box, box.checked)) box.checked = false;
    show();
  }));
  inputs().forEach(watch);
  first.addEventListener("change", show);

  add.addEventListener("click", () => {
    const rows = inputs();
    if (rows.length >= most) return;
    const row = rows[rows.length - 1].parentElement.cloneNode(true);
    const input = row.querySelector("input");
    input.value = "";
    input.id = "name-" + rows.length;
    if (!boxes().length) {
      input.placeholder = `Player ${rows.length + 1} (optional)`;
      input.setAttribute("aria-label", `Player ${rows.length + 1}`);
    }
    row.querySelector(".seat").textContent = "";
    add.before(row);
    watch(input);
    show();
    input.focus();
  });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const loose = inputs().filter((i) => i.value.trim() && !order.includes(i));
    if (loose.length) { // typed past the most: say so rather than drop a name
      say(`${most} players at most: ${loose.map((i) => i.value.trim()).join(", ")} ${loose.length > 1 ? "have" : "has"} no seat; empty a box or untick a player.`);
      return;
    }
    const query = new URLSearchParams();
    for (const [key, value] of new FormData(form)) if (key !== "name" && key !== "first") query.append(key, value);
    order.forEach((el) => query.append("name", nameOf(el)));
    if (first.value) query.append("first", first.value);
    window.location.assign(form.action + "?" + query.toString());
  });
  // boxes filled before the script ran (the browser's form restore): seated in page order
  [...boxes().filter((b) => b.checked), ...inputs().filter((i) => i.value.trim())].forEach((el) => seat(el, true));
  show();
});
