// Kartentisch on a phone at the table: keeps the screen awake on table pages,
// resyncs at once after sleep or a network drop (and says so briefly), refuses
// entries while offline with a clear message (nothing is queued), moves from the
// lobby to the game page once, registers the
// service worker, and keeps a memory aid the player opened open when its region
// is redrawn. The texts come
// translated from #comfort's data attributes.
"use strict";
(function () {
  // Looked up when needed: the lobby turns into the game page by swapping the body.
  function banner() { return document.getElementById("comfort"); }
  const onTablePage = document.getElementById("sync") !== null;  // lobby or game
  const NOTE_SEEN = "kartentisch-insecure-note-seen";
  let hideTimer = null;
  let disconnected = false;
  let waking = false;
  let moving = null;  // {xhr, path, until}: the move to a page (HX-Location) being made
  const MOVE_MS = 10000;  // a move whose page has not come by then (dropped, refused offline) holds nothing back

  function say(kind, seconds) {
    const shown = banner();
    shown.textContent = shown.dataset[kind];
    shown.dataset.kind = kind;
    shown.hidden = false;
    clearTimeout(hideTimer);
    if (seconds) hideTimer = setTimeout(function () { banner().hidden = true; }, seconds * 1000);
  }

  // The sync poller (#sync) holds one poll open until its table changes; a change
  // brings the regions and a new poller, which asks again. Polls are never aborted
  // (htmx reports an abort as an error); a poll whose answer is no longer wanted is
  // left to finish, and its answer is not swapped in:
  // * one in flight when this phone sends an entry: the entry's answer brings the regions,
  //   and the poll's, coming a moment later, would redraw them over a selection begun since;
  // * one in flight when the page wakes up, loses the connection or comes back online:
  //   it may hang on a dead connection, so a resync asks at once, without holding;
  // * one whose poller was replaced by a newer one, which asks from a newer revision.
  const pollInFlight = new WeakMap();  // poller -> its XHR
  const unwanted = new WeakSet();      // XHRs whose answers are not swapped in
  function dropAnswerIfUnwanted(event) {
    if (unwanted.has(event.detail.xhr) || !event.target.isConnected) event.detail.shouldSwap = false;
  }
  function pollerSends(poller, xhr) {
    if (!pollInFlight.has(poller)) {  // on the poller itself: it may be replaced (detached) before its answer
      poller.addEventListener("htmx:beforeSwap", dropAnswerIfUnwanted);
      poller.addEventListener("htmx:beforeOnLoad", followOneMove);  // heard by the document only while attached
      poller.addEventListener("htmx:afterRequest", function (event) {
        if (pollInFlight.get(poller) === event.detail.xhr) pollInFlight.set(poller, null);
      });
    }
    pollInFlight.set(poller, xhr);
  }
  function dropPollInFlight() {
    const poller = document.getElementById("sync");
    const xhr = poller && pollInFlight.get(poller);
    if (xhr) unwanted.add(xhr);
  }
  function resync() {
    const poller = document.getElementById("sync");
    if (!poller) return;
    dropPollInFlight();
    const url = new URL(poller.getAttribute("hx-get"), location.href);
    url.searchParams.delete("hold");
    url.searchParams.delete("rev");  // whatever the revision: the regions, and a new poller
    htmx.ajax("GET", url.pathname + url.search, {source: document.body, swap: "none"});
  }

  // After a lost connection the poll in flight is presumed dead: its answer, if one
  // still comes, is dropped, and a resync is tried every second until one is answered.
  let retrying = null;
  function lostConnection(isEntry) {
    disconnected = true;
    dropPollInFlight();
    if (retrying === null) retrying = setInterval(function () { if (navigator.onLine) resync(); }, 1000);
    const refusalShown = !banner().hidden && banner().dataset.kind === "refused";
    if (isEntry || !refusalShown) say(isEntry ? "refused" : "offline");  // a refusal stays until back online
  }

  // --- connection: refuse entries while offline, report the resync -------------
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (navigator.onLine) return;
    event.preventDefault();  // nothing is sent, nothing is queued
    lostConnection(event.detail.requestConfig.verb !== "get");
  });
  // While this phone's own entry is on its way, no new sync poll starts: the entry's
  // answer brings the new regions and a new poller.
  const entriesOnTheWay = new Set();  // their XHRs; an answered one is done (readyState 4)
  document.addEventListener("htmx:beforeSend", function (event) {
    if (event.detail.elt.id === "sync") pollerSends(event.detail.elt, event.detail.xhr);
    if (event.detail.requestConfig.verb === "get") return;
    entriesOnTheWay.add(event.detail.xhr);
    dropPollInFlight();
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.id !== "sync") return;
    entriesOnTheWay.forEach(function (xhr) { if (xhr.readyState === 4) entriesOnTheWay.delete(xhr); });
    if (entriesOnTheWay.size > 0 || stillMoving()) event.preventDefault();
  });
  // The lobby becomes the game page once: at the start, the starting phone's answer
  // and every phone's lobby poll send it there (HX-Location). The first is followed;
  // until that page has come no poll is sent, and no further move is made (each would
  // load the page again), nor one sent to a poller replaced since.
  function followOneMove(event) {
    const xhr = event.detail.xhr;
    const location = xhr.getResponseHeader("HX-Location");
    if (!location || (moving && moving.xhr === xhr)) return;
    if (stillMoving() || !event.target.isConnected) {
      event.preventDefault();
      return;
    }
    const path = location.charAt(0) === "{" ? JSON.parse(location).path : location;
    moving = {xhr: xhr, path: path, until: Date.now() + MOVE_MS};
  }
  function stillMoving() {
    if (moving && Date.now() > moving.until) moving = null;
    return moving !== null;
  }
  function arrived(event) {
    if (moving && event.detail.pathInfo.requestPath === moving.path) moving = null;
  }
  document.addEventListener("htmx:beforeOnLoad", followOneMove);
  document.addEventListener("htmx:beforeSwap", arrived);
  document.addEventListener("htmx:afterRequest", arrived);  // also when it failed
  document.addEventListener("htmx:sendError", function (event) {
    lostConnection(event.detail.requestConfig.verb !== "get");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    const answered = event.detail.xhr && event.detail.xhr.status > 0;
    if (!answered || !(disconnected || waking)) return;
    disconnected = waking = false;
    clearInterval(retrying);
    retrying = null;
    say("back", 3);
  });
  document.addEventListener("submit", function (event) {  // plain forms (join, create, import)
    if (navigator.onLine) return;
    event.preventDefault();
    lostConnection(true);
  }, true);
  window.addEventListener("offline", function () { lostConnection(false); });

  // --- awake: the Screen Wake Lock while a table page is visible --------------
  let lock = null;
  async function keepAwake() {
    if (document.visibilityState !== "visible" || lock) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", function () { lock = null; });
    } catch (err) {
      lock = null;  // refused (e.g. battery saver): the screen may sleep, nothing else changes
    }
  }

  function showInsecureNoteOnce() {
    const note = document.getElementById("insecure-note");
    if (!note || localStorage.getItem(NOTE_SEEN)) return;
    note.hidden = false;
    note.querySelector("button").addEventListener("click", function () {
      localStorage.setItem(NOTE_SEEN, "1");
      note.hidden = true;
    });
  }

  if (onTablePage) {
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState !== "visible") return;
      waking = true;
      resync();
      keepAwake();
    });
    window.addEventListener("online", resync);
    if ("wakeLock" in navigator) {
      keepAwake();
    } else if (!window.isSecureContext) {
      showInsecureNoteOnce();
    }
  }

  // --- a memory aid (details[data-keep]) stays as the player left it ----------
  const keptOpen = {};  // data-keep -> open, as last toggled on this page
  document.addEventListener("toggle", function (event) {  // toggle doesn't bubble: capture
    const keep = event.target.dataset && event.target.dataset.keep;
    if (keep) keptOpen[keep] = event.target.open;
  }, true);
  function restoreKept() {
    document.querySelectorAll("details[data-keep]").forEach(function (details) {
      const open = keptOpen[details.dataset.keep];
      if (open !== undefined && details.open !== open) details.open = open;
    });
  }
  document.addEventListener("htmx:afterSwap", restoreKept);  // after every swap, out-of-band ones included

  // --- installable: the service worker caches the static files ----------------
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(banner().dataset.serviceWorker).catch(function () {
      // no worker (e.g. plain http on the LAN): the pages work the same, only not installable
    });
  }
})();
