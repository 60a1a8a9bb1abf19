// cardforge serve: the game page's player picker. Roster players are tapped in seat order; the
// order is shown on each chip and the sheet opens with the players in that order, then the new
// names typed below. Without this script the form still works (the roster's order).
"use strict";
document.querySelectorAll("form[data-seat-order]").forEach((form) => {
  const order = [];
  const boxes = form.querySelectorAll('input[type="checkbox"][name="name"]');
  const show = () => boxes.forEach((box) => {
    const seat = box.parentElement.querySelector(".seat");
    const i = order.indexOf(box);
    if (seat) seat.textContent = i >= 0 ? String(i + 1) : "";
    box.parentElement.classList.toggle("on", i >= 0);
  });
  boxes.forEach((box) => box.addEventListener("change", () => {
    const i = order.indexOf(box);
    if (i >= 0) order.splice(i, 1);
    if (box.checked) order.push(box);
    show();
  }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const query = new URLSearchParams();
    for (const [key, value] of new FormData(form)) if (key !== "name") query.append(key, value);
    order.forEach((box) => query.append("name", box.value));
    form.querySelectorAll('input[type="text"][name="name"]').forEach((input) => {
      if (input.value.trim()) query.append("name", input.value.trim());
    });
    window.location.assign(form.action + "?" + query.toString());
  });
  show();
});
