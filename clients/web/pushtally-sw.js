/*
 * PushTally for web push: display receipts and taps from a site's service worker, posted to a PushTally
 * collector. Plain JavaScript, no dependencies, no build step. In the service worker:
 *
 *   importScripts('pushtally-sw.js');
 *   PushTally.init({ collector: 'https://collector.example.com', appVersion: '3.1' });
 *
 * The collector lists the site's origin with `pushtally serve --cors-origin`. See clients/web/README.md.
 */
(function (scope) {
  'use strict';

  // The same bounds and batches as PushTallyKit's outbox (docs/KIT.md).
  var MAX_QUEUED_EVENTS = 1000;
  var MAX_EVENT_AGE_MS = 7 * 86400 * 1000;
  var BATCH_SIZE = 100;
  // A collector that never answers must not hold a push event open until the browser kills the worker.
  var REQUEST_TIMEOUT_MS = 10000;
  var SYNC_TAG = 'pushtally-flush';
  var ROUTES = { display: 'v1/receipts', action: 'v1/actions' };

  var settings = null;
  var database = null;
  // One flush at a time in this worker, so a queued event is not posted twice at once.
  var flushing = Promise.resolve();
  // A flush queued behind the running one and not started yet: it will send whatever is queued when it starts,
  // so a burst of records shares it instead of each reading the whole outbox again (quadratic in the burst).
  var waitingFlush = null;

  function noop() {}

  function settle(promise) {
    return Promise.resolve(promise).then(noop, noop);
  }

  // MARK: IndexedDB: the install id, the outbox and the counts of what was dropped or refused

  function openDatabase() {
    if (!database) {
      database = new Promise(function (resolve, reject) {
        var request = indexedDB.open('pushtally', 1);
        request.onupgradeneeded = function () {
          request.result.createObjectStore('outbox', { autoIncrement: true });
          request.result.createObjectStore('meta');
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
      // A failed open is tried again by the next event.
      database.catch(function () { database = null; });
    }
    return database;
  }

  function requested(request) {
    return new Promise(function (resolve, reject) {
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  // Runs `work(transaction)` (IndexedDB requests only) and resolves with its value once the transaction committed.
  function transact(mode, work) {
    return openDatabase().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(['outbox', 'meta'], mode);
        var value;
        transaction.oncomplete = function () { resolve(value); };
        transaction.onerror = transaction.onabort = function () { reject(transaction.error); };
        Promise.resolve(work(transaction)).then(function (result) { value = result; }, function () {
          try { transaction.abort(); } catch (error) { /* already finished: its own error handler answered */ }
        });
      });
    });
  }

  function addToCount(meta, name, amount) {
    if (amount === 0) return Promise.resolve();
    return requested(meta.get(name)).then(function (count) { return requested(meta.put((count || 0) + amount, name)); });
  }

  // The install id, made once per browser profile and origin: the Kit's `device_id`.
  function deviceID(meta) {
    return requested(meta.get('device_id')).then(function (id) {
      if (id) return id;
      var made = scope.crypto.randomUUID();
      return requested(meta.put(made, 'device_id')).then(function () { return made; });
    });
  }

  function enqueue(pushID, action) {
    return transact('readwrite', function (transaction) {
      var meta = transaction.objectStore('meta');
      return deviceID(meta).then(function (device) {
        var event = { push_id: pushID, device_id: device, receipt_id: scope.crypto.randomUUID(), ts: Date.now() / 1000, platform: 'web' };
        if (action !== null) event.action = action;
        if (settings.appVersion !== null) event.app_version = settings.appVersion;
        var route = action === null ? ROUTES.display : ROUTES.action;
        return requested(transaction.objectStore('outbox').add({ route: route, event: event, queued_at: Date.now() }));
      });
    });
  }

  // Drops what is older than the age bound, then the oldest beyond the count bound, and counts them.
  function trim(transaction) {
    var outbox = transaction.objectStore('outbox');
    return requested(outbox.getAllKeys()).then(function (keys) {
      return requested(outbox.getAll()).then(function (entries) {
        var oldest = Date.now() - MAX_EVENT_AGE_MS;
        var doomed = [];
        var kept = 0;
        for (var index = entries.length - 1; index >= 0; index--) {
          if (!(entries[index].queued_at >= oldest) || kept >= MAX_QUEUED_EVENTS) {
            doomed.push(keys[index]);
          } else {
            kept += 1;
          }
        }
        return Promise.all(doomed.map(function (key) { return requested(outbox.delete(key)); }))
          .then(function () { return addToCount(transaction.objectStore('meta'), 'dropped', doomed.length); });
      });
    });
  }

  // MARK: Sending

  // What is queued, in batches of one route each, the route of the oldest event first.
  function queuedBatches() {
    return transact('readwrite', function (transaction) {
      return trim(transaction).then(function () {
        var outbox = transaction.objectStore('outbox');
        return Promise.all([requested(outbox.getAllKeys()), requested(outbox.getAll())]);
      });
    }).then(function (found) {
      var routes = [];
      var byRoute = {};
      found[0].forEach(function (key, index) {
        var entry = found[1][index];
        if (!byRoute[entry.route]) { byRoute[entry.route] = []; routes.push(entry.route); }
        var batches = byRoute[entry.route];
        if (batches.length === 0 || batches[batches.length - 1].keys.length >= BATCH_SIZE) {
          batches.push({ route: entry.route, keys: [], lines: [] });
        }
        batches[batches.length - 1].keys.push(key);
        batches[batches.length - 1].lines.push(JSON.stringify(entry.event));
      });
      return routes.reduce(function (all, route) { return all.concat(byRoute[route]); }, []);
    });
  }

  // 'sent' (refused: how many of it the collector refused), 'missing' (no such route: keep it, send the
  // other routes), or 'retry' (offline, collector down, 5xx, 408, 429: keep everything for later).
  function send(batch) {
    var headers = { 'Content-Type': 'application/x-ndjson' };
    if (settings.ingestKey) headers.Authorization = 'Bearer ' + settings.ingestKey;
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, REQUEST_TIMEOUT_MS);
    return fetch(settings.collector + '/' + batch.route, {
      method: 'POST', headers: headers, body: batch.lines.join('\n'), credentials: 'omit', signal: controller.signal,
    }).then(function (response) {
      var status = response.status;
      if (status === 404) return { outcome: 'missing' };
      if (status === 408 || status === 429 || status >= 500 || status < 200 || (status >= 300 && status < 400)) {
        return { outcome: 'retry' };
      }
      // Any other 4xx refuses the whole batch (a 400 names each refused event in its body).
      if (status > 400) return { outcome: 'sent', refused: batch.keys.length };
      return response.json().then(function (answer) {
        return { outcome: 'sent', refused: Array.isArray(answer.rejected) ? answer.rejected.length : 0 };
      }, function () {
        return { outcome: 'sent', refused: response.status === 400 ? batch.keys.length : 0 };
      });
    }, function () {
      return { outcome: 'retry' };
    }).finally(function () { clearTimeout(timer); });
  }

  function removeSent(batch, refused) {
    return transact('readwrite', function (transaction) {
      var outbox = transaction.objectStore('outbox');
      return Promise.all(batch.keys.map(function (key) { return requested(outbox.delete(key)); }))
        .then(function () { return addToCount(transaction.objectStore('meta'), 'rejected', refused); });
    });
  }

  function report(retry) {
    return transact('readonly', function (transaction) {
      var meta = transaction.objectStore('meta');
      return Promise.all([
        requested(transaction.objectStore('outbox').count()), requested(meta.get('dropped')), requested(meta.get('rejected')),
      ]);
    }).then(function (found) {
      return { queued: found[0], dropped: found[1] || 0, rejected: found[2] || 0, retry: retry };
    });
  }

  function sendQueued() {
    return queuedBatches().then(function (batches) {
      var missing = {};
      var next = function (index) {
        if (index >= batches.length) return report(false);
        var batch = batches[index];
        if (missing[batch.route]) return next(index + 1);
        return send(batch).then(function (result) {
          if (result.outcome === 'retry') {
            // Where the browser has Background Sync, it wakes the worker once it is online again.
            if (scope.registration.sync) settle(scope.registration.sync.register(SYNC_TAG));
            return report(true);
          }
          if (result.outcome === 'missing') {
            missing[batch.route] = true;
            return next(index + 1);
          }
          return removeSent(batch, result.refused).then(function () { return next(index + 1); });
        });
      };
      return next(0);
    });
  }

  function flush() {
    if (waitingFlush) return waitingFlush;
    var run = flushing.then(function () {
      waitingFlush = null;
      return sendQueued();
    });
    waitingFlush = run;
    flushing = settle(run);
    return run;
  }

  // MARK: Recording

  function pushIDText(value) {
    if (typeof value === 'number' && isFinite(value)) return String(value);
    if (typeof value === 'string' && value !== '') return value;
    return null;
  }

  function record(pushID, action) {
    if (!settings) return Promise.reject(new Error('PushTally.init was not called'));
    var id = pushIDText(pushID);
    if (id === null) return settle(flush()).then(function () { return { recorded: false }; });
    return enqueue(id, action).then(function () {
      return flush().then(function (result) {
        return { recorded: true, queued: result.queued, dropped: result.dropped, rejected: result.rejected };
      });
    });
  }

  // MARK: Handlers

  function payloadOf(data) {
    if (!data) return {};
    try {
      var parsed = data.json();
      return parsed !== null && typeof parsed === 'object' ? parsed : {};
    } catch (error) {
      return { body: data.text() };
    }
  }

  function objectOr(value) {
    return value !== null && typeof value === 'object' ? value : {};
  }

  function onPush(event) {
    var payload = payloadOf(event.data);
    var data = objectOr(payload.data);
    var pushID = pushIDText(payload.push_id !== undefined ? payload.push_id : data.push_id);
    // Queued before the notification is shown, so nothing that happens after can lose it.
    var recorded = pushID === null ? settle(flush()) : record(pushID, null);
    var notification = objectOr(payload.notification);
    var pick = function (key) { return payload[key] !== undefined ? payload[key] : notification[key]; };
    var options = { data: Object.assign({}, data) };
    if (pushID !== null) options.data.push_id = pushID;
    var url = pick('url') || pick('click_action') || data.url || objectOr(payload.fcm_options).link;
    if (typeof url === 'string') options.data.url = url;
    ['body', 'icon', 'image'].forEach(function (key) {
      if (typeof pick(key) === 'string') options[key] = pick(key);
    });
    if (Array.isArray(pick('actions'))) options.actions = pick('actions');
    var title = pick('title');
    var shown = scope.registration.showNotification(title === undefined ? '' : String(title), options);
    event.waitUntil(Promise.all([settle(recorded), shown]));
  }

  function openURL(url) {
    return Promise.resolve().then(function () {
      var target = new URL(url, scope.location.href).href;
      return scope.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (windows) {
        for (var index = 0; index < windows.length; index++) {
          if (windows[index].url === target && 'focus' in windows[index]) return windows[index].focus();
        }
        return scope.clients.openWindow(target);
      });
    });
  }

  function onNotificationClick(event) {
    var data = objectOr(event.notification.data);
    // Recorded first: the tap is kept even when opening the page fails.
    var recorded = data.push_id !== undefined ? record(data.push_id, event.action || 'open') : settle(flush());
    event.notification.close();
    var opened = typeof data.url === 'string' ? openURL(data.url) : Promise.resolve();
    event.waitUntil(Promise.all([settle(recorded), settle(opened)]));
  }

  function onNotificationClose(event) {
    var data = objectOr(event.notification.data);
    var recorded = data.push_id !== undefined ? record(data.push_id, 'dismiss') : settle(flush());
    event.waitUntil(settle(recorded));
  }

  function onSync(event) {
    if (event.tag !== SYNC_TAG) return;
    // Rejected while the collector is still out of reach, so the browser tries again later.
    event.waitUntil(flush().then(function (result) {
      if (result.retry && !event.lastChance) throw new Error('PushTally: the collector is out of reach');
    }));
  }

  scope.PushTally = {
    /**
     * Starts PushTally; call it once, when the service worker script runs. `collector` is the collector's
     * URL, `appVersion` (optional) goes out as `app_version`, `ingestKey` (optional) as a bearer token.
     * With `handlers: false` it installs no push or notification handlers (a site that shows notifications
     * itself calls recordDisplay and recordAction); queued events are still sent on activation and sync.
     */
    init: function (options) {
      options = objectOr(options);
      var collector = typeof options.collector === 'string' ? options.collector.replace(/\/+$/, '') : '';
      if (!/^https?:\/\/[^/]/.test(collector)) {
        throw new TypeError("PushTally.init needs the collector's URL, e.g. { collector: 'https://collector.example.com' }");
      }
      if (settings) throw new Error('PushTally.init was called twice');
      settings = {
        collector: collector,
        appVersion: options.appVersion === undefined || options.appVersion === null ? null : String(options.appVersion),
        ingestKey: typeof options.ingestKey === 'string' && options.ingestKey !== '' ? options.ingestKey : null,
      };
      if (options.handlers !== false) {
        scope.addEventListener('push', onPush);
        scope.addEventListener('notificationclick', onNotificationClick);
        scope.addEventListener('notificationclose', onNotificationClose);
      }
      scope.addEventListener('activate', function (event) { event.waitUntil(settle(flush())); });
      scope.addEventListener('sync', onSync);
    },

    /**
     * Resolves to this browser profile's install id: the `device_id` every event carries, made once and kept in
     * IndexedDB. Hand it to your backend with the push subscription (a page asks its worker through
     * postMessage), so the backend's delivery lines (POST /v1/pushes/{push_id}/deliveries) name the same device.
     */
    deviceID: function () {
      return transact('readwrite', function (transaction) { return deviceID(transaction.objectStore('meta')); });
    },

    /** Records that the push was shown; resolves to { recorded, queued, dropped, rejected } once sent or queued. */
    recordDisplay: function (pushID) {
      return record(pushID, null);
    },

    /** Records a tap: 'open' for the notification's body, 'dismiss', or an action button's id. */
    recordAction: function (pushID, action) {
      if (typeof action !== 'string' || action === '') return Promise.reject(new TypeError('PushTally.recordAction needs an action'));
      return record(pushID, action);
    },

    /**
     * Sends what is queued; resolves to { queued, dropped, rejected }: events still waiting, and the running
     * counts of those dropped by the outbox's bounds and refused by the collector.
     */
    flush: function () {
      if (!settings) return Promise.reject(new Error('PushTally.init was not called'));
      return flush().then(function (result) {
        return { queued: result.queued, dropped: result.dropped, rejected: result.rejected };
      });
    },
  };
})(self);
