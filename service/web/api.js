// The public REST API, the client's only source: JSON requests with the seat token in the
// Authorization header, and /stream read with fetch() (EventSource cannot send that header).
export const API = "/api/v1";

export class Problem extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.title)) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

function headers(token, extra = {}) {
  const h = { Accept: "application/json", ...extra };
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

/** GET a JSON resource; resolves to {body, etag, response}. */
export async function get(path, token) {
  // no-store: one URL answers each seat differently (Authorization), so no browser cache may mix them
  const response = await fetch(API + path, { headers: headers(token), cache: "no-store" });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Problem(response.status, body);
  return { body, etag: response.headers.get("ETag"), response };
}

export async function post(path, data, token, extra = {}) {
  const response = await fetch(API + path, {
    method: "POST",
    headers: headers(token, { "Content-Type": "application/json", ...extra }),
    body: JSON.stringify(data),
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Problem(response.status, body);
  return body;
}

/**
 * Follow a game's server-sent events with fetch(): `onEvent(event)` for each, resumed with
 * Last-Event-ID after a dropped connection, until `signal` aborts.
 */
export async function follow(gameId, token, lastId, onEvent, signal) {
  while (!signal.aborted) {
    try {
      const extra = { Accept: "text/event-stream" };
      if (lastId != null) extra["Last-Event-ID"] = String(lastId);
      const response = await fetch(`${API}/games/${gameId}/stream`, { headers: headers(token, extra), signal });
      if (!response.ok || !response.body) throw new Problem(response.status, null);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message = parse(block);
          if (message.event === "end") return; // the game is scored: nothing more will come
          if (message.id != null) lastId = Number(message.id);
          if (message.data) onEvent(JSON.parse(message.data));
        }
      }
    } catch (error) {
      if (signal.aborted) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function parse(block) {
  const message = { data: "" };
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "data") message.data += (message.data ? "\n" : "") + value;
    else message[field] = value;
  }
  return message;
}
