// What the user typed wins (web/boot.mjs: "fill", "default"). Every change the user makes to a
// field is stamped here, in the capture phase, before any handler of the page's Python hears of it.
// A classic script in <head>, not part of boot.mjs: a module runs only after the whole document is
// parsed and its file has arrived, and on a busy machine a fast user had typed into the form by
// then (3 of 20 return visits lost the key and the cap to the saved form). This file blocks the
// parser, so no field exists before it runs. The page never fires these events itself: a value the
// worker writes is no user's change.
"use strict";
(() => {
  let edits = 0;
  const editedAt = new WeakMap();           // field -> the stamp of the user's last change to it
  for (const type of ["input", "change"]) {
    document.addEventListener(type, (event) => {
      const field = event.target;
      if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement ||
          field instanceof HTMLSelectElement) editedAt.set(field, ++edits);
    }, true);
  }
  Object.defineProperty(window, "toolproofEdits", {
    value: Object.freeze({
      count: () => edits,                                   // the user's changes so far
      at: (field) => editedAt.get(field),                   // a field's last one, or undefined
    }),
  });
})();
