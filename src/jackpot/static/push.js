// The account page's push switch ("Turn on push notifications on this device"):
// registers the service worker, asks for the permission, subscribes with the site's
// VAPID key and stores the subscription on the account; "Turn off" undoes it. Pushes
// come even when no tab of the site is open.
//
// What goes wrong is said in the page's words, never the browser's own message (English,
// and different in every browser), and a window that cannot have push at all (a private
// window, or one whose site data is blocked) is told apart from a person's refusal.
import { t } from "./i18n.js";

const box = document.getElementById("push");
const button = document.getElementById("push-toggle");
const status = document.getElementById("push-status");

function say(text) { status.textContent = text; }

const SAY = {
  unavailable: () => t("Push notifications are not available in this window. A private window has none, and some browsers have none at all: open the site in a normal window of an up-to-date browser."),
  noStorage: () => t("This window keeps no data for this site (a private window, or site data blocked in the browser's settings), so it cannot receive push notifications. Open the site in a normal window."),
  blocked: () => t("Notifications are blocked for this site; allow them in the browser's site settings."),
  declinedByBrowser: () => t("The browser declined without asking you, as it does in a private window. Open the site in a normal window to turn push notifications on."),
  dismissed: () => t("Notifications were not allowed. Press the button again to be asked once more."),
  refusedHere: () => t("This browser does not allow push notifications in this window; a private window never does. Open the site in a normal window."),
  service: () => t("This browser's push service could not be reached. Try again later."),
  timeout: () => t("This browser's push service did not answer. Try again later."),
  offline: () => t("The site could not be reached. Check the connection and try again."),
  failed: () => t("This browser could not subscribe to notifications. Try again later."),
};

/** The site's own refusal: its message is in the reader's language already. */
class Said extends Error {}

/** What to say about `err`, by its kind, never by the browser's text. */
function reason(err) {
  if (err instanceof Said) return t("Something went wrong: {reason}", { reason: err.message });
  if (err instanceof TypeError) return SAY.offline(); // fetch could not reach the site
  const name = err && err.name;
  if (name === "SecurityError") return SAY.noStorage();
  if (name === "NotAllowedError") return SAY.refusedHere();
  if (name === "AbortError") return SAY.service();
  if (name === "TimeoutError") return SAY.timeout();
  if (name === "InvalidStateError" || name === "NotSupportedError") return SAY.unavailable();
  return SAY.failed();
}

function keyBytes(base64url) {
  const b64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((base64url.length + 3) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

async function api(method, path, body) {
  const resp = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!resp.ok && resp.status !== 204) {
    let message = t("the server answered {status}", { status: resp.status });
    try { message = (await resp.json()).error.message; } catch { /* keep the status */ }
    throw new Said(message);
  }
  return resp.status === 204 ? null : resp.json();
}

async function registration() {
  return navigator.serviceWorker.register("/sw.js", { scope: "/" });
}

async function current() {
  const reg = await navigator.serviceWorker.getRegistration("/");
  return reg ? reg.pushManager.getSubscription() : null;
}

async function show() {
  const sub = await current().catch(() => null);
  button.dataset.on = sub ? "1" : "";
  button.textContent = sub
    ? t("Turn off push notifications on this device")
    : t("Turn on push notifications on this device");
  if (sub) say(t("This browser is notified of your throws, reminders, rematch offers, challenges and time-outs."));
}

/** The stored answer to "may this site notify you?", or null if the browser will not say. */
async function permissionState() {
  try {
    return (await navigator.permissions.query({ name: "notifications" })).state;
  } catch {
    return null;
  }
}

async function turnOn() {
  if (Notification.permission === "denied") {
    say(SAY.blocked());
    return;
  }
  // Asked first, while the click still counts as the person's own gesture.
  const answer = await Notification.requestPermission();
  if (answer === "default") {
    say(SAY.dismissed());
    return;
  }
  if (answer !== "granted") {
    // A refusal the person made is kept by the browser; a private window's is not.
    say((await permissionState()) === "denied" ? SAY.blocked() : SAY.declinedByBrowser());
    return;
  }
  const reg = await registration();
  const { public_key } = await api("GET", "/api/push/key");
  await navigator.serviceWorker.ready;
  say(t("Asking this browser's push service for an address…"));
  // A browser cut off from its push service may never answer: give up after a while.
  const late = new Promise((_, fail) => setTimeout(() => fail(new DOMException("", "TimeoutError")), 30000));
  const sub = await Promise.race([
    reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) }),
    late,
  ]);
  const json = sub.toJSON();
  await api("POST", "/api/push/subscriptions", { endpoint: json.endpoint, keys: json.keys });
}

async function turnOff() {
  const sub = await current();
  if (!sub) return;
  const { subscriptions } = await api("GET", "/api/push/subscriptions");
  for (const s of subscriptions) {
    if (s.endpoint === sub.endpoint) await api("DELETE", `/api/push/subscriptions/${s.id}`);
  }
  await sub.unsubscribe();
  say(t("This browser is no longer notified."));
}

if (box && button) {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(SAY.unavailable());
    button.disabled = true;
  } else {
    button.hidden = false;
    show().then(() => { if (!button.dataset.on && Notification.permission === "denied") say(SAY.blocked()); });
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        if (button.dataset.on) await turnOff();
        else await turnOn();
        await show();
      } catch (err) {
        say(reason(err));
      } finally {
        button.disabled = false;
      }
    });
  }
}
