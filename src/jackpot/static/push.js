// The account page's push switch ("Turn on push notifications on this device"):
// registers the service worker, asks for the permission, subscribes with the site's
// VAPID key and stores the subscription on the account; "Turn off" undoes it. Pushes
// come even when no tab of the site is open.
import { t } from "./i18n.js";

const box = document.getElementById("push");
const button = document.getElementById("push-toggle");
const status = document.getElementById("push-status");

function say(text) { status.textContent = text; }

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
    throw new Error(message);
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
  if (sub) say(t("This browser is notified of your throws, reminders, rematch offers and time-outs."));
}

async function turnOn() {
  // Asked first, while the click still counts as the person's own gesture.
  const answer = await Notification.requestPermission();
  if (answer !== "granted") {
    say(t("Notifications are blocked for this site; allow them in the browser's site settings."));
    return;
  }
  const reg = await registration();
  const { public_key } = await api("GET", "/api/push/key");
  await navigator.serviceWorker.ready;
  say(t("Asking this browser's push service for an address…"));
  let sub;
  try {
    // A browser cut off from its push service may never answer: give up after a while.
    const late = new Promise((_, fail) => setTimeout(() => fail(new Error(t("its push service did not answer"))), 30000));
    sub = await Promise.race([
      reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) }),
      late,
    ]);
  } catch (err) {
    say(t("This browser could not subscribe to notifications ({reason}).", { reason: err.message }));
    return;
  }
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
    say(t("This browser cannot show notifications from a web site."));
    button.disabled = true;
  } else {
    button.hidden = false;
    show();
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        if (button.dataset.on) await turnOff();
        else await turnOn();
        await show();
      } catch (err) {
        say(t("Something went wrong: {reason}", { reason: err.message }));
      } finally {
        button.disabled = false;
      }
    });
  }
}
