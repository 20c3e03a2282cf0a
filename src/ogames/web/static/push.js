// "Notify me in this browser" on the my-games page (web/notify/push.py): where the browser has
// service workers and the Push API, the button asks for permission, subscribes with the site's
// VAPID key and hands the subscription to the server; elsewhere it stays hidden.
(function () {
  const button = document.getElementById("push-subscribe");
  const state = document.getElementById("push-state");
  if (!button || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;
  button.hidden = false;

  function keyBytes(base64url) {
    const padded = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
    return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
  }

  async function subscribe() {
    if ((await Notification.requestPermission()) !== "granted") {
      state.textContent = button.dataset.denied;
      return;
    }
    const registration = await navigator.serviceWorker.register("/push-worker.js", { scope: "/" });
    const key = (await (await fetch("/push/key")).json()).key;
    const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    const answer = await fetch("/push/subscribe", {
      method: "POST", headers: window.OgamesPage.jsonHeaders(), body: JSON.stringify(subscription.toJSON()),
    });
    state.textContent = answer.ok ? button.dataset.done : button.dataset.failed;
  }

  button.addEventListener("click", () => {
    subscribe().catch(() => { state.textContent = button.dataset.failed; });
  });
})();
