// The service worker of the site's pushes (web/notify/push.py): shows "your move" with the game's
// title, and opens the game when the notice is clicked. A push carries {title, kind, url}.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {}; }
  const url = typeof data.url === "string" && data.url.startsWith("/g/") ? data.url : "/games/mine";
  const title = typeof data.title === "string" ? data.title : "ogames";
  const lang = (self.navigator.language || "en").toLowerCase().startsWith("ru") ? "ru" : "en";
  const body = lang === "ru" ? "Ваш ход" : "Your move";
  event.waitUntil(self.registration.showNotification(`${body}: ${title}`, { body: title, tag: url, data: { url } }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/games/mine";
  event.waitUntil(self.clients.openWindow(url));
});
