// The match's live connection. One WebSocket carries this player's moves and the
// match's events (web/play/edge/socket_moves.py, docs/contracts.md); where a socket cannot
// open (a proxy without WebSockets) the events come over Server-Sent Events and the
// page sends moves over HTTP. A socket that worked and dropped reconnects from the
// last event the page has; the server replays what it missed.
const FINAL = ["match_ended", "cancelled"];

export class Live {
  // onEvent(ev) gets every event in order; onDown(bool) says whether we are cut
  // off; lastSeq() is where to resume; over() whether the match needs no more.
  constructor(matchId, { onEvent, onDown, lastSeq, over }) {
    Object.assign(this, { matchId, onEvent, onDown, lastSeq, over });
    this.socket = null;
    this.source = null;
    this.noSocket = !("WebSocket" in window);
    this.nextId = 0;
    this.waiting = new Map(); // move id -> { resolve, reject } until its answer
  }

  connect(after) {
    this.close();
    if (this.noSocket) this.openEvents(after); else this.openSocket(after);
  }

  close() {
    if (this.socket) { this.socket.onclose = null; this.socket.close(); this.socket = null; }
    if (this.source) { this.source.close(); this.source = null; }
    this.failPending();
  }

  canSend() { return this.socket !== null && this.socket.readyState === WebSocket.OPEN; }

  // A move over the socket; resolves with the server's answer ({type: "ack", seq}
  // or {type: "error", error}).
  send(action, body) {
    this.nextId += 1;
    const id = this.nextId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, action, ...body }));
    });
  }

  failPending() {
    for (const p of this.waiting.values()) p.reject(new Error("the connection closed"));
    this.waiting.clear();
  }

  deliver(events) {
    let final = false;
    for (const ev of events) { this.onEvent(ev); if (FINAL.includes(ev.type)) final = true; }
    return final;
  }

  openSocket(after) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/api/matches/${this.matchId}/socket?last_event_id=${after}`;
    const socket = new WebSocket(url);
    let worked = false;
    this.socket = socket;
    socket.onopen = () => { worked = true; this.onDown(false); };
    socket.onmessage = (msg) => {
      const data = JSON.parse(msg.data);
      const final = this.deliver(data.events || []); // an answer carries its move's events
      const pending = data.id != null && data.type !== "events" ? this.waiting.get(data.id) : undefined;
      if (pending) { this.waiting.delete(data.id); pending.resolve(data); }
      if (final) { this.onDown(false); this.close(); }
    };
    socket.onclose = () => {
      this.socket = null;
      this.failPending();
      if (this.over()) return;
      if (worked) {
        this.onDown(true);
        setTimeout(() => { if (!this.socket && !this.source) this.connect(this.lastSeq()); }, 1000);
      } else {
        this.noSocket = true; // never opened: stay on HTTP and SSE
        this.openEvents(this.lastSeq());
      }
    };
  }

  openEvents(after) {
    const source = new EventSource(`/api/matches/${this.matchId}/events?last_event_id=${after}`);
    this.source = source;
    source.addEventListener("open", () => this.onDown(false));
    source.addEventListener("error", () => this.onDown(source.readyState === EventSource.CONNECTING && !this.over()));
    source.addEventListener("match", (msg) => {
      if (this.deliver([JSON.parse(msg.data)])) { this.onDown(false); this.close(); }
    });
  }
}
