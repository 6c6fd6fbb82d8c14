// Kartentisch: keep the phone's screen awake while a table page is open
// (the game lies on the table for a long time). Everything else is htmx.
"use strict";
(function () {
  if (!("wakeLock" in navigator)) return;
  let lock = null;
  async function keepAwake() {
    if (document.visibilityState !== "visible" || lock) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", function () { lock = null; });
    } catch (err) { lock = null; }  // not allowed (e.g. battery saver): fine
  }
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("click", keepAwake, { once: true });
  keepAwake();
})();
