// Pictures loaded, by face name: a listener set before any <img> is parsed (this script is not
// deferred), on the capture phase (load events do not bubble). The tests read it: a card whose
// picture did not change loads once.
"use strict";
window.studioLoads = {};
document.addEventListener("load", (event) => {
  const img = event.target;
  if (!(img instanceof HTMLImageElement)) return;
  const face = img.closest(".face");
  if (face) window.studioLoads[face.dataset.face] = (window.studioLoads[face.dataset.face] || 0) + 1;
}, true);
