// cardforge serve: a play's page. A sheet whose save brought us here is saved: the draft it
// left in this tab (sheet.js keeps it there while the save is on its way) is done with.
"use strict";
try {
  for (let i = sessionStorage.length - 1; i >= 0; i--) {
    const key = sessionStorage.key(i);
    if (key && key.indexOf("cardforge-draft:") === 0) sessionStorage.removeItem(key);
  }
} catch (e) { /* storage off: nothing was kept */ }
