// The site's service worker as a site writes it (importScripts + PushTally.init), plus what the suite needs
// to drive it: the handlers PushTally installs are kept, so a message from the page can dispatch a click or a
// close to them, and every waitUntil promise is tracked, so the page can wait until the worker is done.
const handlers = {};
const seen = { push: 0, sync: 0, notificationclick: 0, notificationclose: 0 };
const pending = new Set();
let seenChanged = () => {};

const addEventListener = self.addEventListener.bind(self);

function tracked(promise) {
  const settled = Promise.resolve(promise).then(() => {}, () => {});
  pending.add(settled);
  settled.then(() => pending.delete(settled));
  return settled;
}

self.addEventListener = function (type, listener, options) {
  (handlers[type] = handlers[type] || []).push(listener);
  addEventListener(type, function (event) {
    const waitUntil = event.waitUntil.bind(event);
    event.waitUntil = (promise) => { tracked(promise); return waitUntil(promise); };
    if (type in seen) { seen[type] += 1; seenChanged(); }
    listener(event);
  }, options);
};

importScripts('/pushtally-sw.js');
PushTally.init({ collector: new URL(self.location.href).searchParams.get('collector'), appVersion: 'web-test-1' });

self.addEventListener = addEventListener;

async function notificationFor(pushID) {
  const notifications = await self.registration.getNotifications();
  const found = notifications.find((notification) => notification.data && notification.data.push_id === pushID);
  if (!found) throw new Error(`no notification shown for push ${pushID}`);
  return found;
}

// Resolves once the worker has seen `counts` events of each type and every waitUntil promise settled.
async function settled(counts) {
  while (Object.keys(counts).some((type) => seen[type] < counts[type])) {
    await new Promise((resolve) => { seenChanged = resolve; });
  }
  while (pending.size > 0) await Promise.all([...pending]);
}

async function answer(message) {
  switch (message.type) {
    case 'click':
    case 'close': {
      // The push that shows it may still be on its way.
      await settled(message.counts);
      const notification = await notificationFor(message.push_id);
      const type = message.type === 'click' ? 'notificationclick' : 'notificationclose';
      const done = [];
      const event = { notification, action: message.action || '', waitUntil: (promise) => done.push(tracked(promise)) };
      seen[type] += 1;
      handlers[type].forEach((handler) => handler(event));
      await Promise.all(done);
      return { dispatched: type };
    }
    case 'record': {
      // Displays of pushes first..first+count-1, recorded at once, as if `daysAgo` days ago.
      const clock = Date.now;
      if (message.daysAgo) Date.now = () => clock() - message.daysAgo * 86400000;
      let results;
      try {
        results = await Promise.all(Array.from({ length: message.count }, (_, index) => PushTally.recordDisplay(String(message.first + index))));
      } finally {
        Date.now = clock;
      }
      return { recorded: results.filter((result) => result.recorded).length, stats: await PushTally.flush() };
    }
    case 'deviceID':
      // Asked twice: the install id is made once.
      return { first: await PushTally.deviceID(), second: await PushTally.deviceID() };
    case 'settle': {
      await settled(message.counts);
      const notifications = await self.registration.getNotifications();
      return {
        stats: await PushTally.flush(),
        notifications: notifications.map((n) => ({ push_id: n.data && n.data.push_id, title: n.title, body: n.body, actions: n.actions.map((a) => a.action) })),
      };
    }
    default:
      throw new Error(`unknown message ${message.type}`);
  }
}

addEventListener('message', (event) => {
  const reply = answer(event.data).then((value) => ({ ok: true, value }), (error) => ({ ok: false, error: String(error) }));
  event.waitUntil(reply.then((result) => event.ports[0].postMessage(result)));
});
