// The token and the report API: every request carries the token as a Bearer header.

const TOKEN_KEY = "pushtally.token";

// A token may arrive in the URL fragment (never sent to the server, so never in its logs); it moves to
// this tab's session storage and leaves the address bar at once; the rest of the fragment is the view.
export function takeTokenFromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("token")) sessionStorage.setItem(TOKEN_KEY, params.get("token"));
  if (params.has("token")) {
    params.delete("token");
    history.replaceState(null, "", location.pathname + (params.toString() ? "#" + params : ""));
  }
}

export function token() { return sessionStorage.getItem(TOKEN_KEY); }
export function saveToken(value) { sessionStorage.setItem(TOKEN_KEY, value); }
export function forgetToken() { sessionStorage.removeItem(TOKEN_KEY); }

export class AuthError extends Error {}

// A refusal other than the token's, with its status, for views that treat some (a 404) as "nothing to show".
export class HTTPError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

// `format` null sends none, for the routes that are not reports (they refuse parameters they do not take).
export async function api(path, params = {}, format = "json") {
  const query = new URLSearchParams(params);
  if (format) query.set("format", format);
  if (format === "csv") query.set("bom", "1");
  const target = query.toString() ? `${path}?${query}` : path;
  let response;
  try {
    response = await fetch(target, { headers: { Authorization: `Bearer ${token()}` } });
  } catch (error) {
    throw new Error("Cannot reach the PushTally server. Is it running?");
  }
  if (response.status === 401 || response.status === 403) {
    throw new AuthError("Your token was refused (expired, revoked, or without the read role). Sign in again.");
  }
  if (!response.ok) {
    let message = `The server answered ${response.status}.`;
    try { message = (await response.json()).message || message; } catch (_) { /* not JSON */ }
    throw new HTTPError(message, response.status);
  }
  return format === "csv" ? response : response.json();
}
